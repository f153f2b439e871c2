"""What `argrank compare` prints and writes, whichever track compared: the tables per judgments (or --perquery's
long table), as text or JSON, and as CSV with --csv (the rows the Python API returns)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from argrank.core.atomic import atomic_path
from argrank.evaluation.comparison import PER_QUERY_COLUMNS, SUMMARY_COLUMNS, Comparison, PerTopic, per_query_rows
from argrank.evaluation.comparison_text import format_comparison, format_rows, rows_csv

JUDGMENTS = "judgments"  # the first column where one command compares on several judgments (perspective)


def show_comparisons(
    args: argparse.Namespace, compared: list[tuple[Comparison, PerTopic]], json_object: Callable[[], Any]
) -> int:
    """Print the comparisons (`json_object()` with --json), or with --perquery the per-topic scores; --csv writes
    the same rows to a file (or stdout for -)."""
    several = len(compared) > 1
    columns = ((JUDGMENTS,) if several else ()) + (PER_QUERY_COLUMNS if args.perquery else SUMMARY_COLUMNS)
    rows = [
        {**({JUDGMENTS: comparison.qrels} if several else {}), **row}
        for comparison, per_topic in compared
        for row in (per_query_rows(per_topic) if args.perquery else comparison.summary_rows())
    ]
    if args.csv == "-":
        sys.stdout.write(rows_csv(rows, columns))
        return 0
    if args.csv:
        with atomic_path(args.csv) as tmp:
            tmp.write_text(rows_csv(rows, columns), encoding="utf-8")
    if args.json:
        print(json.dumps(rows if args.perquery else json_object(), indent=2))
    elif args.perquery:
        print(format_rows(rows, columns))
    else:
        print("\n\n".join(format_comparison(comparison) for comparison, _ in compared))
    return 0
