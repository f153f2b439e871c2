"""`argrank compare --latex/--markdown` on the real 2022 Task 2 runs: the table a paper prints, compiled by a real
pdflatex; the randomization test and Tukey's HSD from the command line; several baselines in one call."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PDFLATEX = shutil.which("pdflatex")
DOCUMENT = "\\documentclass{article}\n\\usepackage{booktabs}\n\\begin{document}\n\\input{table}\n\\end{document}\n"


def compare(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "workflows.cli", "compare", "--track", "comparative", *args],
                          cwd=REPO, capture_output=True, text=True, timeout=600, check=False)  # fmt: skip


def _runs(shared_data: Path) -> tuple[list[str], str]:
    task2 = shared_data / "touche-task2"
    runs = sorted((task2 / "runs-2022").glob("*.txt"))
    return [a for run in runs for a in ("--run", str(run))], str(task2 / "touche-task2-2022-relevance.qrels")


@pytest.fixture
def pdflatex() -> str:
    if PDFLATEX is None:
        message = "no pdflatex here: `make latex` installs Debian's texlive-latex-recommended"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return PDFLATEX


def test_the_fisher_table_of_the_2022_runs_compiles_with_pdflatex(shared_data, tmp_path, pdflatex):
    runs, qrels = _runs(shared_data)
    table = tmp_path / "table.tex"
    done = compare(*runs, "--qrels", qrels, "--measure", "nDCG@5", "--measure", "P@5", "--baseline",
                   "Aldo-Nadi-run3", "--test", "fisher", "--permutations", "2000", "--seed", "1", "--latex",
                   str(table), "--markdown", str(tmp_path / "table.md"), "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert (result["test"], result["permutations"], result["seed"]) == ("fisher", 2000, 1)
    latex = table.read_text(encoding="utf-8")
    assert r"\toprule" in latex and "Run & nDCG@5 & P@5" in latex  # the measures in the order given
    best = max(result["runs"], key=lambda tag: result["runs"][tag]["nDCG@5"]["mean"])
    assert f"& {best} & \\textbf{{{result['runs'][best]['nDCG@5']['mean']:.4f}}}" in latex
    assert "paired randomization test, 2000 permutations, seed 1 against Aldo-Nadi-run3" in latex
    # Every run significantly below the baseline puts its letter on the baseline's nDCG@5.
    letters = dict(zip(result["runs"], "abcdefg"))
    worse = "".join(letters[t] for t, f in result["runs"].items() if f["nDCG@5"].get("reject") and
                    f["nDCG@5"]["difference"] < 0)  # fmt: skip
    assert worse, "some 2022 run is significantly below Aldo-Nadi-run3"
    assert f"$^{{{worse}}}$" in next(line for line in latex.splitlines() if "Aldo-Nadi-run3 &" in line)
    assert (tmp_path / "table.md").read_text(encoding="utf-8").startswith("Table: comparative, ")
    (tmp_path / "paper.tex").write_text(DOCUMENT, encoding="utf-8")
    built = subprocess.run([pdflatex, "-interaction=nonstopmode", "-halt-on-error", "paper.tex"], cwd=tmp_path,
                           capture_output=True, text=True, timeout=300, check=False)  # fmt: skip
    assert built.returncode == 0, built.stdout[-2000:]
    assert (tmp_path / "paper.pdf").stat().st_size > 1000


def test_tukey_and_several_baselines_from_the_command_line(shared_data, tmp_path):
    runs, qrels = _runs(shared_data)
    done = compare(*runs, "--qrels", qrels, "--measure", "nDCG@5", "--test", "tukey", "--markdown", "-")
    assert done.returncode == 0, done.stderr
    assert "Tukey's HSD over all runs (adjusted for all pairs)" in done.stdout
    assert done.stdout.count("\n| ") == 8  # the header and seven runs
    done = compare(*runs, "--qrels", qrels, "--measure", "nDCG@5", "--baseline", "Aldo-Nadi-run3", "--baseline",
                   "Katana-run1", "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["baselines"] == ["Aldo-Nadi-run3", "Katana-run1"]
    assert [c["baseline"] for c in result["comparisons"]] == result["baselines"]
    csv = compare(*runs, "--qrels", qrels, "--measure", "nDCG@5", "--baseline", "Aldo-Nadi-run3", "--baseline",
                  "Katana-run1", "--csv", "-")  # fmt: skip
    assert csv.stdout.splitlines()[0].startswith("against,run,measure,baseline,")
    assert len(csv.stdout.splitlines()) == 1 + 2 * 7
    done = compare(*runs, "--qrels", qrels, "--baseline", "Katana-run1", "--baseline", "Katana-run1")
    assert done.returncode == 2 and "--baseline names a run twice" in done.stderr
    done = compare(*runs, "--qrels", qrels, "--test", "fisher", "--permutations", "0")
    assert done.returncode == 2 and "--permutations 0" in done.stderr
