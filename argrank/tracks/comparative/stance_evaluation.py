"""Stance macro-F1 for Touché Task 2, as the organisers compute it, so our figures compare with the leaderboard.

A Task 2 run puts its stance for each passage in column 2. The organisers score it with macro-F1 over the four
labels (a label that neither the run nor the judgments use counts as F1 0), pooled over all (topic, passage)
pairs that are both in the run and in the stance qrels, not averaged per topic. A run with `Q0` in column 2
takes no part: its F1 is None and it scores 0 pairs, so `stance_pairs` is always the number of pairs the F1 is
over, and 0 exactly when there is no F1.
"""

from __future__ import annotations

from collections.abc import Iterable

import argrank.lazylibs as lazylibs
from argrank.evaluation.results import StanceF1
from argrank.evaluation.trec_order import ranked_documents
from argrank.formats.runfile import Q0, RunLine
from argrank.tracks.comparative.stance_labels import LABELS


def evaluate_stance(
    run: Iterable[RunLine], stance_qrels: dict[str, dict[str, str]], depth: int | None = None
) -> StanceF1:
    """Macro-F1 (None without stance), the pairs it is over and F1 per label of the run's stance labels.

    With `depth`, only each topic's top `depth` documents count, in evaluation's score order. Raises ValueError
    naming the first (topic, doc) when column 2 mixes `Q0` with labels or holds anything else.
    """
    pairs = stance_pairs(run, stance_qrels, depth)
    if not pairs:
        return StanceF1(None, 0, dict.fromkeys(LABELS))
    # Imported here: scikit-learn takes about a second to import, and most runs of the graph score no stance.
    metrics = lazylibs.sklearn("metrics")

    truth, predicted = zip(*pairs)
    per_label = metrics.f1_score(truth, predicted, labels=LABELS, average=None, zero_division=0)
    macro = metrics.f1_score(truth, predicted, labels=LABELS, average="macro", zero_division=0)
    return StanceF1(float(macro), len(pairs), {label: float(f1) for label, f1 in zip(LABELS, per_label)})


def stance_pairs(
    run: Iterable[RunLine], stance_qrels: dict[str, dict[str, str]], depth: int | None = None
) -> list[tuple[str, str]]:
    """(judged, predicted) label of every (topic, document) both the run and the stance qrels have; see
    evaluate_stance for `depth` and the ValueError."""
    if depth is not None and depth < 1:
        raise ValueError(f"depth must be at least 1, got {depth}")
    run = list(run)
    stance = _stances(run)
    counted = {(topic, doc) for topic, scored in ranked_documents(run).items() for _, doc in scored[:depth]}
    return [
        (label, stance[topic, doc])
        for topic, judged in stance_qrels.items()
        for doc, label in judged.items()
        if (topic, doc) in stance and (topic, doc) in counted
    ]


def confusion(pairs: list[tuple[str, str]]) -> dict[str, dict[str, int]]:
    """judged label → predicted label → pairs, over the four labels: where a run's stance errors lie."""
    matrix = {judged: dict.fromkeys(LABELS, 0) for judged in LABELS}
    for judged, predicted in pairs:
        matrix[judged][predicted] += 1
    return matrix


def format_stance(name: str, result: StanceF1) -> str:
    """The stance scores for the console: macro-F1 and pairs on one line, per-label F1 on the next."""
    if result.macro is None:
        return f"stance  {name}: no pairs to score (column 2 is {Q0}, or no document is stance-judged)"
    per_label = "  ".join(f"{label} {f1:.4f}" for label, f1 in result.per_label.items())
    return f"stance  {name}: macro-F1 {result.macro:.4f} over {result.pairs} pairs\n        {per_label}"


def _stances(run: list[RunLine]) -> dict[tuple[str, str], str]:
    """(topic, doc) → stance label; empty for a run with `Q0` throughout; ValueError for any other mix."""
    if not run or run[0].q0 == Q0:
        allowed, expected = {Q0}, f"{Q0}, as on the run's first line"
    else:
        allowed, expected = set(LABELS), f"a stance label ({', '.join(LABELS)}), as on the run's first line"
    for line in run:
        if line.q0 not in allowed:
            raise ValueError(f"topic {line.qid}, document {line.doc}: column 2 is {line.q0!r}, expected {expected}")
    return {} if Q0 in allowed else {(line.qid, line.doc): line.q0 for line in run}
