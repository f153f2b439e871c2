"""What `argrank compare` prints and writes, whichever track compared: the tables per judgments and baseline (or
--perquery's long table), as text or JSON, as CSV with --csv (the rows the Python API returns), and as a paper's
table with --latex and --markdown (evaluation.paper_table)."""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from typing import Any

from argrank.core.atomic import atomic_path
from argrank.evaluation.comparison import PER_QUERY_COLUMNS, SUMMARY_COLUMNS, Comparison, PerTopic, per_query_rows
from argrank.evaluation.comparison_text import format_comparison, format_rows, rows_csv
from argrank.evaluation.paper_table import latex, markdown, paper_table

JUDGMENTS = "judgments"  # the first column where one command compares on several judgments (perspective)
AGAINST = "against"  # the next, where the runs are compared with several baselines


def show_comparisons(
    args: argparse.Namespace, compared: list[tuple[Comparison, PerTopic]], json_object: Callable[[], Any]
) -> int:
    """Print the comparisons (`json_object()` with --json), or with --perquery the per-topic scores; --csv writes
    the same rows to a file (or stdout for -), --latex and --markdown the paper's tables, one per judgments."""
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
    stdout = [_write(args.csv, rows_csv(rows, columns))]
    by_qrels: dict[str, list[Comparison]] = {}
    for comparison, _ in compared:
        by_qrels.setdefault(comparison.qrels, []).append(comparison)
    try:
        tables = [paper_table(group) for group in by_qrels.values()] if args.latex or args.markdown else []
    except ValueError as error:
        args.usage_error(str(error))
    stdout.append(_write(args.latex, "\n".join(latex(t, _label(q)) for t, q in zip(tables, by_qrels))))
    stdout.append(_write(args.markdown, "\n".join(markdown(t) for t in tables)))
    if any(stdout):
        sys.stdout.write("".join(stdout))
        return 0
    if args.json:
        print(json.dumps(rows if args.perquery else json_object(), indent=2))
    elif args.perquery:
        print(format_rows(rows, columns))
    else:
        print("\n\n".join(format_comparison(comparison) for comparison, _ in compared))
    return 0


def _write(path: str | None, content: str) -> str:
    """Write `content` to `path` atomically; return it instead where the path is - (stdout), else ""."""
    if path == "-":
        return content
    if path:
        with atomic_path(path) as tmp:
            tmp.write_text(content, encoding="utf-8")
    return ""


def _label(qrels: str) -> str:
    """A LaTeX label for the table of one judgments file."""
    return "tab:" + (re.sub(r"[^A-Za-z0-9]+", "-", qrels).strip("-") or "results")
