"""Evaluation results for people: a console table of means and a per-topic CSV, shared by the CLI and the pipeline.

Both take results as `evaluation.evaluate` returns them, or as read back from its JSON (whose key order may differ).
"""

from __future__ import annotations

import csv
import io

from argrank.evaluation import measure_names, topic_order

NAME_HEADER = "run / qrels"


def format_table(results: dict[str, dict]) -> str:
    """One row per named result set, one column per mean measure (4 decimals) and the number of topics."""
    measures = list(dict.fromkeys(name for result in results.values() for name in measure_names(result["depth"])))
    header = [NAME_HEADER, *measures, "topics"]
    rows = [
        [name, *(f"{result[m]:.4f}" if m in result else "-" for m in measures), str(result["topics"])]
        for name, result in results.items()
    ]
    widths = [max(len(row[column]) for row in (header, *rows)) for column in range(len(header))]
    rule = ["-" * width for width in widths]
    return "\n".join(_align(row, widths) for row in (header, rule, *rows))


def per_topic_csv(result: dict) -> str:
    """`topic,<measures…>` and one row per topic in topic order, scores with 6 decimals."""
    names = measure_names(result["depth"])
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["topic", *names])
    for topic in topic_order(result["per_topic"]):
        scores = result["per_topic"][topic]
        writer.writerow([topic, *(f"{scores[name]:.6f}" for name in names)])
    return out.getvalue()


def _align(cells: list[str], widths: list[int]) -> str:
    """The name left-aligned, numbers right-aligned, two spaces between columns."""
    name, *numbers = cells
    return "  ".join([name.ljust(widths[0]), *(cell.rjust(width) for cell, width in zip(numbers, widths[1:]))])
