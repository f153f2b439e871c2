"""The `argrank` command as users call it: exit codes, JSON keys, one-line errors, and the TIRA contract."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from argrank.validation import validate_run

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "data" / "args"


def argrank(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "workflows.cli", *args], cwd=cwd, capture_output=True, text=True, timeout=300
    )


def test_evaluate_json_reproduces_the_2021_reference(shared_data):
    task1 = shared_data / "touche-task1"
    done = argrank(
        "evaluate", "--run", str(task1 / "runs-2021-elrond" / "ElrondKRun.txt"),
        "--qrels", str(task1 / "touche2021-task1-51-100-relevance.qrels"), "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["nDCG@5"] == pytest.approx(0.7198, abs=5e-5)
    assert result["judged@5"] == pytest.approx(1.0)
    assert len(result["per_topic"]) == 50


def test_evaluate_prints_a_table_and_writes_csv(shared_data, tmp_path):
    task1 = shared_data / "touche-task1"
    done = argrank(
        "evaluate", "--run", str(task1 / "runs-2020-elrond" / "ElrondKRun.txt"),
        "--qrels", str(task1 / "touche2020-task1-relevance-args-me-corpus-version-2020-04-01-corrected.qrels"),
        "--topics", str(task1 / "topics-task-1-2020.xml"), "--csv", str(tmp_path / "t.csv"),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "0.6257" in done.stdout and "nDCG@5_judged_only" in done.stdout
    assert len((tmp_path / "t.csv").read_text().splitlines()) == 50


def test_evaluate_rejects_qrels_topics_the_topics_file_lacks(shared_data):
    task1 = shared_data / "touche-task1"
    done = argrank(
        "evaluate", "--run", str(task1 / "runs-2021-elrond" / "ElrondKRun.txt"),
        "--qrels", str(task1 / "touche2021-task1-51-100-relevance.qrels"),
        "--topics", str(task1 / "topics-task-1-2020.xml"),
    )  # fmt: skip
    assert done.returncode == 2
    assert "touche2021-task1-51-100-relevance.qrels: line 1: unknown topic 94" in done.stderr
    assert "Traceback" not in done.stderr


def test_validate_exit_codes(shared_data, tmp_path):
    good = tmp_path / "good.txt"
    good.write_text("1 Q0 a 1 2.5 t\n1 Q0 b 2 2.0 t\n2 Q0 a 1 1.0 t\n")
    done = argrank("validate", str(good))
    assert done.returncode == 0 and "valid (3 lines)" in done.stdout
    done = argrank("validate", str(shared_data / "touche-task1" / "runs-2021-elrond" / "ElrondKRun.txt"))
    assert done.returncode == 2
    assert "ElrondKRun.txt: line 1: rank 0" in done.stderr and "Traceback" not in done.stderr


def test_missing_file_is_one_line_error(tmp_path):
    done = argrank("validate", str(tmp_path / "nope.txt"))
    assert done.returncode == 2
    assert str(tmp_path / "nope.txt") in done.stderr and "Traceback" not in done.stderr


def test_tira_contract_runs_the_graph(tmp_path):
    given = tmp_path / "input"
    shutil.copytree(DATA / "corpus", given)
    shutil.copy(DATA / "topics.xml", given / "topics.xml")
    done = argrank(
        "tira", "-i", str(given), "-o", str(tmp_path / "out"), "--run", "argrank-bm25",
        "--outputs", str(tmp_path / "outputs"),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    run = tmp_path / "out" / "run.txt"
    assert validate_run(run) > 0
    assert {line.split()[5] for line in run.read_text().splitlines()} == {"argrank-bm25"}
    assert any((tmp_path / "outputs" / "cache" / "args" / "ingest").iterdir())


def test_tira_names_an_unknown_run(tmp_path):
    done = argrank("tira", "-i", str(DATA / "corpus"), "-o", str(tmp_path), "--run", "nope")
    assert done.returncode == 2 and "no run tagged 'nope'" in done.stderr
