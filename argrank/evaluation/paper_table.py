"""A comparison as the table a paper prints: runs × measures, the best value per measure in bold, and superscript
letters after a value naming the runs it is significantly better than, as ranx's `Report` marks them.

Each run gets a letter (a, b, c, …, z, A, …, Z in the comparison's order). Where each run was tested against the
baselines only (t, Wilcoxon, randomization; `pairs_tested` baselines), a run beats a baseline where its corrected
difference rejects "no difference" and is positive, and the baseline beats the run where it is negative: no other
pair has letters. Where every pair was tested (`pairs_tested` all, and always with Tukey's HSD), a value carries the
letters of every run it is significantly better than. The caption says which pairs were tested, the test, the
correction and alpha, and what the marks mean (names.BEST_LEGEND, names.LETTERS_LEGEND); it names no file.

Written as LaTeX (booktabs), Markdown or HTML (`Grid`, the writers the standings and the reproducibility tables use
too): every character that is markup in LaTeX or Markdown is escaped, and a name with a newline or another control
character, which would break a row, is refused (ValueError naming it).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from string import ascii_letters

from argrank.evaluation.comparison import Comparison
from argrank.evaluation.comparison_text import comparison_method, number
from argrank.evaluation.names import BEST_LEGEND, DECIMALS, LETTERS_LEGEND, SIGNIFICANT, best_value, lower_is_better
from argrank.formats.html import table as html_table
from argrank.formats.html import text

MAX_RUNS = len(ascii_letters)
# Each character LaTeX would not print as itself (in the default OT1 encoding too): the ten specials, the three that
# OT1 prints as other glyphs, the double quote (babel's shorthand) and SIGNIFICANT; and the pairs that would print as
# one ligature ("--" an en dash, "''" a closing quote, "!`" an inverted mark, ",," a low quote) are kept apart.
LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                 "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
                 "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}",
                 '"': r"\UseTextSymbol{T1}{\textquotedbl}", SIGNIFICANT: r"\dag{}"}  # fmt: skip
LATEX_LIGATURES = {("-", "-"), ("'", "'"), ("`", "`"), ("!", "`"), ("?", "`"), (",", ",")}
# Markdown (CommonMark, GitHub's and pandoc's extensions): what is inline markup is backslash-escaped (brackets, so
# no link can begin; parentheses mean nothing without them), and what would start HTML or an entity is an entity.
MARKDOWN_ESCAPED = frozenset("\\`*_[]|~^${}")
MARKDOWN_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
ROW_BREAKING = ("Cc", "Zl", "Zp")  # Unicode categories of control characters and line and paragraph separators


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


@dataclass(frozen=True)
class Shown:
    """One cell as it is written: plain text (each format escapes it), bold or not, and superscript letters."""

    text: str
    bold: bool = False
    superscript: str = ""


@dataclass(frozen=True)
class Grid:
    """A table to write as LaTeX, Markdown or HTML: a caption, the header, and rows of cells; the first `names`
    columns hold names (left-aligned), the others figures (right-aligned)."""

    caption: str
    header: list[str]
    rows: list[list[Shown]]
    names: int = 2


def paper_table(comparisons: list[Comparison]) -> PaperTable:
    """The table of one or more comparisons of the same runs on the same judgments (one per baseline)."""
    if not comparisons:
        raise ValueError("no comparison to write as a table")
    first = comparisons[0]
    runs = list(first.runs)
    if len(runs) > MAX_RUNS:
        raise ValueError(f"{len(runs)} runs: a table marks at most {MAX_RUNS} with letters")
    letters = dict(zip(runs, ascii_letters))
    best = {m: best_value((figures.get(m, {}).get("mean") for figures in first.runs.values()), m)
            for m in first.measures}  # fmt: skip
    cells = []
    for tag in runs:
        row = []
        for measure in first.measures:
            value = first.runs[tag].get(measure, {}).get("mean")
            beaten = _beaten(comparisons, measure, tag)
            row.append(Cell(value, value is not None and value == best[measure],
                            "".join(letters[other] for other in runs if other in beaten)))
        cells.append(row)
    return PaperTable(_caption(comparisons), list(first.measures), [letters[t] for t in runs], runs, cells)


def latex(table: PaperTable, label: str = "tab:results", decimals: int = DECIMALS) -> str:
    """A `table` environment with a booktabs `tabular` (needs `\\usepackage{booktabs}`)."""
    return latex_grid(_grid(table, decimals), label)


def markdown(table: PaperTable, decimals: int = DECIMALS) -> str:
    """A pipe table (GitHub's and pandoc's), the caption above it; superscripts as `<sup>`."""
    return markdown_grid(_grid(table, decimals))


def html(table: PaperTable, decimals: int = DECIMALS) -> str:
    """The same table as an HTML `<table>` for the report."""
    return html_grid(_grid(table, decimals))


def latex_grid(grid: Grid, label: str) -> str:
    """`grid` as a `table` environment with a booktabs `tabular`, the caption and every cell escaped."""
    columns = "l" * grid.names + "r" * (len(grid.header) - grid.names)
    body = [" & ".join(latex_text(name) for name in grid.header) + r" \\", r"\midrule"]
    for row in grid.rows:
        cells = []
        for cell in row:
            shown = rf"\textbf{{{latex_text(cell.text)}}}" if cell.bold else latex_text(cell.text)
            cells.append(shown + (rf"$^{{{latex_text(cell.superscript)}}}$" if cell.superscript else ""))
        body.append(" & ".join(cells) + r" \\")
    return "\n".join([
        r"\begin{table}[t]",
        r"\centering",
        rf"\caption{{{latex_text(grid.caption)}}}",  # escaped after the cells: a bad name is refused as itself
        rf"\label{{{label}}}",
        rf"\begin{{tabular}}{{{columns}}}",
        r"\toprule",
        *body,
        r"\bottomrule",
        r"\end{tabular}",
        r"\end{table}",
    ]) + "\n"  # fmt: skip


def markdown_grid(grid: Grid) -> str:
    """`grid` as a pipe table with its caption above it (pandoc's `Table:`), every cell escaped."""
    body = [
        "| " + " | ".join(markdown_text(name) for name in grid.header) + " |",
        "|" + "---|" * grid.names + "---:|" * (len(grid.header) - grid.names),
    ]
    for row in grid.rows:
        cells = []
        for cell in row:
            shown = f"**{markdown_text(cell.text)}**" if cell.bold and cell.text else markdown_text(cell.text)
            cells.append(shown + (f"<sup>{markdown_text(cell.superscript)}</sup>" if cell.superscript else ""))
        body.append("| " + " | ".join(cells) + " |")
    return "\n".join([f"Table: {markdown_text(grid.caption)}", "", *body]) + "\n"  # caption escaped after the cells


def html_grid(grid: Grid) -> str:
    """`grid` as an HTML `<table>` (formats.html), every cell escaped."""
    rows = []
    for row in grid.rows:
        cells = []
        for cell in row:
            shown = f"<b>{text(cell.text)}</b>" if cell.bold else text(cell.text)
            cells.append(f"<td>{shown}{f'<sup>{text(cell.superscript)}</sup>' if cell.superscript else ''}</td>")
        rows.append(cells)
    return html_table(grid.header, rows, grid.caption, raw=True)


def latex_text(value: str) -> str:
    """`value` as LaTeX text that prints as `value`; ValueError where it cannot be written on one row."""
    one_line(value)
    return "".join(LATEX_SPECIAL.get(char, char) + ("{}" if (char, value[i + 1 : i + 2]) in LATEX_LIGATURES else "")
                   for i, char in enumerate(value))  # fmt: skip


def markdown_text(value: str) -> str:
    """`value` as Markdown text that renders as `value`; ValueError where it cannot be written on one row."""
    one_line(value)
    return "".join(MARKDOWN_ENTITIES.get(char, f"\\{char}" if char in MARKDOWN_ESCAPED else char) for char in value)


def one_line(value: str) -> str:
    """`value`, unless it holds a newline or another control character (ValueError naming it): a table's row or
    caption would break there."""
    if any(unicodedata.category(char) in ROW_BREAKING for char in value):
        raise ValueError(f"{value!r} holds a newline or another control character: it cannot go into a LaTeX or "
                         "Markdown table (rename it)")  # fmt: skip
    return value


def _grid(table: PaperTable, decimals: int) -> Grid:
    rows = [[Shown(letter), Shown(run), *(Shown(number(cell.value, decimals), cell.best, cell.better_than)
                                          for cell in row)]
            for letter, run, row in zip(table.letters, table.runs, table.cells)]  # fmt: skip
    return Grid(table.caption, ["", "Run", *table.measures], rows)


def _beaten(comparisons: Sequence[Comparison], measure: str, tag: str) -> set[str]:
    """The runs `tag` is significantly better than on `measure`."""
    first = comparisons[0]
    mean = first.runs[tag].get(measure, {}).get("mean")
    if first.pairs:  # every pair tested
        return {other for other, p in first.pairs.get(measure, {}).get(tag, {}).items()
                if p is not None and p < first.significance.alpha
                and _better(measure, mean, first.runs[other][measure]["mean"])}  # fmt: skip
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


def _caption(comparisons: Sequence[Comparison]) -> str:
    first = comparisons[0]
    untested = [m for m in first.measures if not any("wins" in figures.get(m, {}) for figures in first.runs.values())]
    without = f"; {', '.join(untested)} not tested (no per-topic scores)" if untested else ""
    return (f"Mean over {first.topics} topics; {BEST_LEGEND}. {LETTERS_LEGEND[0].upper()}{LETTERS_LEGEND[1:]} "
            f"({comparison_method(comparisons)}{without}).")  # fmt: skip
