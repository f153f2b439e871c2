"""`argrank compare --latex/--markdown` on the real 2022 Task 2 runs: the table a paper prints, compiled by a real
pdflatex; the randomization test, every pair tested (ranx's letters) and Tukey's HSD from the command line; several
baselines in one call; runs named with every LaTeX and Markdown special character; the reproducibility measures and
the standings as tables too."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from html import unescape
from pathlib import Path

import numpy as np
import pytest
from markdown_it import MarkdownIt
from ranx.data_structures import Report
from ranx.statistical_tests import compute_statistical_significance

REPO = Path(__file__).resolve().parents[2]
PDFLATEX = shutil.which("pdflatex")
DOCUMENT = "\\documentclass{article}\n\\usepackage{booktabs}\n\\begin{document}\n%s\\end{document}\n"
LATEX_TAG = "_&%$#{}~^\\"
MARKDOWN_TAG = "*a*_[x](y)<b>|"


def compare(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "workflows.cli", "compare", "--track", "comparative", *args],
                          cwd=REPO, capture_output=True, text=True, timeout=600, check=False)  # fmt: skip


def _runs(shared_data: Path) -> tuple[list[str], str]:
    task2 = shared_data / "touche-task2"
    runs = sorted((task2 / "runs-2022").glob("*.txt"))
    return [a for run in runs for a in ("--run", str(run))], str(task2 / "touche-task2-2022-relevance.qrels")


def _compiled(pdflatex: str, folder: Path, *tables: str) -> None:
    """Each LaTeX file of `tables` (in `folder`) in one document, compiled by pdflatex."""
    (folder / "paper.tex").write_text(DOCUMENT % "".join(f"\\input{{{name}}}\n" for name in tables), encoding="utf-8")
    built = subprocess.run([pdflatex, "-interaction=nonstopmode", "-halt-on-error", "paper.tex"], cwd=folder,
                           capture_output=True, text=True, timeout=300, check=False)  # fmt: skip
    assert built.returncode == 0, built.stdout[-2000:]
    assert (folder / "paper.pdf").stat().st_size > 1000


def _markdown_cells(markdown: str) -> list[list[str]]:
    """The rows of a Markdown table as CommonMark with GitHub's tables renders them: each cell's text."""
    rendered = MarkdownIt("commonmark").enable("table").render(markdown)
    return [[unescape(re.sub(r"<[^>]+>", "", cell)) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
            for row in re.findall(r"<tr>(.*?)</tr>", rendered, re.S)[1:]]  # fmt: skip


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
    caption = next(line for line in latex.splitlines() if line.startswith(r"\caption"))
    assert ("paired randomization test with 2,000 permutations, seed 1, each run against the baseline "
            "Aldo-Nadi-run3, p-values Holm-corrected per measure over the runs tested against the baseline; alpha "
            "0.05") in caption  # fmt: skip
    assert "qrels" not in caption and "relevance" not in caption and "comparative" not in caption
    # Every run significantly below the baseline puts its letter on the baseline's nDCG@5.
    letters = dict(zip(result["runs"], "abcdefg"))
    worse = "".join(letters[t] for t, f in result["runs"].items() if f["nDCG@5"].get("reject") and
                    f["nDCG@5"]["difference"] < 0)  # fmt: skip
    assert worse, "some 2022 run is significantly below Aldo-Nadi-run3"
    assert f"$^{{{worse}}}$" in next(line for line in latex.splitlines() if "Aldo-Nadi-run3 &" in line)
    assert (tmp_path / "table.md").read_text(encoding="utf-8").startswith("Table: Mean over 50 topics; ")
    _compiled(pdflatex, tmp_path, "table")


def test_every_pair_tested_from_the_command_line_gives_ranx_letters(shared_data):
    runs, qrels = _runs(shared_data)
    options = [*runs, "--qrels", qrels, "--measure", "nDCG@5", "--pairs", "all", "--correction", "none"]
    done = compare(*options, "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["pairs_tested"] == "all" and result["correction"] == "none"
    per_query = json.loads(compare(*options, "--perquery", "--json").stdout)
    names = list(result["runs"])
    scores = {tag: np.array([row["value"] for row in per_query if row["run"] == tag]) for tag in names}
    tests = compute_statistical_significance(names, {tag: {"nDCG@5": v} for tag, v in scores.items()}, "student",
                                             max_p=0.05)  # fmt: skip
    means = {tag: {"nDCG@5": result["runs"][tag]["nDCG@5"]["mean"]} for tag in names}
    report = Report(names, means, tests, ["nDCG@5"], 0.05, {}, stat_test="student")
    for tag in names:  # each pair's p-value is scipy's paired t-test, as ranx's
        for other in names:
            if other != tag:
                assert result["pairs"]["nDCG@5"][tag][other] == pytest.approx(tests[tag, other]["nDCG@5"]["p_value"])
    table = compare(*options, "--markdown", "-")
    assert table.returncode == 0, table.stderr
    rows = _markdown_cells(table.stdout)
    ranx = [report.get_superscript_for_latex(tag, "nDCG@5") for tag in names]
    assert [row[2].lstrip("0123456789.") for row in rows] == ranx
    assert sum(map(len, ranx)) > len(names) - 1  # more than the pairs with one baseline could mark
    assert "paired t-test, every pair of runs, p-values not corrected for multiple testing" in table.stdout


def test_tukey_and_several_baselines_from_the_command_line(shared_data):
    runs, qrels = _runs(shared_data)
    done = compare(*runs, "--qrels", qrels, "--measure", "nDCG@5", "--test", "tukey", "--markdown", "-")
    assert done.returncode == 0, done.stderr
    assert "Tukey's HSD, adjusted for all pairs, every pair of runs; alpha 0.05" in done.stdout
    assert done.stdout.count("\n| ") == 8  # the header and seven runs
    tukey = json.loads(compare(*runs, "--qrels", qrels, "--measure", "nDCG@5", "--test", "tukey", "--json").stdout)
    assert (tukey["correction"], tukey["pairs_tested"]) == ("tukey-hsd", "all")
    for options, message in ((["--correction", "holm"], "--test tukey adjusts for all pairs itself"),
                             (["--pairs", "baselines"], "--test tukey tests every pair")):  # fmt: skip
        refused = compare(*runs, "--qrels", qrels, "--test", "tukey", *options)
        assert refused.returncode == 2 and message in refused.stderr and "Traceback" not in refused.stderr
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


def test_decimals_for_text_latex_and_markdown_but_not_csv(shared_data, tmp_path):
    runs, qrels = _runs(shared_data)
    options = [*runs, "--qrels", qrels, "--measure", "nDCG@5", "--baseline", "Aldo-Nadi-run3", "--decimals", "2"]
    text = compare(*options)
    assert text.returncode == 0, text.stderr
    assert next(line for line in text.stdout.splitlines() if line.startswith("Aldo-Nadi-run3")).split()[2] == "0.70"
    done = compare(*options, "--latex", str(tmp_path / "t.tex"), "--markdown", "-", "--csv", str(tmp_path / "t.csv"))
    assert "**0.70**" in done.stdout and r"\textbf{0.70}" in (tmp_path / "t.tex").read_text(encoding="utf-8")
    assert "0.6953904939408698" in (tmp_path / "t.csv").read_text(encoding="utf-8")  # full precision
    refused = compare(*options[:-1], "-1")
    assert refused.returncode == 2 and "--decimals -1" in refused.stderr


def test_runs_named_with_special_characters_read_back_and_a_newline_is_refused(shared_data, tmp_path, pdflatex):
    runs = shared_data / "touche-task2" / "runs-2022"
    qrels = str(shared_data / "touche-task2" / "touche-task2-2022-relevance.qrels")
    named = {LATEX_TAG: "Aldo-Nadi-run3", MARKDOWN_TAG: "Katana-run1", "say \"x\"--y''!`": "Grimjack-run1",
             "plain": "Asuna-run1"}  # the third: OT1's quote, and ligatures a dash, quotes and an inverted mark make
    files = []
    for tag, source in named.items():
        files += ["--run", str(tmp_path / f"{tag}.txt")]
        shutil.copy(runs / f"{source}.txt", files[-1])
    done = compare(*files, "--qrels", qrels, "--measure", "nDCG@5", "--baseline", "plain", "--latex",
                   str(tmp_path / "table.tex"), "--markdown", str(tmp_path / "table.md"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = _markdown_cells((tmp_path / "table.md").read_text(encoding="utf-8"))
    assert [row[1] for row in rows] == list(named)
    latex = (tmp_path / "table.tex").read_text(encoding="utf-8")
    assert r"\_\&\%\$\#\{\}\textasciitilde{}\textasciicircum{}\textbackslash{}" in latex
    assert r"say \UseTextSymbol{T1}{\textquotedbl}x\UseTextSymbol{T1}{\textquotedbl}-{}-y'{}'!{}`" in latex
    _compiled(pdflatex, tmp_path, "table")
    broken = tmp_path / "two\nlines.txt"
    shutil.copy(runs / "Asuna-run1.txt", broken)
    for output in ("--latex", "--markdown"):
        refused = compare("--run", str(broken), *files, "--qrels", qrels, output, str(tmp_path / "new"), "--csv",
                          str(tmp_path / "new.csv"))  # fmt: skip
        assert refused.returncode == 2 and "Traceback" not in refused.stderr
        assert refused.stderr.splitlines()[-1].startswith("argrank compare: error: 'two\\nlines' holds a newline")
        assert not (tmp_path / "new").exists() and not (tmp_path / "new.csv").exists()  # nothing half written


def test_the_reproducibility_measures_and_the_standings_as_tables_compile(shared_data, organizers_runs, tmp_path,
                                                                          pdflatex):  # fmt: skip
    runs = shared_data / "touche-task2" / "runs-2022"
    qrels = str(shared_data / "touche-task2" / "touche-task2-2022-relevance.qrels")
    done = compare("--run", str(runs / "Katana-run1.txt"), "--run", str(runs / "Grimjack-run3.txt"), "--qrels", qrels,
                   "--measure", "nDCG@5", "--baseline", "Katana-run1", "--reference", str(runs / "Grimjack-run1.txt"),
                   "--latex", str(tmp_path / "reproduction.tex"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    latex = (tmp_path / "reproduction.tex").read_text(encoding="utf-8")
    assert latex.count(r"\begin{table}") == 2 and r"\label{tab:reproducibility}" in latex
    assert "run & KTU & RBO & RMSE nDCG@5 & ER nDCG@5 & dRI nDCG@5" in latex and ".txt" not in latex
    shutil.copy(runs / "Grimjack-run3.txt", tmp_path / "mine.txt")
    done = compare("--run", str(tmp_path / "mine.txt"), "--participants", str(organizers_runs), "--qrels", qrels,
                   "--measure", "nDCG@5", "--measure", "P@5", "--latex", str(tmp_path / "standings.tex"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    standings = (tmp_path / "standings.tex").read_text(encoding="utf-8")
    assert r"mine (ours)" in standings and r"\dag{}" in standings and "Grimjack/run1 &" in standings
    _compiled(pdflatex, tmp_path, "reproduction", "standings")
