"""Evaluation results for people: a console table of means and a per-topic CSV, shared by the CLI and the pipeline.

Both take results as `evaluation.evaluate` or `image_evaluation.evaluate_images` return them, or as read back from
their JSON (whose key order may differ). A result names its measures under "measures"; results cached before
that key existed are nDCG results, named by their depth.
"""

from __future__ import annotations

import csv
import io

from argrank.evaluation.ndcg import measure_names, topic_order

NAME_HEADER = "run / qrels"


def format_table(results: dict[str, dict]) -> str:
    """One row per named result set, one column per mean measure (4 decimals) and the number of topics."""
    measures = list(dict.fromkeys(name for result in results.values() for name in result_measures(result)))
    header = [NAME_HEADER, *measures, "topics"]
    rows = [
        [name, *(f"{result[m]:.4f}" if m in result else "-" for m in measures), str(result["topics"])]
        for name, result in results.items()
    ]
    return _grid(header, rows)


def ranking_results(results: dict[str, dict]) -> dict[str, dict]:
    """Of one run's results by name, the ranking ones (nDCG per qrels file), without the stance entry."""
    return {name: result for name, result in results.items() if "depth" in result}


def format_results(evaluations: dict[str, dict[str, dict]]) -> str:
    """A submission's scores: the ranking table, then a stance table when any run was scored for stance."""
    table = format_table(
        {f"{tag} / {name}": result for tag, results in evaluations.items() for name, result in ranking_results(results).items()}
    )
    stance = {tag: results["stance"] for tag, results in evaluations.items() if "stance" in results}
    return f"{table}\n\n{format_stance_table(stance)}" if stance else table


def format_stance_table(stance: dict[str, dict]) -> str:
    """One row per run: stance macro-F1 and the pairs it is over, and the classifier's cross-validated macro-F1."""
    header = ["run", "stance_f1", "stance_pairs", "classifier_cv_macro_f1"]
    rows = [
        [
            tag,
            _number(result.get("stance_f1")),
            str(result.get("stance_pairs", "-")),
            _number(result.get("classifier", {}).get("cv_macro_f1")),
        ]
        for tag, result in stance.items()
    ]
    return _grid(header, rows)


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"


def per_topic_csv(result: dict) -> str:
    """`topic,<measures…>` and one row per topic in topic order, scores with 6 decimals."""
    names = result_measures(result)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["topic", *names])
    for topic in topic_order(result["per_topic"]):
        scores = result["per_topic"][topic]
        writer.writerow([topic, *(f"{scores[name]:.6f}" for name in names)])
    return out.getvalue()


def result_measures(result: dict) -> list[str]:
    """The names of a result's mean measures, in column order."""
    return list(result.get("measures") or measure_names(result["depth"]))


def _grid(header: list[str], rows: list[list[str]]) -> str:
    """Header, a rule and the rows, each column as wide as its widest cell."""
    widths = [max(len(row[column]) for row in (header, *rows)) for column in range(len(header))]
    return "\n".join(_align(row, widths) for row in (header, ["-" * width for width in widths], *rows))


def _align(cells: list[str], widths: list[int]) -> str:
    """The name left-aligned, numbers right-aligned, two spaces between columns."""
    name, *numbers = cells
    return "  ".join([name.ljust(widths[0]), *(cell.rjust(width) for cell, width in zip(numbers, widths[1:]))])
