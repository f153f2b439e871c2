"""The `argrank` command on inputs it used to take without a word: perspective predictions with a repeated argument
or missing queries, a submission under another output_dir, and run files too large to hold in memory."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
RELEASE = REPO / "data" / "perspective"
QUERIES = RELEASE / "baseline-queries" / "queries_dev.jsonl"


def argrank(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "workflows.cli", *args],
        check=False,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )


def evaluate_perspective(predictions: Path, lists: dict[int, list[int]]) -> subprocess.CompletedProcess:
    lines = (json.dumps({"query_id": query, "relevant_candidates": ids}) + "\n" for query, ids in lists.items())
    predictions.write_text("".join(lines))
    return argrank(
        "evaluate", "--track", "perspective", "--data", str(RELEASE), "--predictions", str(predictions),
        "--scenario", "baseline", "--split", "dev", "--json",
    )  # fmt: skip


def query_lists() -> dict[int, list[int]]:
    """Each dev query's relevant arguments: a valid prediction for every query."""
    queries = [json.loads(line) for line in QUERIES.read_text().splitlines()]
    return {query["query_id"]: query["relevant_candidates"] for query in queries}


def test_perspective_predictions_with_an_argument_twice_in_a_list_are_refused(tmp_path):
    lists = query_lists()
    second = list(lists)[1]
    lists[second] = [*lists[second][:2], lists[second][0]]
    done = evaluate_perspective(tmp_path / "dev.jsonl", lists)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip() == (
        f"argrank: error: {tmp_path / 'dev.jsonl'}: line 2 (query {second}): "
        f"argument {lists[second][0]} is listed twice (ranks 1 and 3)"
    )


def test_perspective_queries_missing_from_the_predictions_are_named_and_scored_as_empty_lists(tmp_path):
    lists = query_lists()
    kept = dict(list(lists.items())[:1])
    done = evaluate_perspective(tmp_path / "dev.jsonl", kept)
    assert done.returncode == 0, done.stderr
    missing = ", ".join(str(q) for q in list(lists)[1:6]) + (", …" if len(lists) > 6 else "")
    assert done.stderr.strip() == (
        f"argrank: warning: {tmp_path / 'dev.jsonl'}: no predictions for {len(lists) - 1} queries, "
        f"scored as empty lists: {missing}"
    )
    assert json.loads(done.stdout)["queries"] == len(lists)
    assert evaluate_perspective(tmp_path / "all.jsonl", lists).stderr == ""


def test_report_reads_the_submission_under_luigi_cfgs_output_dir(tmp_path):
    (tmp_path / "luigi.cfg").write_text("[argrank]\noutput_dir = elsewhere\n")
    for root, score in (("outputs", "0.111"), ("elsewhere", "0.999")):
        folder = tmp_path / root / "submission" / "args"
        folder.mkdir(parents=True)
        (folder / "evaluation.json").write_text("{}")
        (folder / "evaluation.txt").write_text(f"nDCG@5 {score}\n")
    done = argrank("report", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "0.999" in done.stdout and "0.111" not in done.stdout
    done = argrank("report", "--dir", "outputs/submission", cwd=tmp_path)
    assert "0.111" in done.stdout and "0.999" not in done.stdout
    (tmp_path / "elsewhere" / "submission" / ".args.4194305.g26l7mo1.tmp").mkdir()  # a killed publisher's
    assert "== .args" not in argrank("report", cwd=tmp_path).stdout


def write_run(path: Path, topics: int, bad_first_line: bool = False, per_topic: int = 1_000, column2: str = "Q0") -> int:
    """A valid args run of `topics` × `per_topic` lines with long ids (about 80 bytes a line); its size in bytes.
    `column2` "stance": Task 2's stance labels in turn."""
    labels = ("FIRST", "SECOND", "NEUTRAL", "NO") if column2 == "stance" else (column2,)
    with path.open("w") as out:
        if bad_first_line:
            out.write("1 Q0 first 1 not-a-score tag\n")
        for topic in range(1, topics + 1):
            doc = f"S{topic:05d}c8e7f2a9b1d3e5-A{{:07d}}d4e5f6a7b8c9d0e1f2"
            out.write("".join(f"{topic} {labels[r % len(labels)]} {doc.format(r)} {r} {2000 - r * 0.001:.3f} argrank-bm25\n"
                              for r in range(1, per_topic + 1)))  # fmt: skip
    return path.stat().st_size


def peak_rss(*args: str) -> tuple[subprocess.CompletedProcess, int]:
    """The command's result and the largest resident size in bytes of any child so far (Linux: kB)."""
    done = argrank(*args)
    return done, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss is in kB on Linux only")
def test_validate_and_evaluate_stream_a_large_run_file(tmp_path):
    """A 50 MB run: before, validate held its text, its lines and every line's fields (about 10 times the file)
    and evaluate did the same before it could name line 1; now both stay near a small file's footprint."""
    small = tmp_path / "small.txt"
    write_run(small, 1)
    done, baseline = peak_rss("validate", str(small))  # the interpreter and its imports
    assert done.returncode == 0, done.stderr
    large = tmp_path / "large.txt"
    size = write_run(large, 640)
    assert size > 50_000_000
    done, peak = peak_rss("validate", str(large))
    assert done.stdout.strip() == f"{large}: valid (640000 lines)", done.stderr
    assert peak - baseline < size / 2
    bad = tmp_path / "bad.txt"
    write_run(bad, 640, bad_first_line=True)
    qrels = tmp_path / "q.qrels"
    qrels.write_text("1 0 first 1\n")
    done, peak = peak_rss("evaluate", "--run", str(bad), "--qrels", str(qrels))
    assert done.returncode == 2
    assert done.stderr.strip() == f"argrank: error: {bad}: line 1: score 'not-a-score' is not a finite number"
    assert peak - baseline < size / 2


# Runs the command and writes its peak resident size (kB) to the file named first. A process started by this one
# would take this one's peak as its own floor (Linux keeps the high-water mark across fork and exec), so a small
# launcher starts it and reads its rusage.
LAUNCHER = """
import os, subprocess, sys
child = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(child.pid, 0)
open(sys.argv[1], "w").write(str(usage.ru_maxrss))
sys.exit(os.waitstatus_to_exitcode(status))
"""


def own_peak(tmp_path: Path, *args: str) -> tuple[int, str, int]:
    """The command's exit status, its standard output and its own peak resident size in bytes (Linux: kB)."""
    peak = tmp_path / "peak.txt"
    done = subprocess.run([sys.executable, "-c", LAUNCHER, str(peak), sys.executable, "-m", "workflows.cli", *args],
                          cwd=REPO, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO)})  # fmt: skip
    return done.returncode, done.stdout, int(peak.read_text()) * 1024


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss is in kB on Linux only")
def test_evaluate_and_compare_of_a_large_run_stay_under_300_mb(tmp_path):
    """A 100 MB run (1,250 topics × 1,000 documents) against judgments of 50 of its topics: evaluate of a 200 MB
    run took 2.5 GB, holding every line; now it keeps what the measures look at, and compare the same."""
    run = tmp_path / "large.txt"
    assert write_run(run, 1_250) > 100_000_000
    qrels = tmp_path / "q.qrels"
    doc = "S{:05d}c8e7f2a9b1d3e5-A{:07d}d4e5f6a7b8c9d0e1f2"
    qrels.write_text("".join(f"{topic} 0 {doc.format(topic, rank)} {rank % 3}\n" for topic in range(1, 51)
                             for rank in (1, 2, 7, 400, 999)), encoding="utf-8")  # fmt: skip
    status, out, peak = own_peak(tmp_path, "evaluate", "--run", str(run), "--qrels", str(qrels), "--json")
    assert status == 0 and json.loads(out)["topics"] == 50
    assert peak < 300 * 2**20, f"evaluate: {peak / 2**20:.0f} MiB"
    other = tmp_path / "other.txt"
    os.link(run, other)
    status, out, peak = own_peak(tmp_path, "compare", "--run", str(run), "--run", str(other), "--qrels", str(qrels), "--json")
    assert status == 0 and sorted(json.loads(out)["runs"]) == ["large", "other"], out[-2000:]
    assert peak < 300 * 2**20, f"compare: {peak / 2**20:.0f} MiB"


@pytest.mark.parametrize("kind", ["fifo", "/dev/zero", "folder"])
def test_a_fifo_a_device_or_a_folder_as_qrels_is_one_line_not_a_hang(tmp_path, kind):
    """A FIFO blocked the reader until a writer came, /dev/zero never ended: each is refused before it is opened."""
    run = tmp_path / "run.txt"
    run.write_text("1 Q0 doc1 1 1.0 tag\n")
    qrels = Path(kind) if kind.startswith("/") else tmp_path / kind
    if kind == "fifo":
        os.mkfifo(qrels)
    elif kind == "folder":
        qrels.mkdir()
    done = argrank("evaluate", "--run", str(run), "--qrels", str(qrels))
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"argrank: error: {qrels}: a ")
    assert "not a regular file" in done.stderr or "a folder, where a file is expected" in done.stderr


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"\xff\xfe[core]\n", "line 1: not valid UTF-8 (byte 0xff): Luigi's configuration"),
        (b"just text\n", "Luigi's configuration: File contains no section headers."),
        (b"[argrank]\noutput_dir = a\n[argrank]\noutput_dir = b\n", "[line 3]: section 'argrank' already exists"),
        (b"[argrank]\noutput_dir = %(nosuch)s\n", "contains an interpolation key 'nosuch'"),
        (b"[retcode]\ntask_failed = thirty\n", "[retcode] task_failed = 'thirty': not a whole number (an exit code)"),
        # Each of these once ended in `ValueError … Error when parsing the default value`, or (a negative timeout)
        # in "the build failed" with the cause in the log alone.
        (b"[core]\nlog_level = LOUD\n", "luigi.cfg: [core] log_level = 'LOUD': expected one of CRITICAL, DEBUG, "),
        (b"[worker]\nkeep_alive = maybe\n", "luigi.cfg: [worker] keep_alive = 'maybe': expected true or false"),
        (b"[worker]\ntimeout = soon\n", "luigi.cfg: [worker] timeout = 'soon': expected a whole number"),
        (b"[core]\ndefault_scheduler_port = notanumber\n", "[core] default_scheduler_port = 'notanumber': expected "
         "a whole number"),
        (b"[scheduler]\nworker_disconnect_delay = abc\n", "[scheduler] worker_disconnect_delay = 'abc': expected a "
         "number"),
        (b"[worker]\nno_install_shutdown_handler = 7\n", "no_install_shutdown_handler = '7': expected true or false"),
        (b"[worker]\ntimeout = -5\n", "luigi.cfg: [worker] timeout = '-5': expected a number of at least 0"),
        (b"[argrank]\nstep_timeout = 0\n", "[argrank] step_timeout = '0': expected a number of seconds above 0"),
        (b"[argrank]\nkernels = fast\n", "[argrank] kernels = 'fast': expected one of auto, numba, numpy"),
    ],
    ids=["not-utf8", "not-ini", "section-twice", "unknown-interpolation", "retcode-not-a-number", "log-level",
         "keep-alive", "timeout-word", "port", "disconnect-delay", "shutdown-handler", "negative-timeout",
         "step-timeout", "kernels"],  # fmt: skip
)
def test_a_broken_luigi_configuration_is_one_line(tmp_path, content, problem):
    config = tmp_path / "luigi.cfg"
    config.write_bytes(content)
    commands = [["report"], ["run", "--runs-file", str(REPO / "runs.yaml"), "--outputs", str(tmp_path / "o")]]
    # run's --outputs overrides the bad value; the graph's own settings are checked where the graph is loaded
    graph_only = content.startswith((b"[argrank]\nstep_timeout", b"[argrank]\nkernels"))
    for command in commands[:1] if b"%(" in content else commands[1:] if graph_only else commands:
        done = subprocess.run([sys.executable, "-m", "workflows.cli", *command], cwd=tmp_path, capture_output=True,
                              text=True, timeout=300, env={**os.environ, "LUIGI_CONFIG_PATH": str(config),
                                                           "PYTHONPATH": str(REPO)})  # fmt: skip
        assert done.returncode == 2, done.stderr
        assert done.stderr.startswith("argrank: error: ") and problem in done.stderr
        assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1


def test_the_luigi_command_refuses_an_exit_code_that_is_not_a_number_before_it_builds(tmp_path):
    """Luigi reads [retcode] only once the build is over, and then failed with a traceback."""
    config = tmp_path / "luigi.cfg"
    config.write_text(f"[retcode]\ntask_failed = thirty\n[argrank]\noutput_dir = {tmp_path / 'o'}\n")
    done = subprocess.run([str(Path(sys.executable).with_name("luigi")), "--module", "workflows", "FullSubmission",
                           "--local-scheduler"], cwd=REPO, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "LUIGI_CONFIG_PATH": str(config), "PYTHONPATH": str(REPO)})  # fmt: skip
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr == ("argrank: error: Luigi's configuration: [retcode] task_failed = 'thirty': not a whole "
                           "number (an exit code)\n")
    assert not (tmp_path / "o").exists()  # refused before any stage ran


def test_the_output_folder_is_luigi_cfgs_unless_outputs_is_given_and_an_empty_one_is_refused(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    config = tmp_path / "luigi.cfg"
    config.write_text(f"[argrank]\noutput_dir = {tmp_path / 'elsewhere'}\n")

    def compare(*extra: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "workflows.cli", "compare", "--runs-file", str(REPO / "runs.yaml"),
                               *extra], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                              env={**env, "LUIGI_CONFIG_PATH": str(config)})  # fmt: skip

    done = compare()  # nothing published there yet: the message says where it looked
    assert done.returncode == 2 and str(tmp_path / "elsewhere" / "experiments" / "submission") in done.stderr
    done = compare("--outputs", str(tmp_path / "given"))
    assert done.returncode == 2 and str(tmp_path / "given" / "experiments" / "submission") in done.stderr
    config.write_text("[argrank]\noutput_dir =\n")
    for command in (["compare", "--runs-file", str(REPO / "runs.yaml")], ["run", "--runs-file", str(REPO / "runs.yaml")]):
        done = subprocess.run([sys.executable, "-m", "workflows.cli", *command], cwd=tmp_path, capture_output=True,
                              text=True, timeout=300, env={**env, "LUIGI_CONFIG_PATH": str(config)})  # fmt: skip
        assert done.returncode == 2
        assert done.stderr == ("argrank: error: luigi.cfg: [argrank] output_dir: empty: name the output folder "
                               "(default outputs)\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["luigi.cfg"]  # nothing written into the current folder


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss is in kB on Linux only")
def test_compare_against_a_reference_and_with_stance_holds_little_of_a_large_run(tmp_path):
    """A 100 MB Task 2 run (50 topics × 25,000 passages, stance labels in column 2) compared with stance judgments
    and against a reference run: each run once held every line; now its scores' documents, its stance-judged lines
    and each topic's top 1,000 (what the reproducibility measures read). Measured above the same command's peak on
    a small run, since scikit-learn and SciPy, which the stance and Kendall's tau need, take their own."""
    doc = "S{:05d}c8e7f2a9b1d3e5-A{:07d}d4e5f6a7b8c9d0e1f2"
    judged = [(topic, doc.format(topic, rank), rank) for topic in range(1, 51) for rank in (1, 2, 7, 400, 20_000)]
    qrels, stance_qrels = tmp_path / "q.qrels", tmp_path / "stance.qrels"
    qrels.write_text("".join(f"{topic} 0 {name} {rank % 3}\n" for topic, name, rank in judged), encoding="utf-8")
    labels = ("FIRST", "SECOND", "NEUTRAL", "NO")  # as write_run gives them: each judged stance is the run's
    stance_qrels.write_text("".join(f"{topic} 0 {name} {labels[rank % 4]}\n" for topic, name, rank in judged),
                            encoding="utf-8")  # fmt: skip
    peaks, results = {}, {}
    for size, per_topic in (("small", 1_000), ("large", 25_000)):
        run, other = tmp_path / f"{size}.txt", tmp_path / f"{size}-other.txt"
        written = write_run(run, 50, per_topic=per_topic, column2="stance")
        os.link(run, other)
        status, out, peaks[size] = own_peak(tmp_path, "compare", "--track", "comparative", "--run", str(run), "--run",
                                            str(other), "--qrels", str(qrels), "--stance-qrels", str(stance_qrels),
                                            "--reference", str(run), "--json")  # fmt: skip
        assert status == 0, out[-2000:]
        results[size] = json.loads(out)["runs"][f"{size}-other"]
        reproduced = json.loads(out)["reproducibility"][f"{size}-other"]
        assert reproduced["ktu"] == 1.0 and reproduced["rbo"] == 1.0
    assert written > 100_000_000
    assert results["large"]["stance_f1"]["mean"] == 1.0, results["large"]
    assert peaks["large"] - peaks["small"] < written / 2, f"{(peaks['large'] - peaks['small']) / 2**20:.0f} MiB more"


@pytest.mark.parametrize(
    ("command", "options", "problem"),
    [
        ("evaluate", ["--measure", "P@1000000000"], "measure 'P@1000000000': the cut-off must be at most 100,000"),
        ("evaluate", ["--measure", "nDCG@1000000000"], "measure 'nDCG@1000000000': the cut-off must be at most 100,000"),
        ("evaluate", ["--measure", "P@99999999999999999999"],
         "measure 'P@99999999999999999999': the cut-off must be at most 100,000"),
        ("evaluate", ["--measure", "alpha_nDCG@21"],
         "measure 'alpha_nDCG@21': ir_measures' pyndeval computes cut-offs up to 20 only"),
        ("evaluate", ["--depth", "99999999999999999999"],
         "--depth 99999999999999999999: expected a cut-off of at least 1 and at most 100,000"),
        ("compare", ["--measure", "nDCG@1000000000"], "measure 'nDCG@1000000000': the cut-off must be at most 100,000"),
        ("compare", ["--measure", "ndcg_cut_100001"], "measure 'ndcg_cut_100001': the cut-off must be at most 100,000"),
    ],
)  # fmt: skip
def test_a_cut_off_no_run_reaches_is_one_line_naming_it(shared_data, command, options, problem):
    """A cut-off past 2**63 reached pytrec_eval as another and ended in a KeyError, alpha_nDCG@21 in ndeval's
    AssertionError, P@1000000000 scored every run 0.0000: each is now refused, naming the measure or option."""
    task2 = shared_data / "touche-task2"
    runs = [o for name in ("Asuna-run1", "Aldo-Nadi-run3") for o in ("--run", str(task2 / "runs-2022" / f"{name}.txt"))]
    done = argrank(command, "--track", "comparative", *(runs if command == "compare" else runs[:2]), "--qrels",
                   str(task2 / "touche-task2-2022-relevance.qrels"), *options)  # fmt: skip
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.splitlines()[-1] == f"argrank {command}: error: {problem}"
