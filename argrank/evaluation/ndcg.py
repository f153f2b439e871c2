"""nDCG@k and judged@k with trec_eval's semantics, as the Touché organisers compute them.

Per topic, the run's documents are ordered by score descending, ties by document id descending (trec_eval's
own rule; the file's ranks are ignored). judged@k is not a trec_eval measure; it follows ir_measures'
Judged, which breaks ties by document id ascending — the organisers' judged@5 figures need that order. Gain is the label, negative labels count as 0, unjudged documents
as non-relevant; DCG@k = Σ gain_i / log2(i + 1); the ideal DCG sorts the topic's judged gains. Means are
over the qrels' topics: a judged topic the run lacks scores 0, run topics without judgments are ignored.

Because pools are shallow, the organisers also report a judged-only variant ("condensed list"): unjudged
documents are dropped before the cut at k.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Iterable

import numpy as np

from argrank.evaluation.results import TopicScores
from argrank.formats.runfile import RunLine
from argrank.formats.topics import topic_order


class NdcgScores(TopicScores):
    """nDCG, judged fraction and judged-only nDCG at the result's depth."""

    @classmethod
    def measure_names(cls, depth: int) -> tuple[str, ...]:
        return f"nDCG@{depth}", f"judged@{depth}", f"nDCG@{depth}_judged_only"


def evaluate(run: Iterable[RunLine], qrels: dict[str, dict[str, float]], depth: int = 5) -> NdcgScores:
    """Mean and per-topic nDCG@depth, judged@depth and judged-only nDCG@depth over the qrels' topics."""
    if depth < 1:
        raise ValueError(f"depth must be at least 1, got {depth}")
    if not qrels:
        raise ValueError("no judged topics to evaluate against")
    ranked = ranked_documents(run)
    discounts = 1.0 / np.log2(np.arange(2, depth + 2))
    names = NdcgScores.measure_names(depth)
    per_topic = {
        topic: dict(zip(names, _topic_scores(ranked.get(topic, []), qrels[topic], discounts)))
        for topic in topic_order(qrels)
    }
    return NdcgScores.of_topics(depth, per_topic)


def ranked_documents(run: Iterable[RunLine]) -> dict[str, list[tuple[float, str]]]:
    """topic → its (score, document) pairs in trec_eval's order: score descending, then document id descending."""
    by_topic: dict[str, list[tuple[float, str]]] = defaultdict(list)
    for line in run:
        by_topic[line.qid].append((float(line.score), line.doc))
    ranked = {}
    for topic, scored in by_topic.items():
        if len({doc for _, doc in scored}) != len(scored):
            raise ValueError(f"topic {topic}: a document appears more than once in the run")
        ranked[topic] = sorted(scored, reverse=True)
    return ranked


def _topic_scores(
    scored: list[tuple[float, str]], judged: dict[str, float], discounts: np.ndarray
) -> tuple[float, float, float]:
    """(nDCG, judged fraction, judged-only nDCG) of one topic's ranked documents at the cut-off len(discounts)."""
    depth = len(discounts)
    ideal = _dcg(sorted(judged.values(), reverse=True)[:depth], discounts)
    docs = [doc for _, doc in scored]
    top = docs[:depth]
    condensed = [doc for doc in docs if doc in judged][:depth]
    ascending_ties = sorted(scored, key=lambda pair: (-pair[0], pair[1]))[:depth]
    judged_fraction = sum(doc in judged for _, doc in ascending_ties) / depth
    if ideal == 0.0:
        return 0.0, judged_fraction, 0.0
    ndcg = _dcg([judged.get(doc, 0.0) for doc in top], discounts) / ideal
    ndcg_judged_only = _dcg([judged[doc] for doc in condensed], discounts) / ideal
    return ndcg, judged_fraction, ndcg_judged_only


def _dcg(labels: list[float], discounts: np.ndarray) -> float:
    """DCG of labels in rank order (at most len(discounts)); negative labels gain nothing."""
    gains = np.maximum(np.asarray(labels, dtype=np.float64), 0.0)
    return float(gains @ discounts[: len(gains)])
