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
from argrank.tracks.track import RunProblem


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


class JudgedStances:
    """What evaluate_stance (without a depth) reads of a run that is read once, for its scores too: shown each line
    (formats.runfile.watched), it checks column 2 as evaluate_stance does and keeps the lines of stance-judged
    documents, so `evaluate_stance(kept.lines, stance_qrels)` scores the whole run holding only those."""

    def __init__(self, stance_qrels: dict[str, dict[str, str]]) -> None:
        self.lines: list[RunLine] = []
        self._judged = stance_qrels
        self._column = _ColumnTwo()

    def __call__(self, line: RunLine) -> None:
        self._column.check(line)
        if line.doc in self._judged.get(line.qid, ()):
            self.lines.append(line)


class _ColumnTwo:
    """Column 2 of a run's lines, checked one by one: `Q0` throughout or stance labels throughout, as the first
    line has it; RunProblem (a ValueError: the run's, not the judgments') for any other mix."""

    def __init__(self) -> None:
        self.allowed: set[str] | None = None
        self._expected = ""

    def check(self, line: RunLine) -> None:
        if self.allowed is None:
            stance = line.q0 != Q0
            self.allowed = set(LABELS) if stance else {Q0}
            self._expected = f"a stance label ({', '.join(LABELS)})" if stance else Q0
        if line.q0 not in self.allowed:
            raise RunProblem(f"topic {line.qid}, document {line.doc}: column 2 is {line.q0!r}, expected "
                             f"{self._expected}, as on the run's first line")  # fmt: skip


def _stances(run: list[RunLine]) -> dict[tuple[str, str], str]:
    """(topic, doc) → stance label; empty for a run with `Q0` throughout; ValueError for any other mix."""
    column = _ColumnTwo()
    for line in run:
        column.check(line)
    return {} if column.allowed in (None, {Q0}) else {(line.qid, line.doc): line.q0 for line in run}
