"""Fusion of runs: several rankings of the same topics combined into one, each run's scores normalised per topic
first. The normalisations and methods are those of ranx's `fuse` (Bassani 2022), and give its scores wherever no
run ties two scores and no weight is 0 (ranx then orders the tied documents its own way); our order breaks ties by
document id.

Normalisations (per run and topic, n documents, best first at position i = 0, 1, …): `min-max` (s − min) / (max −
min); `max` s / max; `sum` (s − min) / (Σ s − n·min); `zmuv` (s − mean) / standard deviation; `rank` 1 − i/n;
`borda` 1 − i/c over the c documents any run holds for the topic, a document the run lacks 0.5 − (n − 1)/(2c) (so
every run then holds every candidate); `none`. Every denominator is at least 1e-9. `rank` and `borda` give the
documents of one score the position of the first of them: a tie stays a tie, so that a normalisation never
changes a run's order (every other one is increasing), and a run weighted alone ranks as the run itself.

Methods, over the documents some run holds: `combsum` Σ s (0 where missing); `combmnz` Σ s × the number of runs
holding it; `combanz` their mean; `combmax`, `combmin`, `combmed` the maximum, minimum, median of the runs
holding it; `wsum` Σ wᵢ·sᵢ; `wmnz` Σ s × Σ w of the runs holding it (`weights`, one per run, default 1; a run
of weight 0 takes no part, so a document only such runs hold is left out, where ranx keeps it at 0);
`rrf` Σ 1/(k + rank) (`k`, default 60); `isr` combmnz of 1/rank²; `bordafuse` combsum of c − i points, (c − n +
1)/2 to a document the run lacks; `condorcet` the candidates ordered by pairwise majority (a run ranks a document
it lacks below all it holds), scored c − position; where majorities form a cycle the order depends on where the
sort starts (here, document id). The last four (RANK_BASED) read positions only, which every normalisation but
`borda` keeps (`borda` adds each run's missing candidates after its own): `applied_norm` says which one a method
reads.

Stance (Touché Task 2, where column 2 of a run is a stance label on every line or `Q0` on every line): each fused
passage takes the label the members holding it give it, each member's vote weighted by its fusion weight (1 where
the method has none); the label of most weight wins, a tie going to the label of the member that ranks the passage
highest, then to the label first in alphabetical order, so the order the runs are given in never matters. Members
whose column 2 is `Q0` and members of weight 0 do not vote; a passage no voting member holds gets NO (NO_STANCE).
A fusion of members without stance keeps `Q0`.

Every sum over the runs is exactly rounded (math.fsum), so the fused scores, too, are the same in any order of the
runs.

Any finite scores fuse into finite ones: a run with a score beyond ±2**SCALE_FREE is divided by a power of two
before `min-max`, `max`, `sum` and `zmuv` (which such a factor leaves as they are, the 1e-9 floor aside), and before
`none` all runs of a topic with a score beyond ±2**SUMMED are divided by one power of two (every method scales with
the scores, so that topic's fused scores come out divided by it, in the same order); no sum, difference or square
then overflows, given weights of magnitude at most MAX_WEIGHT and k at most MAX_K.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from statistics import median
from typing import Any

import numpy as np

from argrank.core.records import INVISIBLE
from argrank.formats.runfile import Q0, RunLine

Ranked = dict[str, list[tuple[str, float]]]  # topic → (document, score), best first
Stances = Mapping[tuple[str, str], str]  # (topic, document) → stance label, of one run
NORMS = ("min-max", "max", "sum", "zmuv", "rank", "borda", "none")
RANK_BASED = ("rrf", "isr", "bordafuse", "condorcet")
FLOOR = 1e-9
MISSING = 1_000_000  # condorcet: the position of a document a run lacks
NO_STANCE = "NO"  # Task 2's label of a passage that takes no stance: a fused passage no voting member holds
TIED_VOTES = 9  # decimals of a label's summed vote weight compared (0.1 + 0.2 ties 0.3)
MAX_DEPTH = 100_000  # documents per topic a fused run may keep: a hundred times a Touché run's 1,000
MAX_WEIGHT = 1e6  # a weight's largest magnitude (only the weights' ratios change the order)
MAX_K = 1e6  # rrf's largest k: 1/(k + rank) still tells 100,000 ranks apart
# Scores beyond ±2**SCALE_FREE (±2**SUMMED for `none`) are divided by a power of two first (module docstring): the
# squares of the one stay finite, and so do sums of 2**64 of the other (weights included).
SCALE_FREE = 256
SUMMED = 959
TAG_LENGTH = 100  # a fused run's tag, written on every line, is at most this long


def ranked(lines: Iterable[RunLine]) -> Ranked:
    """A run's lines as each topic's documents by score, best first, ties by document id."""
    topics: dict[str, list[tuple[str, float]]] = {}
    for line in lines:
        topics.setdefault(line.qid, []).append((line.doc, float(line.score)))
    return {topic: sorted(docs, key=lambda pair: (-pair[1], pair[0])) for topic, docs in topics.items()}


def fuse(runs: Sequence[Ranked], method: str = "combsum", norm: str = "min-max", params: Mapping[str, Any] | None = None,
         depth: int = 1000) -> Ranked:  # fmt: skip
    """The runs fused by `method` after `norm`, each topic's best `depth` (ties by document id); ValueError for an
    unknown method, normalisation or parameter, or a depth below 1."""
    if depth < 1:
        raise ValueError(f"a fused run keeps at least 1 document per topic, not {depth}")
    combine = _method(method, method_params(method, params, len(runs)))
    normalise = _norm(norm)
    topics = list(dict.fromkeys(topic for run in runs for topic in run))
    fused = {}
    for topic in topics:
        scores = combine(normalise([run.get(topic, []) for run in runs]))
        fused[topic] = sorted(scores.items(), key=lambda pair: (-pair[1], pair[0]))[:depth]
    return fused


def method_params(method: str, params: Mapping[str, Any] | None, runs: int) -> dict[str, Any]:
    """The parameters `method` fuses `runs` runs with: the given ones checked, the defaults filled in (rrf's k 60,
    wsum's and wmnz's weights 1 each), {} for a method without any; ValueError for an unknown method or parameter."""
    params = params or {}
    if method not in METHODS:
        raise ValueError(f"unknown fusion method {method!r} (known: {', '.join(METHODS)})")
    allowed = {"rrf": {"k"}, "wsum": {"weights"}, "wmnz": {"weights"}}.get(method, set())
    unknown = sorted(set(params) - allowed)
    if unknown:
        raise ValueError(f"{method} takes no parameter {', '.join(unknown)} (it takes: {', '.join(allowed) or 'none'})")
    if method in ("wsum", "wmnz"):
        given = params.get("weights", [1.0] * runs)
        if isinstance(given, (str, bytes)) or not isinstance(given, Iterable):
            raise ValueError(f"{method}'s weights are a list of numbers, one per run, not {given!r}")
        weights = [float(w) for w in given]
        if len(weights) != runs:
            raise ValueError(f"{method} needs one weight per run: {len(weights)} weights for {runs} runs")
        if not all(abs(w) <= MAX_WEIGHT for w in weights):  # nan and infinity fail too
            raise ValueError(f"{method}'s weights must be numbers from -{MAX_WEIGHT:,.0f} to {MAX_WEIGHT:,.0f}, "
                             f"got {', '.join(f'{w:g}' for w in weights)}")  # fmt: skip
        if not any(weights):
            raise ValueError(f"{method}'s weights are all 0: no run takes part")
        return {"weights": weights}
    if method == "rrf":
        k = float(params.get("k", 60))
        if not 0 <= k <= MAX_K:
            raise ValueError(f"rrf's k must be a number from 0 to {MAX_K:,.0f}, got {params.get('k')!r}")
        return {"k": k}
    return {}


def applied_norm(method: str, norm: str) -> str | None:
    """The normalisation whose result `method` reads: `norm`, except for the rank-based methods, which read
    positions only and so `borda` alone (None after any other); ValueError for an unknown normalisation."""
    _norm(norm)
    return None if method in RANK_BASED and norm != "borda" else norm


def normalised(lists: list[list[tuple[str, float]]], norm: str) -> list[list[tuple[str, float]]]:
    """One topic's lists of the runs (best first), each normalised by `norm`, in the same order."""
    return _norm(norm)(lists)


def stated_stances(lines: Iterable[RunLine]) -> dict[tuple[str, str], str] | None:
    """A member run's stance per (topic, document): its column 2 where that is not `Q0` (a Task 2 run's label);
    None for a run with `Q0` throughout. ValueError naming the first line where a run mixes `Q0` with stances: a run
    states a stance on every line or on none, as formats.validation has it."""
    stances: dict[tuple[str, str], str] = {}
    first = None
    for line in lines:
        first = first or line
        if (line.q0 == Q0) != (first.q0 == Q0):
            raise ValueError(f"topic {line.qid}, document {line.doc}: column 2 is {line.q0!r} but {first.q0!r} on "
                             f"the run's first line; a run states a stance on every line or {Q0} on every line")
        if line.q0 != Q0:
            stances[line.qid, line.doc] = line.q0
    return stances if first is not None and first.q0 != Q0 else None


def voting(members: Sequence[Stances | None], weights: Sequence[float]) -> list[int]:
    """The members that vote on stance (module docstring): those stating one, of weight above 0."""
    return [index for index, (stance, weight) in enumerate(zip(members, weights)) if stance is not None and weight > 0]


def carried_stances(
    fused: Ranked, members: Sequence[Stances | None], runs: Sequence[Ranked], weights: Sequence[float] | None = None
) -> tuple[dict[tuple[str, str], str], int]:
    """Each fused passage's stance, voted by the members (`members`: each run's stance, None for a run without;
    `runs`: their rankings, for the position that breaks a tie; `weights`: their fusion weights, 1 each where None;
    module docstring), and how many passages no voting member holds (they get NO_STANCE)."""
    weights = [1.0] * len(members) if weights is None else weights
    voters = [(members[index], _positions(runs[index]), weights[index]) for index in voting(members, weights)]
    carried, unvoted = {}, 0
    for topic, docs in fused.items():
        for doc, _ in docs:
            votes: dict[str, list[float]] = {}  # label → [its voters' weights, the best position one gives it]
            for stance, positions, weight in voters:
                label = stance.get((topic, doc))
                if label is not None:
                    vote = votes.setdefault(label, [[], positions[topic, doc]])
                    vote[0].append(weight)
                    vote[1] = min(vote[1], positions[topic, doc])
            if votes:
                carried[topic, doc] = min(votes, key=lambda label: (-round(math.fsum(votes[label][0]), TIED_VOTES),
                                                                    votes[label][1], label))  # fmt: skip
            else:
                carried[topic, doc] = NO_STANCE
                unvoted += 1
    return carried, unvoted


def _positions(run: Ranked) -> dict[tuple[str, str], int]:
    """(topic, document) → its position in the run, best first."""
    return {(topic, doc): position for topic, docs in run.items() for position, (doc, _) in enumerate(docs)}


def tag_problem(tag: str) -> str | None:
    """Why `tag` cannot be a fused run's tag (one field of visible text, as a run line's reader and writer need it,
    at most TAG_LENGTH characters), or None where it can."""
    if not tag or tag.split() != [tag] or re.search(INVISIBLE, tag):
        return "a run's tag is one field of visible text: no white space, no control or invisible character"
    if len(tag) > TAG_LENGTH:
        return f"a run's tag is at most {TAG_LENGTH} characters, not {len(tag):,}"
    return None


def fused_lines(fused: Ranked, tag: str, stances: Stances | None = None) -> list[RunLine]:
    """A fused run as run lines of `tag`, ranks from 1; column 2 each passage's stance where `stances` is given
    (carried_stances), else Q0."""
    return [RunLine(topic, stances[topic, doc] if stances else Q0, doc, rank, score, tag)
            for topic, docs in fused.items() for rank, (doc, score) in enumerate(docs, start=1)]  # fmt: skip


# ------------------------------------------------------------------------------------------------- normalisations

Lists = list[list[tuple[str, float]]]


def _norm(name: str) -> Callable[[Lists], Lists]:
    if name not in NORMS:
        raise ValueError(f"unknown normalisation {name!r} (known: {', '.join(NORMS)})")
    if name == "borda":
        return _borda_norm
    if name == "none":
        return functools.partial(_in_range, exponent=SUMMED)
    if name == "rank":  # positions only: no score is computed with
        return lambda lists: [_rank(docs) for docs in lists]
    each = {"min-max": _min_max, "max": _max, "sum": _sum, "zmuv": _zmuv}[name]
    return lambda lists: [each(_in_range([docs], SCALE_FREE)[0]) for docs in lists]


def _in_range(lists: Lists, exponent: int) -> Lists:
    """The lists as they are, or, where a score is beyond ±2**exponent, all divided by the least power of two that
    brings it within (a power of two changes no score's digits), so that nothing computed from them overflows."""
    largest = max((abs(score) for docs in lists for _, score in docs), default=0.0)
    if largest <= 2.0**exponent:
        return [list(docs) for docs in lists]
    shift = exponent - math.frexp(largest)[1]
    return [[(doc, math.ldexp(score, shift)) for doc, score in docs] for docs in lists]


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


def _tie_positions(docs: list[tuple[str, float]]) -> list[int]:
    """Each document's position (best first), the documents of one score all at the first of them."""
    positions, first = [], 0
    for position, (_, score) in enumerate(docs):
        if position and score != docs[position - 1][1]:
            first = position
        positions.append(first)
    return positions


def _rank(docs):
    return [(doc, 1 - position / len(docs)) for (doc, _), position in zip(docs, _tie_positions(docs))]


def _candidates(lists: Lists) -> list[str]:
    return sorted({doc for docs in lists for doc, _ in docs})


def _borda_norm(lists: Lists) -> Lists:
    candidates = _candidates(lists)
    count = len(candidates)
    out = []
    for docs in lists:
        held = {doc for doc, _ in docs}
        missing = 0.5 - (len(docs) - 1) / (2 * count) if count else 0.0
        out.append([(doc, 1 - position / count) for (doc, _), position in zip(docs, _tie_positions(docs))]
                   + [(doc, missing) for doc in candidates if doc not in held])  # fmt: skip
    return out


# ------------------------------------------------------------------------------------------------------ methods


def _method(name: str, params: dict[str, Any]) -> Callable[[Lists], dict[str, float]]:
    """The method's combination of one topic's normalised lists, with its checked parameters (method_params)."""
    return functools.partial(METHODS[name], **params) if params else METHODS[name]


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
    return {doc: math.fsum(_held(scores)) for doc, scores in _by_doc(lists).items()}


def _combmnz(lists: Lists) -> dict[str, float]:
    return {doc: math.fsum(_held(scores)) * len(_held(scores)) for doc, scores in _by_doc(lists).items()}


def _combanz(lists: Lists) -> dict[str, float]:
    return {doc: math.fsum(_held(scores)) / len(_held(scores)) for doc, scores in _by_doc(lists).items()}


def _combmax(lists: Lists) -> dict[str, float]:
    return {doc: max(_held(scores)) for doc, scores in _by_doc(lists).items()}


def _combmin(lists: Lists) -> dict[str, float]:
    return {doc: min(_held(scores)) for doc, scores in _by_doc(lists).items()}


def _combmed(lists: Lists) -> dict[str, float]:
    return {doc: float(median(_held(scores))) for doc, scores in _by_doc(lists).items()}


def _wsum(lists: Lists, weights: list[float]) -> dict[str, float]:
    """Σ wᵢ·sᵢ over the runs of weight other than 0 (another's 0 would change nothing)."""
    terms: dict[str, list[float]] = {}
    for weight, docs in zip(weights, lists):
        if weight:
            for doc, score in docs:
                terms.setdefault(doc, []).append(weight * score)
    return {doc: math.fsum(products) for doc, products in terms.items()}


def _wmnz(lists: Lists, weights: list[float]) -> dict[str, float]:
    return {doc: math.fsum(_held(scores)) * math.fsum(w for w, s in zip(weights, scores) if s is not None)
            for doc, scores in _by_doc(lists).items()
            if any(w != 0 and s is not None for w, s in zip(weights, scores))}  # fmt: skip


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
