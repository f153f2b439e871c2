"""A ranking run's scores against one judgments file: the measures asked for, averaged as asked.

By default the measures the Touché organisers report for Tasks 1 and 2 at the cut-off k (5): nDCG@k, Judged@k
and their judged-only nDCG@k (`measures.CONDENSED`), averaged over every judged topic. Any other measure is
named as ir_measures names it (see `measures`).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from argrank.evaluation.measures import (
    Qrels,
    RunDict,
    by_topic,
    canonical,
    judged_and_first,
    old_name,
    per_topic_scores,
    ranks_read,
)
from argrank.evaluation.results import JUDGED_TOPICS, TopicScores
from argrank.formats.runfile import RunLine
from argrank.formats.topics import topic_order

DEPTH = 5  # Touché Tasks 1 and 2 report nDCG@5.
# Means over every judged topic, a topic the run lacks scoring 0: what ir_measures computes and TIRA's evaluator
# (ir_measures.calc_aggregate) reports for Touché, and trec_eval -c.
AVERAGE = JUDGED_TOPICS

log = logging.getLogger(__name__)


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
    without). ValueError for an unknown measure, a depth below 1, no judged topic, or a run that has none of the
    judged topics (its scores would be zeros that say nothing); a warning where its documents are none of the
    judged ones."""
    if measures is None:
        if depth is None or depth < 1:
            raise ValueError(f"depth must be at least 1, got {depth}")
        measures = default_measures(depth)
    if not qrels:
        raise ValueError("no judged topics to evaluate against")
    names = list(dict.fromkeys(canonical(name) for name in measures))
    if not names:
        raise ValueError("no measure to compute")
    # Read once, as it comes (the run may be a file's lines as they are read: formats.runfile.iter_run), keeping only
    # what the measures look at.
    depth_read = ranks_read(names)
    run = by_topic(run) if depth_read is None else judged_and_first(run, qrels, depth_read)
    _check_overlap(run, qrels)
    scores = per_topic_scores(names, run, qrels)
    per_topic = {topic: scores[topic] for topic in topic_order(qrels)}
    return RankingScores.of_topics(depth, per_topic, names, average, set(run))


def _check_overlap(run: RunDict, qrels: Qrels) -> None:
    """Refuse a run that shares no topic with the judgments; warn where the topics it shares judge none of its
    documents (another corpus version's ids, say), with the share found and an id from each side."""
    shared = set(run) & set(qrels)
    if run and not shared:
        raise ValueError(f"the run shares no topic with the judgments (the run's: {_examples(set(run))}; "
                         f"judged: {_examples(set(qrels))}): a run and judgments of different years or tasks?")  # fmt: skip
    judged = sum(len(qrels[topic]) for topic in shared)
    found = any(doc in qrels[topic] for topic in shared for doc in run[topic])
    if shared and judged and not found:
        topic = min(shared, key=str)
        ours = next(iter(run[topic]), None)
        theirs = next(iter(qrels[topic]))
        log.warning("the run's documents are none of the judged ones: 0 of the %d judged documents of the %d "
                    "topics they share are in the run (topic %s: the run has %r, the judgments %r); another "
                    "corpus version's ids?", judged, len(shared), topic, ours, theirs)  # fmt: skip


def _examples(topics: set[str], count: int = 3) -> str:
    shown = sorted(topics, key=lambda t: (len(t), t))[:count]
    return ", ".join(shown) + (f" … ({len(topics)})" if len(topics) > count else "")
