"""A comparison for people and spreadsheets: the terminal's table per measure, and CSV of the summary or of the
per-topic scores (the same rows the Python API returns as Arrow tables); and the one phrase every table, caption
and heading uses to say how differences were tested (`method`)."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from string import ascii_letters
from typing import TYPE_CHECKING, Any

from argrank.core.text_table import text_table
from argrank.evaluation.names import (
    ALL_PAIRS,
    BONFERRONI,
    DECIMALS,
    FISHER,
    HOLM,
    NO_CORRECTION,
    SIGNIFICANT,
    SIGNIFICANT_LEGEND,
    T_TEST,
    TUKEY,
    WILCOXON,
)

if TYPE_CHECKING:
    from argrank.evaluation.comparison import Comparison, Significance

TEST_NAMES = {T_TEST: "paired t-test", WILCOXON: "Wilcoxon signed-rank test",
              FISHER: "paired randomization test", TUKEY: "Tukey's HSD"}  # fmt: skip
CORRECTION_NAMES = {NO_CORRECTION: "uncorrected", HOLM: "Holm", BONFERRONI: "Bonferroni"}
TUKEY_ADJUSTED = "Tukey's HSD, adjusted for all pairs"
EVERY_PAIR = "every pair of runs"


def method(settings: Significance, pairs: str, over: str) -> str:
    """How differences were tested, as one phrase for a heading or a caption: the test (the randomization test's
    permutations and seed), which pairs (`pairs`, e.g. "every pair of runs"), the correction per measure over
    `over` (e.g. "all pairs") or none, and alpha. Tukey's HSD is named as what it is, adjusted for all pairs."""
    if settings.test == TUKEY:
        return f"{TUKEY_ADJUSTED}, {pairs}; alpha {settings.alpha}"
    test = TEST_NAMES[settings.test]
    if settings.test == FISHER:
        test += f" with {settings.permutations:,} permutations, seed {settings.seed}"
    if settings.correction == NO_CORRECTION:
        correction = "p-values not corrected for multiple testing"
    else:
        correction = f"p-values {CORRECTION_NAMES[settings.correction]}-corrected per measure over {over}"
    return f"{test}, {pairs}, {correction}; alpha {settings.alpha}"


def comparison_method(comparisons: Sequence[Comparison]) -> str:
    """`method` for comparisons of the same runs with one baseline each: which baselines, or every pair."""
    settings = comparisons[0].significance
    if settings.pairs_tested == ALL_PAIRS:
        return method(settings, EVERY_PAIR, "all pairs")
    if len(comparisons) == 1:
        return method(settings, f"each run against the baseline {comparisons[0].baseline}",
                      "the runs tested against the baseline")  # fmt: skip
    baselines = ", ".join(c.baseline for c in comparisons)
    return method(settings, f"each run against each baseline ({baselines})", "the runs tested against each baseline")


def format_comparison(comparison: Comparison, decimals: int = DECIMALS) -> str:
    """One block per measure: each run's mean, its difference from the baseline, the raw and corrected p-values,
    whether the difference is significant (SIGNIFICANT, the rows `reject` marks) and wins/ties/losses over topics;
    where every pair was tested, each pair's corrected p-value too."""
    settings = comparison.significance
    head = f"{comparison.track} / {comparison.qrels}: {comparison.topics} topics, baseline {comparison.baseline}"
    lines = [f"{head}; {comparison_method([comparison])}; {SIGNIFICANT_LEGEND}"]
    adjusted = "Tukey" if settings.test == TUKEY else CORRECTION_NAMES[settings.correction]
    for measure in comparison.measures:
        rows = [[measure, "mean", "vs baseline", "p", f"p ({adjusted})", "sig.", "wins/ties/losses"]]
        for tag, figures in comparison.runs.items():
            entry = figures.get(measure)
            if entry is None:
                continue
            name = f"{tag} (baseline)" if tag == comparison.baseline else tag
            if "wins" not in entry:
                rows.append([name, number(entry["mean"], decimals), "", "", "", "", ""])
                continue
            tested = ["identical", "-", ""] if entry.get("identical") else [
                number(entry["p"], decimals), number(entry["p_corrected"], decimals),
                SIGNIFICANT if entry["reject"] else ""]  # fmt: skip
            wins = f"{entry['wins']}/{entry['ties']}/{entry['losses']}"
            rows.append([name, number(entry["mean"], decimals), f"{entry['difference']:+.{decimals}f}", *tested, wins])
        lines += ["", text_table(rows)]
        if measure in comparison.pairs:
            lines += ["", _pairs_table(comparison, measure, adjusted, decimals)]
    return "\n".join(lines)


def _pairs_table(comparison: Comparison, measure: str, adjusted: str, decimals: int) -> str:
    """Every pair's corrected p-value on `measure`, runs × runs (columns by letter, as the paper's table)."""
    tags = list(comparison.runs)
    letters = dict(zip(tags, ascii_letters))
    pairs = comparison.pairs[measure]
    rows = [[f"{measure}: p ({adjusted}) of each pair", *(letters.get(tag, "?") for tag in tags)]]
    for tag in tags:
        cells = []
        for other in tags:
            p = pairs.get(tag, {}).get(other)
            mark = SIGNIFICANT if p is not None and p < comparison.significance.alpha else ""
            cells.append("" if other == tag else number(p, decimals) + mark)
        rows.append([f"{letters.get(tag, '?')} {tag}", *cells])
    return text_table(rows)


def format_rows(rows: list[dict[str, Any]], columns: Sequence[str], decimals: int = DECIMALS) -> str:
    """Rows of dictionaries as a terminal table (figures with `decimals` decimals)."""
    return text_table([list(columns), *([_cell(row[column], decimals) for column in columns] for row in rows)],
                      rule=True)  # fmt: skip


def rows_csv(rows: list[dict[str, Any]], columns: Sequence[str]) -> str:
    """Rows of dictionaries as CSV with a header; figures at full precision, empty where None."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow(["" if row.get(column) is None else _csv_cell(row[column]) for column in columns])
    return out.getvalue()


def _cell(value: Any, decimals: int) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{decimals}f}"
    return str(value).lower() if isinstance(value, bool) else str(value)


def _csv_cell(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else repr(value) if isinstance(value, float) else str(value)


def number(value: float | None, decimals: int = DECIMALS) -> str:
    """A figure with `decimals` decimals, as every table shows it; "-" where there is none (None or nan)."""
    return "-" if value is None or math.isnan(value) else f"{value:.{decimals}f}"
