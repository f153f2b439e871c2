"""A researcher's own re-ranker, a `module:callable` beside the runs file, through the graph on the embedded data:
its run's top 10 are BM25's top 10 in a new order; changing its parameter recomputes that step and what follows,
nothing before it; a re-ranker that fails publishes nothing and caches nothing for its step; a comparative stance
run, the nightly and the TIRA contract run it too."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import luigi
import pytest
import yaml
from graph import REPO, build, cache_state, copy_project, luigi_command, per_topic, stages_of

from argrank.formats.runfile import read_run
from workflows import FullSubmission
from workflows.setup import fresh_build

PLUG = """\
def by_length(candidates, weight=1.0):
    return [weight * len(text) for text in candidates.column("text").to_pylist()]


def broken(candidates):
    raise RuntimeError("a bug in my re-ranker")


def exits(candidates):
    import os
    os._exit(0)


def quits(candidates):
    raise SystemExit(3)


def interrupted(candidates):
    raise KeyboardInterrupt


def killed(candidates):
    import os, signal
    os.kill(os.getpid(), signal.SIGKILL)


def huge(candidates):
    return [10**400] * candidates.num_rows


def sleeps(candidates):
    import time
    time.sleep(3600)
"""


def _runs_file(tmp_path, step: dict):
    runs_file, outputs = copy_project(tmp_path, "args")
    (runs_file.parent / "plug.py").write_text(PLUG, encoding="utf-8")
    config = yaml.safe_load(runs_file.read_text())
    config["args"]["runs"] = {"bm25": {"method": "bm25"}, "mine": {"method": "bm25", "rerank": [step]}}
    config["args"].pop("baseline", None)
    runs_file.write_text(yaml.safe_dump(config), encoding="utf-8")
    return runs_file, outputs


def test_a_reranker_beside_the_runs_file_reorders_the_top_and_recomputes_only_its_step(tmp_path):
    runs_file, outputs = _runs_file(tmp_path, {"use": "plug:by_length", "depth": 10, "params": {"weight": 1.0}})
    build(runs_file, outputs)
    folder = outputs / "submission" / "args"
    plain, mine = per_topic(folder / "bm25.txt"), per_topic(folder / "mine.txt")
    assert plain.keys() == mine.keys()
    for topic in plain:
        assert set(plain[topic][:10]) == set(mine[topic][:10]) and plain[topic][10:] == mine[topic][10:]
    assert any(plain[topic][:10] != mine[topic][:10] for topic in plain)

    before = cache_state(outputs)
    config = yaml.safe_load(runs_file.read_text())
    config["args"]["runs"]["mine"]["rerank"][0]["params"]["weight"] = -1.0
    runs_file.write_text(yaml.safe_dump(config), encoding="utf-8")
    build(runs_file, outputs)
    after = cache_state(outputs)
    new = {path for path in after if path not in before}
    assert "rerank" in stages_of(new) and not stages_of(new) & {"ingest", "tokens", "index", "queries", "rank"}
    assert all(after[path] == before[path] for path in before if path in after)  # nothing before it redone
    reversed_top = per_topic(folder / "mine.txt")
    assert any(reversed_top[topic][:10] != mine[topic][:10] for topic in plain)


def test_a_failing_reranker_caches_nothing_for_its_step(tmp_path):
    runs_file, outputs = _runs_file(tmp_path, {"use": "plug:broken"})
    luigi.configuration.get_config().set("argrank", "output_dir", str(outputs))
    fresh_build()
    result = luigi.build([FullSubmission(runs_file=str(runs_file))], local_scheduler=True, detailed_summary=True,
                         log_level="CRITICAL")  # fmt: skip
    assert result.status != luigi.LuigiStatusCode.SUCCESS
    assert "rerank" not in stages_of(cache_state(outputs))
    assert not (outputs / "submission" / "args" / "mine.txt").exists()


@pytest.mark.parametrize(("use", "problem"), [
    ("exits", "ended its process without a result (exit status 0)"),
    ("quits", "raised SystemExit: 3"),
    ("interrupted", "raised KeyboardInterrupt"),
    ("killed", "ended its process without a result (killed by SIGKILL)"),
    ("huge", "returned a number beyond the floats"),
    ("sleeps", "ran past the step time limit, 3 s ([argrank] step_timeout in luigi.cfg): stopped"),
])  # fmt: skip
def test_a_reranker_that_exits_is_killed_overflows_or_hangs_fails_the_build_in_one_line(tmp_path, use, problem):
    """Each used to end otherwise: os._exit(0) with exit status 0 and nothing published, SystemExit,
    KeyboardInterrupt and a score of 10**400 in tracebacks not naming the step, a sleeping one never."""
    runs_file, outputs = _runs_file(tmp_path, {"use": f"plug:{use}"})
    command = [*luigi_command(runs_file, outputs), "--argrank-step-timeout", "3"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 30, done.stderr[-2000:]
    assert f"run mine, rerank step 1 (plug:{use})" in done.stderr and problem in done.stderr
    assert "rerank" not in stages_of(cache_state(outputs))
    assert not (outputs / "submission" / "args" / "mine.txt").exists()


def test_a_comparative_run_with_stance_reads_its_reranked_top(tmp_path):
    """Task 2's stance stage reads the ranking after the run's steps: the stance run lists the re-ordered top."""
    runs_file, outputs = copy_project(tmp_path, "comparative")
    (runs_file.parent / "plug.py").write_text(PLUG, encoding="utf-8")
    config = yaml.safe_load(runs_file.read_text())
    runs = config["comparative"]["runs"]
    plain = runs["argrank-cmp-bm25"]
    config["comparative"]["runs"] = {
        "argrank-cmp-bm25": plain,
        "mine": {**plain, "rerank": [{"use": "plug:by_length", "depth": 5, "params": {"weight": -1.0}}]},
    }
    config["comparative"].pop("baseline", None)
    runs_file.write_text(yaml.safe_dump(config), encoding="utf-8")
    build(runs_file, outputs)
    folder = outputs / "submission" / "comparative"
    before, after = per_topic(folder / "argrank-cmp-bm25.txt"), per_topic(folder / "mine.txt")
    for topic in before:
        assert set(before[topic][:5]) == set(after[topic][:5]) and before[topic][5:] == after[topic][5:]
    assert any(before[topic][:5] != after[topic][:5] for topic in before)
    assert {line.q0 for line in read_run(folder / "mine.txt")} - {"Q0"}  # stance labels in column 2, not Q0


def _argrank(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "workflows.cli", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=600, check=False)  # fmt: skip


def test_the_nightly_and_tira_run_a_reranker_beside_the_runs_file(tmp_path):
    runs_file, outputs = _runs_file(tmp_path, {"use": "plug:by_length", "depth": 10})
    nightly = _argrank("nightly", "--runs-file", str(runs_file), "--outputs", str(outputs))
    assert nightly.returncode == 0, nightly.stderr
    (record,) = [json.loads(line) for line in (outputs / "history.jsonl").read_text().splitlines()]
    assert set(record["means"]["args"]) == {"bm25", "mine"}

    given = tmp_path / "input"
    shutil.copytree(tmp_path / "data" / "args" / "corpus", given)
    shutil.copy(tmp_path / "data" / "args" / "topics.xml", given / "topics.xml")
    tira = _argrank("tira", "-i", str(given), "-o", str(tmp_path / "out"), "--run", "mine", "--runs-file",
                    str(runs_file), "--outputs", str(tmp_path / "tira-outputs"))  # fmt: skip
    assert tira.returncode == 0, tira.stderr
    lines = (tmp_path / "out" / "run.txt").read_text().splitlines()
    assert lines and {line.split()[5] for line in lines} == {"mine"}
    assert any((tmp_path / "tira-outputs" / "cache" / "args" / "rerank").iterdir())


def test_the_quality_reranking_as_a_step_orders_the_top_as_quality_does(tmp_path):
    """`rerank: [{use: quality}]`, the built-in on the step contract, puts each topic's top 10 in the order the
    run's `quality:` settings give (its scores on the contract's scale), below them BM25's order."""
    runs_file, outputs = copy_project(tmp_path, "args")
    config = yaml.safe_load(runs_file.read_text())
    config["args"]["runs"] = {
        "bm25": {"method": "bm25"},
        "setting": {"method": "bm25", "quality": {"weight": 0.7, "depth": 10}},
        "step": {"method": "bm25", "rerank": [{"use": "quality", "depth": 10, "params": {"weight": 0.7}}]},
    }
    config["args"].pop("baseline", None)
    runs_file.write_text(yaml.safe_dump(config), encoding="utf-8")
    build(runs_file, outputs)
    folder = outputs / "submission" / "args"
    plain, setting, step = (per_topic(folder / f"{tag}.txt") for tag in ("bm25", "setting", "step"))
    assert setting == step
    assert any(plain[topic][:10] != step[topic][:10] for topic in plain)
    assert all(plain[topic][10:] == step[topic][10:] for topic in plain)
