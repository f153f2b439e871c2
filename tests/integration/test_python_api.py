"""The Python API's documented example runs as written, and its figures are the command line's."""

from __future__ import annotations

import csv
import io
import os
import re
import subprocess
import sys

import pytest
from graph import REPO, build, copy_project

import argrank


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("api")
    runs_file, outputs = copy_project(tmp_path, "args")
    build(runs_file, outputs)
    return tmp_path, runs_file, outputs


def test_the_documented_example_runs(project, monkeypatch, capsys):
    folder, _, _ = project
    blocks = re.findall(r"```python\n(.*?)```", (REPO / "docs" / "python-api.md").read_text(), re.S)
    assert blocks
    monkeypatch.chdir(folder)  # the example's paths are the repository's, after `make run`
    for block in blocks:
        exec(compile(block, "docs/python-api.md", "exec"), {})
    printed = capsys.readouterr().out
    assert "argrank-dirichlet" in printed and "rows" in printed


def test_compare_gives_the_command_lines_figures(project):
    folder, runs_file, outputs = project
    published = outputs / "experiments" / "runs" / "args"
    tags = ["argrank-bm25", "argrank-bm25-desc", "argrank-dirichlet", "argrank-bm25-quality"]
    qrels = folder / "data" / "args" / "qrels-relevance.qrels"
    table = argrank.compare({tag: published / f"{tag}.txt" for tag in tags}, qrels, ["nDCG@5", "P@10"],
                            baseline="argrank-bm25", test="wilcoxon")  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-m", "workflows.cli", "compare", "--runs-file", str(runs_file), "--outputs", str(outputs),
         "--baseline", "argrank-bm25", "--test", "wilcoxon", "--measure", "nDCG@5", "--measure", "P@10", "--csv", "-"],
        cwd=REPO, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    printed = {(row["run"], row["measure"]): row for row in csv.DictReader(io.StringIO(done.stdout))}
    rows = table.to_pylist()
    assert len(rows) == len(printed) == 8
    for row in rows:
        line = printed[(row["run"], row["measure"])]
        for key in ("mean", "difference", "p", "p_corrected"):
            assert (float(line[key]) if line[key] else None) == row[key], (row["run"], key)
        assert line["reject"] == ("" if row["reject"] is None else str(row["reject"]).lower())
