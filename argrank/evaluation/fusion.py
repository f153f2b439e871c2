"""Fusion of runs: several rankings of the same topics combined into one, each run's scores normalised per topic
first. The normalisations and methods are those of ranx's `fuse` (Bassani 2022), and give its scores wherever no
run ties two scores (ranx then orders the tied documents its own way); our order breaks ties by document id.

Normalisations (per run and topic, n documents, best first at position i = 0, 1, …): `min-max` (s − min) / (max −
min); `max` s / max; `sum` (s − min) / (Σ s − n·min); `zmuv` (s − mean) / standard deviation; `rank` 1 − i/n;
`borda` 1 − i/c over the c documents any run holds for the topic, a document the run lacks 0.5 − (n − 1)/(2c) (so
every run then holds every candidate); `none`. Every denominator is at least 1e-9.

Methods, over the documents some run holds: `combsum` Σ s (0 where missing); `combmnz` Σ s × the number of runs
holding it; `combanz` their mean; `combmax`, `combmin`, `combmed` the maximum, minimum, median of the runs
holding it; `wsum` Σ wᵢ·sᵢ; `wmnz` Σ s × Σ w of the runs holding it (`weights`, one per run, default 1);
`rrf` Σ 1/(k + rank) (`k`, default 60); `isr` combmnz of 1/rank²; `bordafuse` combsum of c − i points, (c − n +
1)/2 to a document the run lacks; `condorcet` the candidates ordered by pairwise majority (a run ranks a document
it lacks below all it holds), scored c − position; where majorities form a cycle the order depends on where the
sort starts (here, document id).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from statistics import median
from typing import Any

import numpy as np

from argrank.formats.runfile import Q0, RunLine

Ranked = dict[str, list[tuple[str, float]]]  # topic → (document, score), best first
NORMS = ("min-max", "max", "sum", "zmuv", "rank", "borda", "none")
FLOOR = 1e-9
MISSING = 1_000_000  # condorcet: the position of a document a run lacks


def ranked(lines: Iterable[RunLine]) -> Ranked:
    """A run's lines as each topic's documents by score, best first, ties by document id."""
    topics: dict[str, list[tuple[str, float]]] = {}
    for line in lines:
        topics.setdefault(line.qid, []).append((line.doc, float(line.score)))
    return {topic: sorted(docs, key=lambda pair: (-pair[1], pair[0])) for topic, docs in topics.items()}


def fuse(runs: Sequence[Ranked], method: str = "combsum", norm: str = "min-max", params: Mapping[str, Any] | None = None,
         depth: int = 1000) -> Ranked:  # fmt: skip
    """The runs fused by `method` after `norm`, each topic's best `depth` (ties by document id); ValueError for an
    unknown method, normalisation or parameter."""
    combine = _method(method, params or {}, len(runs))
    normalise = _norm(norm)
    topics = list(dict.fromkeys(topic for run in runs for topic in run))
    fused = {}
    for topic in topics:
        scores = combine(normalise([run.get(topic, []) for run in runs]))
        fused[topic] = sorted(scores.items(), key=lambda pair: (-pair[1], pair[0]))[:depth]
    return fused


def normalised(lists: list[list[tuple[str, float]]], norm: str) -> list[list[tuple[str, float]]]:
    """One topic's lists of the runs (best first), each normalised by `norm`, in the same order."""
    return _norm(norm)(lists)


def fused_lines(fused: Ranked, tag: str) -> list[RunLine]:
    """A fused run as run lines of `tag`, ranks from 1."""
    return [RunLine(topic, Q0, doc, rank, score, tag) for topic, docs in fused.items()
            for rank, (doc, score) in enumerate(docs, start=1)]  # fmt: skip


# ------------------------------------------------------------------------------------------------- normalisations

Lists = list[list[tuple[str, float]]]


def _norm(name: str) -> Callable[[Lists], Lists]:
    if name not in NORMS:
        raise ValueError(f"unknown normalisation {name!r} (known: {', '.join(NORMS)})")
    if name == "borda":
        return _borda_norm
    each = {"min-max": _min_max, "max": _max, "sum": _sum, "zmuv": _zmuv, "rank": _rank, "none": list}[name]
    return lambda lists: [each(docs) for docs in lists]


def _scaled(docs: list[tuple[str, float]], shift: float, denominator: float) -> list[tuple[str, float]]:
    denominator = max(denominator, FLOOR)
    return [(doc, (score - shift) / denominator) for doc, score in docs]


def _min_max(docs):
    scores = [score for _, score in docs]
    return _scaled(docs, min(scores), max(scores) - min(scores)) if docs else []


def _max(docs):
    return _scaled(docs, 0.0, max(score for _, score in docs)) if docs else []


def _sum(docs):
    scores = [score for _, score in docs]
    return _scaled(docs, min(scores), sum(scores) - min(scores) * len(scores)) if docs else []


def _zmuv(docs):
    scores = np.array([score for _, score in docs])
    return _scaled(docs, float(np.mean(scores)), float(np.std(scores))) if docs else []


def _rank(docs):
    return [(doc, 1 - position / len(docs)) for position, (doc, _) in enumerate(docs)]


def _candidates(lists: Lists) -> list[str]:
    return sorted({doc for docs in lists for doc, _ in docs})


def _borda_norm(lists: Lists) -> Lists:
    candidates = _candidates(lists)
    count = len(candidates)
    out = []
    for docs in lists:
        held = {doc for doc, _ in docs}
        missing = 0.5 - (len(docs) - 1) / (2 * count) if count else 0.0
        out.append([(doc, 1 - position / count) for position, (doc, _) in enumerate(docs)]
                   + [(doc, missing) for doc in candidates if doc not in held])  # fmt: skip
    return out


# ------------------------------------------------------------------------------------------------------ methods


def _method(name: str, params: Mapping[str, Any], runs: int) -> Callable[[Lists], dict[str, float]]:
    """The method's combination of one topic's normalised lists, its parameters checked."""
    allowed = {"rrf": {"k"}, "wsum": {"weights"}, "wmnz": {"weights"}}.get(name, set())
    if name not in METHODS:
        raise ValueError(f"unknown fusion method {name!r} (known: {', '.join(METHODS)})")
    unknown = sorted(set(params) - allowed)
    if unknown:
        raise ValueError(f"{name} takes no parameter {', '.join(unknown)} (it takes: {', '.join(allowed) or 'none'})")
    if name in ("wsum", "wmnz"):
        weights = [float(w) for w in params.get("weights", [1.0] * runs)]
        if len(weights) != runs:
            raise ValueError(f"{name} needs one weight per run: {len(weights)} weights for {runs} runs")
        return functools.partial(METHODS[name], weights=weights)
    if name == "rrf":
        k = float(params.get("k", 60))
        if not k >= 0:
            raise ValueError(f"rrf's k must be a number of at least 0, got {params.get('k')!r}")
        return functools.partial(_rrf, k=k)
    return METHODS[name]


def _by_doc(lists: Lists) -> dict[str, list[float | None]]:
    """Each document some list holds: its score in each list, in list order (None where a list lacks it)."""
    table: dict[str, list[float | None]] = {}
    for position, docs in enumerate(lists):
        for doc, score in docs:
            table.setdefault(doc, [None] * len(lists))[position] = score
    return table


def _held(scores: list[float | None]) -> list[float]:
    return [score for score in scores if score is not None]


def _combsum(lists: Lists) -> dict[str, float]:
    return {doc: sum(0.0 if s is None else s for s in scores) for doc, scores in _by_doc(lists).items()}


def _combmnz(lists: Lists) -> dict[str, float]:
    return {doc: sum(_held(scores)) * len(_held(scores)) for doc, scores in _by_doc(lists).items()}


def _combanz(lists: Lists) -> dict[str, float]:
    return {doc: sum(_held(scores)) / len(_held(scores)) for doc, scores in _by_doc(lists).items()}


def _combmax(lists: Lists) -> dict[str, float]:
    return {doc: max(_held(scores)) for doc, scores in _by_doc(lists).items()}


def _combmin(lists: Lists) -> dict[str, float]:
    return {doc: min(_held(scores)) for doc, scores in _by_doc(lists).items()}


def _combmed(lists: Lists) -> dict[str, float]:
    return {doc: float(median(_held(scores))) for doc, scores in _by_doc(lists).items()}


def _wsum(lists: Lists, weights: list[float]) -> dict[str, float]:
    return {doc: sum(w * (0.0 if s is None else s) for w, s in zip(weights, scores))
            for doc, scores in _by_doc(lists).items()}  # fmt: skip


def _wmnz(lists: Lists, weights: list[float]) -> dict[str, float]:
    return {doc: sum(_held(scores)) * sum(w for w, s in zip(weights, scores) if s is not None)
            for doc, scores in _by_doc(lists).items()}  # fmt: skip


def _rrf(lists: Lists, k: float) -> dict[str, float]:
    return _combsum([[(doc, 1 / (k + position + 1)) for position, (doc, _) in enumerate(docs)] for docs in lists])


def _isr(lists: Lists) -> dict[str, float]:
    return _combmnz([[(doc, 1 / (position + 1) ** 2) for position, (doc, _) in enumerate(docs)] for docs in lists])


def _bordafuse(lists: Lists) -> dict[str, float]:
    candidates = _candidates(lists)
    points = []
    for docs in lists:
        held = {doc for doc, _ in docs}
        unranked = (len(candidates) - len(docs) + 1) / 2
        points.append([(doc, float(len(candidates) - position)) for position, (doc, _) in enumerate(docs)]
                      + [(doc, unranked) for doc in candidates if doc not in held])  # fmt: skip
    return _combsum(points)


def _condorcet(lists: Lists) -> dict[str, float]:
    candidates = _candidates(lists)
    positions = [{doc: position for position, (doc, _) in enumerate(docs)} for docs in lists]

    def before(x: str, y: str) -> int:
        votes = sum(run.get(x, MISSING) < run.get(y, MISSING) for run in positions)
        return -1 if votes >= len(positions) - votes else 1

    order = sorted(candidates, key=functools.cmp_to_key(before))
    return {doc: float(len(order) - position) for position, doc in enumerate(order)}


METHODS: dict[str, Callable[..., dict[str, float]]] = {
    "combsum": _combsum, "combmnz": _combmnz, "combanz": _combanz, "combmax": _combmax, "combmin": _combmin,
    "combmed": _combmed, "rrf": _rrf, "isr": _isr, "bordafuse": _bordafuse, "condorcet": _condorcet,
    "wsum": _wsum, "wmnz": _wmnz,
}  # fmt: skip
