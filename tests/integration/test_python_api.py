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


@pytest.mark.parametrize("page", ["python-api.md", "paper-tables.md"])
def test_the_documented_example_runs(project, monkeypatch, capsys, page):
    folder, _, _ = project
    blocks = re.findall(r"```python\n(.*?)```", (REPO / "docs" / page).read_text(), re.S)
    assert blocks
    monkeypatch.chdir(folder)  # the example's paths are the repository's, after `make run`
    for block in blocks:
        exec(compile(block, f"docs/{page}", "exec"), {})
    printed = capsys.readouterr().out
    assert "argrank-dirichlet" in printed
    assert ("rows" in printed) if page == "python-api.md" else (r"\toprule" in printed and "| Run |" in printed)


def test_the_paper_table_from_python_is_the_command_lines(project, tmp_path):
    folder, runs_file, outputs = project
    published = outputs / "experiments" / "runs" / "args"
    qrels = folder / "data" / "args" / "qrels-relevance.qrels"
    latex = tmp_path / "t.tex"
    done = subprocess.run(
        [sys.executable, "-m", "workflows.cli", "compare", "--runs-file", str(runs_file), "--outputs", str(outputs),
         "--baseline", "argrank-bm25", "--baseline", "argrank-dirichlet", "--test", "fisher", "--permutations", "500",
         "--measure", "nDCG@5", "--measure", "P@10", "--latex", str(latex), "--markdown", "-"],
        cwd=REPO, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = [line.split(" & ") for line in latex.read_text(encoding="utf-8").splitlines() if line.count(" & ") == 3]
    tags = [cells[1].replace("\\_", "_") for cells in rows[1:]]  # the runs file's order, as the command compares them
    assert len(tags) == 4
    table = argrank.compare({tag: published / f"{tag}.txt" for tag in tags}, qrels, ["nDCG@5", "P@10"],
                            baseline=["argrank-bm25", "argrank-dirichlet"], test="fisher", permutations=500)  # fmt: skip
    assert table.column_names[0] == "against" and table.num_rows == 2 * 4 * 2
    # The same table but for the judgments' name (the command line's "relevance", the API's "qrels").
    ours = argrank.to_latex(table, "tab:relevance").replace("args, qrels:", "args, relevance:")
    assert ours == latex.read_text(encoding="utf-8")
    assert argrank.to_markdown(table).replace("args, qrels:", "args, relevance:") == done.stdout
    with pytest.raises(ValueError, match="argrank.compare returned"):
        argrank.to_latex(argrank.compare({tag: published / f"{tag}.txt" for tag in tags}, qrels, perquery=True))
