"""A ranking run's scores against one judgments file: the measures asked for, averaged as asked.

By default the measures the Touché organisers report for Tasks 1 and 2 at the cut-off k (5): nDCG@k, Judged@k
and their judged-only nDCG@k (`measures.CONDENSED`), averaged over every judged topic. Any other measure is
named as ir_measures names it (see `measures`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from argrank.evaluation.measures import Qrels, canonical, old_name, per_topic_scores
from argrank.evaluation.results import JUDGED_TOPICS, TopicScores
from argrank.formats.runfile import RunLine
from argrank.formats.topics import topic_order

DEPTH = 5  # Touché Tasks 1 and 2 report nDCG@5.
# Means over every judged topic, a topic the run lacks scoring 0: what ir_measures computes and TIRA's evaluator
# (ir_measures.calc_aggregate) reports for Touché, and trec_eval -c.
AVERAGE = JUDGED_TOPICS


class RankingScores(TopicScores):
    """Scores of ranking measures; the JSON also carries each mean under its old name where it had one."""

    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        per_topic = data.pop("per_topic")
        aliases = {old_name(name): mean for name, mean in self.means.items() if old_name(name)}
        return {**data, **aliases, "per_topic": per_topic}


def default_measures(depth: int) -> list[str]:
    """What a Task 1 or 2 evaluation reports at cut-off `depth` unless told otherwise: nDCG, the share of judged
    documents and the organisers' judged-only nDCG."""
    return [f"nDCG@{depth}", f"Judged@{depth}", f"condensed-nDCG@{depth}"]


def evaluate(
    run: Iterable[RunLine],
    qrels: Qrels,
    depth: int | None = DEPTH,
    measures: Iterable[str] | None = None,
    average: str = AVERAGE,
) -> RankingScores:
    """Mean and per-topic scores of `measures` (any names `measures.canonical` knows; default_measures(depth)
    without). ValueError for an unknown measure, a depth below 1 or no judged topic."""
    if measures is None:
        if depth is None or depth < 1:
            raise ValueError(f"depth must be at least 1, got {depth}")
        measures = default_measures(depth)
    if not qrels:
        raise ValueError("no judged topics to evaluate against")
    names = list(dict.fromkeys(canonical(name) for name in measures))
    if not names:
        raise ValueError("no measure to compute")
    run = list(run)
    scores = per_topic_scores(names, run, qrels)
    per_topic = {topic: scores[topic] for topic in topic_order(qrels)}
    run_topics = {line.qid for line in run}
    return RankingScores.of_topics(depth, per_topic, names, average, run_topics)
