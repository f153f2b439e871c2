"""What `argrank compare` prints and writes, whichever track compared: the tables per judgments and baseline (or
--perquery's long table), as text or JSON, as CSV with --csv (the rows the Python API returns), and as a paper's
table with --latex and --markdown (evaluation.paper_table), with any further table a command adds (the
reproducibility measures); or, with --participants, the standings in the same forms (evaluation.standings).

Every output is made before any is written: a name that cannot go into a table (a newline in a run's tag) is a
usage error, and no file is left half written."""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from argrank.evaluation.comparison import PER_QUERY_COLUMNS, SUMMARY_COLUMNS, Comparison, PerTopic, per_query_rows
from argrank.evaluation.comparison_text import format_comparison, format_rows, rows_csv
from argrank.evaluation.paper_table import Grid, latex, latex_grid, markdown, markdown_grid, paper_table
from argrank.evaluation.standings import (
    STANDINGS_COLUMNS,
    Standings,
    format_standings,
    standings_latex,
    standings_markdown,
    standings_rows,
)
from workflows.commands.output_options import written

JUDGMENTS = "judgments"  # the first column where one command compares on several judgments (perspective)
AGAINST = "against"  # the next, where the runs are compared with several baselines


class Table(Protocol):
    """A further table a command shows beside its comparisons: as text, and as a paper's table labelled `label`."""

    label: str

    def text(self, decimals: int) -> str: ...

    def grid(self, decimals: int) -> Grid: ...


def show_comparisons(
    args: argparse.Namespace, compared: list[tuple[Comparison, PerTopic]], json_object: Callable[[], Any],
    also: Sequence[Table] = (),
) -> int:  # fmt: skip
    """Print the comparisons (`json_object()` with --json), or with --perquery the per-topic scores; --csv writes
    the same rows to a file (or stdout for -), --latex and --markdown the paper's tables, one per judgments, and
    `also`'s after them."""
    several = len({comparison.qrels for comparison, _ in compared}) > 1
    against = not args.perquery and len({comparison.baseline for comparison, _ in compared}) > 1
    columns = ((JUDGMENTS,) if several else ()) + ((AGAINST,) if against else ())
    columns += PER_QUERY_COLUMNS if args.perquery else SUMMARY_COLUMNS
    per_query = {comparison.qrels: per_topic for comparison, per_topic in compared}  # the same for every baseline
    rows = [
        {**({JUDGMENTS: qrels} if several else {}), **row}
        for qrels, per_topic in per_query.items()
        for row in per_query_rows(per_topic)
    ] if args.perquery else [
        {**({JUDGMENTS: comparison.qrels} if several else {}), **({AGAINST: comparison.baseline} if against else {}),
         **row}
        for comparison, _ in compared
        for row in comparison.summary_rows()
    ]  # fmt: skip
    by_qrels: dict[str, list[Comparison]] = {}
    for comparison, _ in compared:
        by_qrels.setdefault(comparison.qrels, []).append(comparison)
    decimals = args.decimals
    latex_text = markdown_text = ""
    try:
        if args.latex or args.markdown:
            tables = [(paper_table(group), _label(qrels)) for qrels, group in by_qrels.items()]
        if args.latex:
            latex_text = "\n".join([*(latex(table, label, decimals) for table, label in tables),
                                    *(latex_grid(table.grid(decimals), table.label) for table in also)])  # fmt: skip
        if args.markdown:
            markdown_text = "\n".join([*(markdown(table, decimals) for table, _ in tables),
                                       *(markdown_grid(table.grid(decimals)) for table in also)])  # fmt: skip
    except ValueError as error:  # too many runs, or a name with a newline or another control character
        args.usage_error(str(error))

    def text() -> str:
        if args.perquery:
            return format_rows(rows, columns, decimals)
        shown = [format_comparison(comparison, decimals) for comparison, _ in compared]
        return "\n\n".join(shown + [table.text(decimals) for table in also])

    return _show(args, rows_csv(rows, columns) if args.csv else "", latex_text, markdown_text,
                 lambda: rows if args.perquery else json_object(), text)  # fmt: skip


def show_standings(args: argparse.Namespace, result: Standings) -> int:
    """Print the standings (their JSON with --json); --csv, --latex and --markdown write them as a comparison's are
    written."""
    try:
        latex_text = standings_latex(result, "tab:standings", args.decimals) if args.latex else ""
        markdown_text = standings_markdown(result, args.decimals) if args.markdown else ""
    except ValueError as error:  # a name with a newline or another control character
        args.usage_error(str(error))
    csv = rows_csv(standings_rows(result), STANDINGS_COLUMNS) if args.csv else ""
    return _show(args, csv, latex_text, markdown_text,
                 result.to_json, lambda: format_standings(result, args.decimals))  # fmt: skip


def _show(args: argparse.Namespace, csv: str, latex_text: str, markdown_text: str, json_object: Callable[[], Any],
          text: Callable[[], str]) -> int:  # fmt: skip
    """Write --csv, --latex and --markdown; print what goes to stdout (-) instead, else the JSON or the text."""
    stdout = [written(args.csv, csv), written(args.latex, latex_text), written(args.markdown, markdown_text)]
    if any(stdout):
        sys.stdout.write("".join(stdout))
    elif args.json:
        print(json.dumps(json_object(), indent=2))
    else:
        print(text())
    return 0


def _label(qrels: str) -> str:
    """A LaTeX label for the table of one judgments file."""
    return "tab:" + (re.sub(r"[^A-Za-z0-9]+", "-", qrels).strip("-") or "results")
