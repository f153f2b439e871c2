"""A comparison for people and spreadsheets: the terminal's table per measure, and CSV of the summary or of the
per-topic scores (the same rows the Python API returns as Arrow tables)."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from argrank.core.text_table import text_table
from argrank.evaluation.names import BONFERRONI, FISHER, HOLM, T_TEST, TUKEY, WILCOXON

if TYPE_CHECKING:
    from argrank.evaluation.comparison import Comparison

TEST_NAMES = {T_TEST: "paired t-test", WILCOXON: "Wilcoxon signed-rank test",
              FISHER: "paired randomization test", TUKEY: "Tukey's HSD over all runs"}  # fmt: skip
CORRECTION_NAMES = {HOLM: "Holm", BONFERRONI: "Bonferroni"}


def format_comparison(comparison: Comparison) -> str:
    """One block per measure: each run's mean, its difference from the baseline, the raw and corrected p-values,
    whether the difference is significant (`*`, the rows `reject` marks) and wins/ties/losses over topics."""
    settings = comparison.significance
    head = f"{comparison.track} / {comparison.qrels}: {comparison.topics} topics, baseline {comparison.baseline}"
    how = CORRECTION_NAMES[settings.correction]
    if settings.test == TUKEY:
        tested = ", p-values adjusted for every pair of runs"
    else:
        flips = f" ({settings.permutations} sign flips, seed {settings.seed})" if settings.test == FISHER else ""
        tested = f"{flips}, p-values {how}-corrected per measure over the runs tested"
    lines = [f"{head}; {TEST_NAMES[settings.test]}{tested}; * significant at alpha {settings.alpha}"]
    for measure in comparison.measures:
        rows = [[measure, "mean", "vs baseline", "p", f"p ({'Tukey' if settings.test == TUKEY else how})", "sig.",
                 "wins/ties/losses"]]  # fmt: skip
        for tag, figures in comparison.runs.items():
            entry = figures.get(measure)
            if entry is None:
                continue
            name = f"{tag} (baseline)" if tag == comparison.baseline else tag
            if "wins" not in entry:
                rows.append([name, _number(entry["mean"]), "", "", "", "", ""])
                continue
            tested = ["identical", "-", ""] if entry.get("identical") else [
                _number(entry["p"]), _number(entry["p_corrected"]), "*" if entry["reject"] else ""]  # fmt: skip
            wins = f"{entry['wins']}/{entry['ties']}/{entry['losses']}"
            rows.append([name, _number(entry["mean"]), f"{entry['difference']:+.4f}", *tested, wins])
        lines += ["", text_table(rows)]
    return "\n".join(lines)


def format_rows(rows: list[dict[str, Any]], columns: Sequence[str]) -> str:
    """Rows of dictionaries as a terminal table (figures with 4 decimals)."""
    return text_table([list(columns), *([_cell(row[column]) for column in columns] for row in rows)], rule=True)


def rows_csv(rows: list[dict[str, Any]], columns: Sequence[str]) -> str:
    """Rows of dictionaries as CSV with a header; figures at full precision, empty where None."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow(["" if row[column] is None else _csv_cell(row[column]) for column in columns])
    return out.getvalue()


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.4f}"
    return str(value).lower() if isinstance(value, bool) else str(value)


def _csv_cell(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else repr(value) if isinstance(value, float) else str(value)


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"
