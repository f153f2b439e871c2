"""A comparison as the table a paper prints: runs × measures, the best value per measure in bold, and superscript
letters after a value naming the runs it is significantly better than, as ranx's `Report` marks them.

Each run gets a letter (a, b, c, …, z, A, …, Z in the comparison's order). Against baselines (t, Wilcoxon, randomization), a
run beats a baseline where its corrected difference rejects "no difference" and is positive, and the baseline beats
the run where it is negative; with Tukey's HSD every pair of runs is tested. The caption names the test, the
correction and alpha. Written as LaTeX (booktabs), Markdown or HTML, with the measures in the comparison's order.
"""

from __future__ import annotations

from dataclasses import dataclass
from string import ascii_letters

from argrank.evaluation.comparison import Comparison
from argrank.evaluation.comparison_text import CORRECTION_NAMES, TEST_NAMES
from argrank.evaluation.names import FISHER, TUKEY, lower_is_better
from argrank.formats.html import table as html_table
from argrank.formats.html import text

MAX_RUNS = len(ascii_letters)
LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                 "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}  # fmt: skip


@dataclass(frozen=True)
class Cell:
    """One run's value on one measure: bold where it is the best, `better_than` the letters of the runs it is
    significantly better than."""

    value: float | None
    best: bool
    better_than: str


@dataclass(frozen=True)
class PaperTable:
    caption: str
    measures: list[str]
    letters: list[str]
    runs: list[str]
    cells: list[list[Cell]]  # one row per run, one cell per measure


def paper_table(comparisons: list[Comparison]) -> PaperTable:
    """The table of one or more comparisons of the same runs on the same judgments (one per baseline)."""
    if not comparisons:
        raise ValueError("no comparison to write as a table")
    first = comparisons[0]
    runs = list(first.runs)
    if len(runs) > MAX_RUNS:
        raise ValueError(f"{len(runs)} runs: a table marks at most {MAX_RUNS} with letters")
    letters = dict(zip(runs, ascii_letters))
    cells = []
    for tag in runs:
        row = []
        for measure in first.measures:
            value = first.runs[tag].get(measure, {}).get("mean")
            values = [v for other in runs if (v := first.runs[other].get(measure, {}).get("mean")) is not None]
            best = value is not None and value == (min(values) if lower_is_better(measure) else max(values))
            beaten = _beaten(comparisons, measure, tag)
            row.append(Cell(value, best, "".join(letters[other] for other in runs if other in beaten)))
        cells.append(row)
    return PaperTable(_caption(comparisons), list(first.measures), [letters[t] for t in runs], runs, cells)


def latex(table: PaperTable, label: str = "tab:results") -> str:
    """A `table` environment with a booktabs `tabular` (needs `\\usepackage{booktabs}`)."""
    columns = "ll" + "r" * len(table.measures)
    lines = [
        r"\begin{table}[t]",
        r"\centering",
        rf"\caption{{{_latex_text(table.caption)}}}",
        rf"\label{{{label}}}",
        rf"\begin{{tabular}}{{{columns}}}",
        r"\toprule",
        " & ".join(["", "Run", *(_latex_text(m) for m in table.measures)]) + r" \\",
        r"\midrule",
    ]
    for letter, run, row in zip(table.letters, table.runs, table.cells):
        values = []
        for cell in row:
            shown = _number(cell.value)
            shown = rf"\textbf{{{shown}}}" if cell.best else shown
            values.append(shown + (rf"$^{{{cell.better_than}}}$" if cell.better_than else ""))
        lines.append(" & ".join([letter, _latex_text(run), *values]) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", r"\end{table}"]
    return "\n".join(lines) + "\n"


def markdown(table: PaperTable) -> str:
    """A pipe table (GitHub's and pandoc's), the caption above it; superscripts as `<sup>`."""
    lines = [
        f"Table: {_markdown_text(table.caption)}",
        "",
        "| | Run | " + " | ".join(_markdown_text(m) for m in table.measures) + " |",
        "|---|---|" + "---:|" * len(table.measures),
    ]
    for letter, run, row in zip(table.letters, table.runs, table.cells):
        values = []
        for cell in row:
            shown = f"**{_number(cell.value)}**" if cell.best else _number(cell.value)
            values.append(shown + (f"<sup>{cell.better_than}</sup>" if cell.better_than else ""))
        lines.append(f"| {letter} | {_markdown_text(run)} | " + " | ".join(values) + " |")
    return "\n".join(lines) + "\n"


def html(table: PaperTable) -> str:
    """The same table as an HTML `<table>` for the report."""
    rows = []
    for letter, run, row in zip(table.letters, table.runs, table.cells):
        cells = [f"<td>{letter}</td>", f"<td>{text(run)}</td>"]
        for cell in row:
            shown = f"<b>{_number(cell.value)}</b>" if cell.best else _number(cell.value)
            cells.append(f"<td>{shown}{f'<sup>{cell.better_than}</sup>' if cell.better_than else ''}</td>")
        rows.append(cells)
    return html_table(["", "run", *table.measures], rows, table.caption, raw=True)


def _beaten(comparisons: list[Comparison], measure: str, tag: str) -> set[str]:
    """The runs `tag` is significantly better than on `measure`."""
    first = comparisons[0]
    settings = first.significance
    mean = first.runs[tag].get(measure, {}).get("mean")
    if settings.test == TUKEY:
        beaten = set()
        for other, p in first.pairs.get(measure, {}).get(tag, {}).items():
            other_mean = first.runs[other][measure]["mean"]
            if p is not None and p < settings.alpha and _better(measure, mean, other_mean):
                beaten.add(other)
        return beaten
    beaten = set()
    for comparison in comparisons:
        base = comparison.baseline
        if tag != base and comparison.runs[tag].get(measure, {}).get("reject"):
            if _better(measure, mean, comparison.runs[base][measure]["mean"]):
                beaten.add(base)
        for other, figures in comparison.runs.items():  # a baseline beats the runs significantly worse than it
            entry = figures.get(measure, {})
            if tag == base and other != base and entry.get("reject") and _better(measure, mean, entry["mean"]):
                beaten.add(other)
    return beaten


def _better(measure: str, value: float, other: float) -> bool:
    return value < other if lower_is_better(measure) else value > other


def _caption(comparisons: list[Comparison]) -> str:
    first = comparisons[0]
    settings = first.significance
    if settings.test == TUKEY:
        how = f"{TEST_NAMES[TUKEY]} (adjusted for all pairs)"
    else:
        baselines = ", ".join(c.baseline for c in comparisons)
        extra = f", {settings.permutations} permutations, seed {settings.seed}" if settings.test == FISHER else ""
        how = (f"{TEST_NAMES[settings.test]}{extra} against {baselines}, p-values "
               f"{CORRECTION_NAMES[settings.correction]}-corrected per measure over the runs tested")  # fmt: skip
    return (
        f"{first.track}, {first.qrels}: mean over {first.topics} topics; the best value per measure in bold. A "
        f"superscript letter marks a significant improvement over that run ({how}; alpha {settings.alpha})."
    )


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"


def _latex_text(value: str) -> str:
    return "".join(LATEX_SPECIAL.get(char, char) for char in value)


def _markdown_text(value: str) -> str:
    return value.replace("|", r"\|")
