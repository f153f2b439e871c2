"""Evaluation results for people: a console table of means and a per-topic CSV, shared by the CLI and the publishers."""

from __future__ import annotations

import csv
import io

from argrank.core.text_table import text_table
from argrank.evaluation.in_sample import marked, notes
from argrank.evaluation.results import RunScores, TopicScores

NAME_HEADER = "run / qrels"


def format_table(results: dict[str, TopicScores]) -> str:
    """One row per named result, one column per mean measure (4 decimals) and the number of topics averaged over;
    where a run lacks judged topics, a column counting them and a line saying how the means treat them; in-sample
    figures marked, with a line saying why under the table."""
    measures = list(dict.fromkeys(name for result in results.values() for name in result.measures))
    lacking = any(result.missing for result in results.values())
    header = [NAME_HEADER, *measures, "topics", *(["missing"] if lacking else [])]
    rows = [
        [
            name,
            *(marked(f"{result.means[m]:.4f}", m, result.in_sample) if m in result.means else "-" for m in measures),
            str(result.topics),
            *([str(len(result.missing))] if lacking else []),
        ]
        for name, result in results.items()
    ]
    lines = [f"{name}: {result.missing_note}" for name, result in results.items() if result.missing]
    lines += notes(result.in_sample for result in results.values())
    return _with_notes(text_table([header, *rows], rule=True), lines)


def format_results(evaluations: dict[str, RunScores]) -> str:
    """A submission's scores: the ranking table, then a stance table when any run was scored for stance."""
    table = format_table(
        {f"{tag} / {name}": result for tag, run in evaluations.items() for name, result in run.judgments.items()}
    )
    stance = {tag: run for tag, run in evaluations.items() if run.stance is not None or run.classifier is not None}
    return f"{table}\n\n{format_stance_table(stance)}" if stance else table


def format_stance_table(runs: dict[str, RunScores]) -> str:
    """One row per run: stance macro-F1 (marked where in-sample, with a line saying why under the table) and the
    pairs it is over, and the classifier's cross-validated macro-F1."""
    header = ["run", "stance_f1", "stance_pairs", "classifier_cv_macro_f1"]
    rows = [
        [
            tag,
            marked(_number(run.stance.macro), "stance_f1", run.stance.in_sample) if run.stance else "-",
            str(run.stance.pairs) if run.stance else "-",
            _number((run.classifier or {}).get("cv_macro_f1")),
        ]
        for tag, run in runs.items()
    ]
    marks = notes(run.stance.in_sample for run in runs.values() if run.stance)
    return _with_notes(text_table([header, *rows], rule=True), marks)


def _with_notes(table: str, lines: list[str]) -> str:
    return "\n".join([table, *lines])


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"


def per_pair_csv(results: dict[tuple[str, str], TopicScores]) -> str:
    """`run,qrels,topic,<measures…>` for several runs and judgments (run file, qrels file → scores): one row per
    pair and topic, the measures of all of them (empty where a pair lacks one), scores with 6 decimals."""
    measures = list(dict.fromkeys(name for result in results.values() for name in result.measures))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["run", "qrels", "topic", *measures])
    for (run, qrels), result in results.items():
        for topic, scores in result.per_topic.items():
            writer.writerow([run, qrels, topic, *(f"{scores[name]:.6f}" if name in scores else "" for name in measures)])
    return out.getvalue()


def per_topic_csv(result: TopicScores) -> str:
    """`topic,<measures…>` and one row per topic in topic order, scores with 6 decimals."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["topic", *result.measures])
    for topic, scores in result.per_topic.items():
        writer.writerow([topic, *(f"{scores[name]:.6f}" for name in result.measures)])
    return out.getvalue()
