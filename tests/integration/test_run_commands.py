"""`argrank run` and `argrank nightly` as a user and a scheduler start them: quiet terminal, Luigi's log in a file,
the summary and report, the history and the exit statuses."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from graph import REPO, cache_state, copy_project, stages_of

from argrank.core.atomic import PAUSE
from argrank.core.integrity import CHECKSUM, _record_text
from workflows.run import run_experiment


def argrank(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "workflows.cli", *args], cwd=REPO, capture_output=True, text=True, timeout=600
    )


def test_run_prints_our_lines_and_the_summary_while_luigis_info_goes_to_a_log_file(tmp_path):
    runs_file, outputs = copy_project(tmp_path, "args")
    done = argrank("run", "--runs-file", str(runs_file), "--outputs", str(outputs))
    assert done.returncode == 0, done.stderr
    assert "ingested 347 arguments" in done.stderr and "Informed scheduler" not in done.stderr
    assert "Luigi Execution Summary" not in done.stderr + done.stdout and "Created vocabulary" not in done.stderr
    assert f"== args: {outputs / 'experiments' / 'runs' / 'args'}" in done.stdout
    assert "argrank-bm25 / relevance" in done.stdout
    assert f"report: {outputs / 'experiments' / 'runs' / 'report' / 'index.html'}" in done.stdout
    (log,) = (outputs / "logs").glob("runs-*.log")
    assert "Informed scheduler" in log.read_text() and "Luigi Execution Summary" in log.read_text()


def test_a_failed_build_exits_1_and_says_where_the_log_is(tmp_path):
    runs_file, outputs = copy_project(tmp_path, "args")
    (tmp_path / "data" / "args" / "corpus" / "debatewise.json").write_text("{not json")
    done = argrank("run", "--runs-file", str(runs_file), "--outputs", str(outputs))
    assert done.returncode == 1 and "the build failed" in done.stderr and str(outputs / "logs") in done.stderr


def test_ctrl_c_stops_run_in_one_line_with_status_130_and_the_next_run_resumes_to_the_same_runs(tmp_path):
    """Ctrl-C (SIGINT) once printed a full KeyboardInterrupt traceback."""
    runs_file, outputs = copy_project(tmp_path, "args")
    command = [sys.executable, "-m", "workflows.cli", "run", "--runs-file", str(runs_file), "--outputs", str(outputs)]
    # The index stage waits before its rename (core.atomic's test pause), so the signal lands mid-build however fast
    # the machine: half a second after the first stage was once too late, the build already done.
    env = {**os.environ, PAUSE: "/cache/args/index/", "ARGRANK_PAUSE_SECONDS": "60"}
    # Ctrl-C as a terminal delivers it: a test process started in the background inherits SIGINT ignored, and so
    # would the run (a fresh-clone CI run started with `&` once saw it finish with exit 0).
    started = subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # fmt: skip
    index, deadline = outputs / "cache" / "args" / "index", time.monotonic() + 120
    while not (index.is_dir() and any(p.name.startswith(".") and p.name.endswith(".tmp") for p in index.iterdir())):
        assert started.poll() is None and time.monotonic() < deadline, "the run never reached the index stage"
        time.sleep(0.1)
    started.send_signal(signal.SIGINT)
    _, stderr = started.communicate(timeout=300)
    assert started.returncode == 130, stderr
    assert stderr.splitlines()[-1] == ("argrank: interrupted: finished stages are kept and nothing half-written; run "
                                       "again to resume") and "Traceback" not in stderr  # fmt: skip
    done = argrank("run", "--runs-file", str(runs_file), "--outputs", str(outputs))
    assert done.returncode == 0, done.stderr
    clean = tmp_path / "clean"
    assert argrank("run", "--runs-file", str(runs_file), "--outputs", str(clean)).returncode == 0
    published = sorted((outputs / "experiments" / "runs" / "args").glob("*.txt"))
    assert published and all(path.read_bytes() == (clean / path.relative_to(outputs)).read_bytes()
                             for path in published)  # fmt: skip


def test_a_task_luigi_stops_past_its_timeout_is_named_on_the_terminal_with_the_cause(tmp_path):
    """A `[worker] timeout` once showed only "the build failed (FAILED)", the cause in the log alone."""
    runs_file, outputs = copy_project(tmp_path, "args")
    config = tmp_path / "luigi.cfg"
    config.write_text("[worker]\ntimeout = 1\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "workflows.cli", "run", "--runs-file", str(runs_file), "--outputs",
                           str(outputs)], cwd=REPO, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "LUIGI_CONFIG_PATH": str(config)})  # fmt: skip
    assert done.returncode == 1 and "the build failed (FAILED)" in done.stderr
    assert re.search(r"argrank: \w+ stopped: Task \S+ timed out after 1 seconds and was terminated\.", done.stderr)


def test_run_experiment_in_one_process_reruns_what_a_changed_parameter_reaches(tmp_path):
    """A notebook's loop: the command's summary returned, and after a k1 change only the ranking and what follows
    it run again; a failed build is an error naming Luigi's log."""
    runs_file, outputs = copy_project(tmp_path, "args")
    first = run_experiment(runs_file, outputs)
    assert "argrank-bm25 / relevance" in first and f"== args: {outputs / 'experiments' / 'runs' / 'args'}" in first
    before = cache_state(outputs)
    assert run_experiment(runs_file, outputs) == first and cache_state(outputs) == before  # nothing to do
    config = yaml.safe_load(runs_file.read_text())
    config["args"]["runs"]["argrank-bm25"]["params"]["k1"] = 0.9
    runs_file.write_text(yaml.safe_dump(config))
    run_experiment(runs_file, outputs)
    assert stages_of(set(cache_state(outputs)) - set(before)) == {"rank", "run", "evaluation"}
    (tmp_path / "data" / "args" / "corpus" / "debatewise.json").write_text("{not json")
    with pytest.raises(RuntimeError, match="the build failed") as failed:
        run_experiment(runs_file, outputs)
    assert str(outputs / "logs") in str(failed.value)


def _damage_under_the_file_system(data: Path) -> None:
    """Change 64 bytes of a cached file and make its record match the new times, as a disk's fault leaves them."""
    written = data.read_bytes()
    data.write_bytes(written[:200] + bytes(b ^ 0x40 for b in written[200:264]) + written[264:])
    record = data.parent.with_name(f".{data.parent.name}.written.json")
    entries = json.loads(record.read_text())
    entries[data.name].update(mtime_ns=data.stat().st_mtime_ns, ctime_ns=data.stat().st_ctime_ns)
    del entries[CHECKSUM]
    record.write_text(_record_text(entries))  # a sound record, made to match


def test_verify_cache_finds_damage_no_time_shows_and_the_index_is_made_again(tmp_path):
    """Bytes of the index changed under the file system: the usual check (sizes and times) takes the index, so a
    changed k1 would rank from it; `run --verify-cache`, and every nightly, hashes the cache first, removes it with
    a warning, and it is made again."""
    runs_file, outputs = copy_project(tmp_path, "args")
    assert argrank("run", "--runs-file", str(runs_file), "--outputs", str(outputs)).returncode == 0
    (data,) = (outputs / "cache" / "args" / "index").glob("*/data.npy")
    written = data.read_bytes()
    _damage_under_the_file_system(data)
    config = yaml.safe_load(runs_file.read_text())
    config["args"]["runs"]["argrank-bm25"]["params"]["k1"] = 0.9
    runs_file.write_text(yaml.safe_dump(config))
    done = argrank("run", "--runs-file", str(runs_file), "--outputs", str(outputs), "--verify-cache")
    assert done.returncode == 0, done.stderr
    assert f"argrank: warning: damaged cache file {data}: its content is not what was written" in done.stderr
    assert data.read_bytes() == written  # made again, as it was first written
    nightly = ("nightly", "--runs-file", str(runs_file), "--outputs", str(outputs))
    assert "damaged cache file" not in argrank(*nightly).stderr
    _damage_under_the_file_system(data)
    done = argrank(*nightly)
    assert done.returncode == 0 and f"argrank: warning: damaged cache file {data}" in done.stderr, done.stderr


def test_nightly_appends_a_record_draws_the_trend_and_exits_3_when_a_mean_drops(tmp_path):
    runs_file, outputs = copy_project(tmp_path, "args")
    nightly = ("nightly", "--runs-file", str(runs_file), "--outputs", str(outputs), "--tolerance", "0.01")
    first = argrank(*nightly)
    assert first.returncode == 0, first.stderr
    history = outputs / "history.jsonl"
    (record,) = [json.loads(line) for line in history.read_text().splitlines()]
    assert {"date", "commit", "runs_file", "signatures", "means"} <= set(record)
    assert set(record["signatures"]) == {"args"}
    assert record["means"]["args"]["argrank-bm25"]["relevance"]["nDCG@5"] > 0.5

    assert "no earlier record of this runs file: nothing gated" in first.stdout

    config = yaml.safe_load(runs_file.read_text())
    config["args"]["runs"]["argrank-dirichlet"]["params"] = {"mu": 5}  # a worse ranking
    runs_file.write_text(yaml.safe_dump(config))
    second = argrank(*nightly, "--across-changes")  # another runs file: compared only when asked
    assert second.returncode == 3, second.stderr
    assert "dropped by more than 0.01: args argrank-dirichlet relevance nDCG@5: " in second.stderr
    assert f"compared with record 1 of {record['date']}; gated: args nDCG@5" in second.stdout
    assert f"changed since record 1 of {record['date']}: the runs file; the inputs of args" in second.stderr
    assert len(history.read_text().splitlines()) == 2
    report = outputs / "experiments" / "runs" / "report"
    assert "2 nightly records" in (report / "index.html").read_text()
    assert "relevance: nDCG@5" in (report / "trend-args.svg").read_text()  # the track's small multiples


def test_nightly_gates_effectiveness_on_records_of_the_same_runs_file(tmp_path):
    """The reported night: `mu: 5` for argrank-dirichlet, then `mu: 1000` again. mu 5 is another runs file, so
    nothing is compared; restored, Judged@5 is lower than under mu 5 while nDCG@5 is higher, and Judged@5 is
    coverage, not a drop."""
    runs_file, outputs = copy_project(tmp_path, "args")
    nightly = ("nightly", "--runs-file", str(runs_file), "--outputs", str(outputs), "--tolerance", "0.01")
    original = runs_file.read_text()
    assert argrank(*nightly).returncode == 0
    config = yaml.safe_load(original)
    config["args"]["runs"]["argrank-dirichlet"]["params"] = {"mu": 5}
    runs_file.write_text(yaml.safe_dump(config))
    changed = argrank(*nightly)
    assert changed.returncode == 0, changed.stderr
    assert "no earlier record of this runs file: nothing gated" in changed.stdout
    runs_file.write_text(original)
    restored = argrank(*nightly, "--across-changes")
    assert restored.returncode == 0, restored.stderr
    assert "compared with record 2 of " in restored.stdout and "dropped" not in restored.stderr

    records = [json.loads(line)["means"]["args"]["argrank-dirichlet"]["relevance"]
               for line in (outputs / "history.jsonl").read_text().splitlines()]  # fmt: skip
    assert records[2]["Judged@5"] < records[1]["Judged@5"] - 0.01  # what the old gate reported as a drop
    assert records[2]["nDCG@5"] >= records[1]["nDCG@5"]


def test_nightly_reports_how_far_the_rankings_moved_and_max_change_flags_it_though_no_mean_fell(tmp_path):
    runs_file, outputs = copy_project(tmp_path, "args")
    nightly = ("nightly", "--runs-file", str(runs_file), "--outputs", str(outputs), "--tolerance", "1")
    first = argrank(*nightly, "--max-change", "0.01")
    assert first.returncode == 0, first.stderr
    kept = outputs / "nightly-rankings"
    assert json.loads((kept / "manifest.json").read_text())["date"] == json.loads(
        (outputs / "history.jsonl").read_text().splitlines()[0])["date"]  # fmt: skip
    tags = yaml.safe_load(runs_file.read_text())["args"]["runs"]
    assert sorted(p.name for p in (kept / "args").iterdir()) == sorted(f"{tag}.txt" for tag in tags)
    again = argrank(*nightly, "--max-change", "0.01")
    assert again.returncode == 0, again.stderr
    assert "rankings' overlap with that record's (RBO, 1 = unchanged): args argrank-bm25 1.0000;" in again.stdout
    config = yaml.safe_load(runs_file.read_text())
    config["args"]["runs"]["argrank-dirichlet"]["params"] = {"mu": 5}  # other rankings; tolerance 1: no mean falls
    runs_file.write_text(yaml.safe_dump(config))
    moved = argrank(*nightly, "--across-changes", "--max-change", "0.01")
    assert moved.returncode == 3, moved.stderr
    assert "dropped" not in moved.stderr
    assert "moved by more than 0.01: args argrank-dirichlet: rank-biased overlap 0." in moved.stderr
    assert "argrank-bm25:" not in moved.stderr  # its rankings did not move
    unflagged = argrank(*nightly, "--across-changes")  # without --max-change the movement is reported only
    assert unflagged.returncode == 0 and "argrank-dirichlet 1.0000" in unflagged.stdout
    bad = argrank(*nightly, "--max-change", "2")
    assert bad.returncode == 2 and "--max-change 2.0: expected a change between 0 and 1" in bad.stderr


def test_nightly_names_the_input_file_that_changed_a_plug_in_module(tmp_path):
    """The record keeps each input file's digest (runs-file relative paths), so the line after a flagged night names
    the re-ranker's module that changed, not only "the inputs of args"."""
    runs_file, outputs = copy_project(tmp_path, "args")
    plug = tmp_path / "plug.py"
    plug.write_text("def by_length(candidates):\n    return [len(t) for t in candidates.column('text').to_pylist()]\n")
    config = yaml.safe_load(runs_file.read_text())
    step = {"use": "plug:by_length", "depth": 10}
    config["args"]["runs"] = {"bm25": {"method": "bm25"}, "mine": {"method": "bm25", "rerank": [step]}}
    config["args"].pop("baseline", None)
    runs_file.write_text(yaml.safe_dump(config))
    nightly = ("nightly", "--runs-file", str(runs_file), "--outputs", str(outputs), "--tolerance", "1", "--max-change",
               "0.01")  # fmt: skip
    assert argrank(*nightly).returncode == 0
    (record,) = [json.loads(line) for line in (outputs / "history.jsonl").read_text().splitlines()]
    assert {"plug.py", "data/args/topics.xml", "data/args/corpus", "data/args/qrels-relevance.qrels"} <= set(
        record["input_files"]["args"])  # fmt: skip
    plug.write_text(plug.read_text().replace("[len(t)", "[-len(t)"))  # the shortest first: other rankings
    moved = argrank(*nightly)
    assert moved.returncode == 3, moved.stderr
    assert f"changed since record 1 of {record['date']}: the inputs of args (changed: plug.py)\n" in moved.stderr


def test_an_unknown_gate_is_a_usage_error_listing_the_measures_the_history_holds(tmp_path):
    runs_file, outputs = copy_project(tmp_path, "args")
    outputs.mkdir()
    means = {"args": {"argrank-bm25": {"relevance": {"nDCG@5": 0.7, "Judged@5": 0.9}}}}
    (outputs / "history.jsonl").write_text(json.dumps({"date": "2026-11-01", "means": means}) + "\n")
    done = argrank("nightly", "--runs-file", str(runs_file), "--outputs", str(outputs), "--gate", "P@10")
    assert done.returncode == 2
    assert "--gate P@10: no nightly record holds it; they hold Judged@5, nDCG@5" in done.stderr
    assert not (outputs / "experiments").exists()  # refused before building anything


def test_nightly_is_for_the_submission(tmp_path):
    runs_file, outputs = copy_project(tmp_path, "args")
    config = yaml.safe_load(runs_file.read_text())
    del config["submission"]
    plain = Path(runs_file).with_name("plain.yaml")
    plain.write_text(yaml.safe_dump(config))
    done = argrank("nightly", "--runs-file", str(plain), "--outputs", str(outputs))
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (
        f"argrank nightly: error: {plain} is not the submission, which is all the nightly runs: add `submission: "
        "true` to it, or give the submission's runs file with --runs-file"
    )


def test_a_nightly_stopped_while_it_redraws_the_report_leaves_no_record(tmp_path, monkeypatch):
    """The record is kept once the report with tonight's trend is built: 5 killed nightlies left 5 records."""
    import luigi

    from workflows import run

    runs_file, outputs = copy_project(tmp_path, "args")
    builds = []

    def build(args):  # the first build publishes; the second, the report with tonight's record, is killed
        builds.append(luigi.configuration.get_config().get("argrank", "nightly_record", ""))
        if len(builds) == 2:
            raise KeyboardInterrupt
        return True

    monkeypatch.setattr(run, "build", build)
    parser = run.argparse.ArgumentParser()
    run.add_nightly_arguments(parser)
    args = parser.parse_args(["--runs-file", str(runs_file), "--outputs", str(outputs)])
    with pytest.raises(KeyboardInterrupt):
        run.cmd_nightly(args)
    assert builds[0] == "" and json.loads(builds[1])["date"]  # the report's build saw tonight's record
    assert not (outputs / "history.jsonl").exists()
    assert luigi.configuration.get_config().get("argrank", "nightly_record", "") == ""
