"""A mistake in the runs file stops `luigi --module workflows FullSubmission` before any task is scheduled, with one
line naming the file and the key, and no traceback."""

from __future__ import annotations

import subprocess

import pytest
from graph import REPO, luigi_command

from argrank.core.errors import InputError
from workflows import FullSubmission

ARGS = "args:\n  corpus: c\n  topics: t\n"


@pytest.mark.parametrize(
    "text, line",
    [
        (
            ARGS + "  runs: {r: {params: {k1: -1.2}}}\n",
            "args.runs.r: parameter k1 of bm25 must be a number of at least 0",
        ),
        (ARGS + "  runs: {r: {method: dirichlet, params: {mu: 0}}}\n", "args.runs.r: parameter mu of dirichlet"),
        (ARGS + "  language: xx\n  runs: {r: {}}\n", "args.language: expected a language code"),
        (ARGS + "  runs:\n    r: {params: {k1: 1, k1: 2}}\n", "line 5: not valid YAML: duplicate key 'k1'"),
        (ARGS + "  runs: {evaluation: {}}\n", "args.runs.evaluation: 'evaluation' is reserved"),
        (ARGS + "  qrels: {'../../ESCAPED': q}\n  runs: {r: {}}\n", "args.qrels.../../ESCAPED: a name is at most 100 letters"),
    ],
)
def test_a_runs_file_mistake_is_one_line_before_any_task_runs(tmp_path, text, line):
    runs_file = tmp_path / "runs.yaml"
    runs_file.write_text(text, encoding="utf-8")
    outputs = tmp_path / "outputs"
    done = subprocess.run(luigi_command(runs_file, outputs), check=False, cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 35  # [retcode] scheduling_error in luigi.cfg
    (said,) = done.stderr.strip().splitlines()
    assert said.startswith(f"argrank: error: {runs_file}: {line}")
    assert not outputs.exists()  # nothing scheduled, nothing written


def test_built_from_code_the_mistake_is_raised_to_the_caller(tmp_path):
    runs_file = tmp_path / "runs.yaml"
    runs_file.write_text(ARGS + "  shards: 500\n  runs: {r: {}}\n", encoding="utf-8")
    with pytest.raises(InputError, match="args.shards: expected an integer from 1 to 64"):
        FullSubmission(runs_file=str(runs_file))


def test_a_dataset_file_not_in_ir_datasets_cache_is_one_line_before_any_task_runs(tmp_path, monkeypatch):
    monkeypatch.setenv("IR_DATASETS_HOME", str(tmp_path / "empty"))
    runs_file = tmp_path / "runs.yaml"
    runs_file.write_text("args:\n  dataset: argsme/2020-04-01/touche-2020-task-1\n  runs: {r: {}}\n", encoding="utf-8")
    outputs = tmp_path / "outputs"
    done = subprocess.run(luigi_command(runs_file, outputs), check=False, cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 35
    (said,) = done.stderr.strip().splitlines()
    missing = tmp_path / "empty" / "argsme" / "2020-04-01" / "debateorg.json"
    assert said == (
        f"argrank: error: {runs_file}: args.dataset: {missing} is not in ir_datasets' cache; fetch it with: "
        "ir_datasets export argsme/2020-04-01/touche-2020-task-1 docs > /dev/null"
    )
    assert not outputs.exists()
