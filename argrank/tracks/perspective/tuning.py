"""The settings `argrank perspective-cv` chooses in inner folds: each outer training part's own cross-validation of
whole issues picks the ranker's weights and the explicit scenario's diversity, so no held-out issue takes part in
choosing how it is ranked (cross_validation.py holds the protocol).

- Ranker weights (GRID): each point's inner figure is the mean nDCG@4 over every inner held-out query, per scenario
  (baseline and explicit: the implicit scenario's guess would need a classifier per inner fold, and it re-ranks the
  same first pass as explicit does); the point with the best mean of the two is chosen, ties to the first in
  GRID's order. One setting for all scenarios, as the graph's runs file has one `params`.
- Diversity (DIVERSIFY_GRID), at the chosen weights: the largest weight whose explicit inner nDCG@4 is within
  DIVERSIFY_TOLERANCE of no diversity's. Diversity is wanted (α-nDCG, rKL), but relevance must not pay for it; a
  choice by nDCG alone would always turn it off.

Settings given on the command line are fixed and left out of the grid. What does not depend on a setting is
computed once: a question's BM25 matches (`Matcher`, no judgment read), each training's ranker, and per
translation weight a question's parts; each grid point only adds them up and reads the top four. Inner figures are
the outer ranking's own arithmetic (the ranker's `parts` and `combine`, `diversified_order`), read at four: nDCG@4
with binary gains, as the released evaluator computes it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from argrank.retrieval.top_k import best_first, top_k
from argrank.tracks.perspective.crosslingual import CrossLingualRanker, Matches
from argrank.tracks.perspective.data import QUERY_PROPERTY_TO_CORPUS, Query
from argrank.tracks.perspective.ranking import (
    DEFAULT_DIVERSIFY,
    DIVERSIFY_DEPTH,
    DIVERSITY_VARIABLES,
    diversified_order,
)
from argrank.tracks.perspective.settings import DEFAULTS

GRID = {"translation": (1.0, 1.25, 1.5), "concept_weight": (0.1, 0.25, 0.5), "category_weight": (1.0, 2.0, 4.0)}
DIVERSIFY_GRID = (0.0, 0.1, 0.2, 0.4)
DIVERSIFY_TOLERANCE = 0.002  # nDCG@4 the explicit scenario's inner folds may lose to diversity
TUNED = ("baseline", "explicit")  # the scenarios whose inner figures choose
CUT = 4  # the measure's depth: nDCG@4
POOL = 1000  # the explicit tops are sought among this many of a ranking's best documents first
_DISCOUNTS = 1.0 / np.log2(np.arange(2, CUT + 2))


@dataclass(frozen=True)
class Choice:
    """What one training part chose: the ranker's params (all of them), the explicit diversity, the inner folds
    it was chosen on (fold numbers; fewer than two: nothing to choose, the defaults kept) and, per tuned
    scenario, each inner held-out query's nDCG@4 under the choice."""

    params: dict[str, float]
    diversify: float
    inner_folds: list[int]
    inner: dict[str, dict[str, float]] = field(default_factory=dict)  # scenario → query id → nDCG@4

    @property
    def tuned(self) -> bool:
        return len(self.inner_folds) >= 2

    def inner_mean(self, scenario: str, queries: Sequence[str] | None = None) -> float:
        """The mean inner nDCG@4 of a scenario (over `queries` of it, all where None); NaN where there is none."""
        scores = self.inner.get(scenario, {})
        values = [scores[q] for q in (scores if queries is None else queries) if q in scores]
        return math.fsum(values) / len(values) if values else math.nan

    def to_json(self, grid: Mapping[str, Sequence[float]]) -> dict[str, Any]:
        return {
            "chosen": {name: self.params[name] for name in grid}, "diversify": self.diversify,
            "inner_folds": self.inner_folds, "tuned": self.tuned,
            "inner_mean": {scenario: _json_number(self.inner_mean(scenario)) for scenario in TUNED},
        }  # fmt: skip


@dataclass(frozen=True)
class InnerFold:
    """One inner fold: the held-out queries of both tuned scenarios and the ranker trained without them."""

    baseline: list[Query]
    perspective: list[Query]
    ranker: CrossLingualRanker


class Tuner:
    """Chooses settings on inner folds. `fold` gives a CV fold's (baseline, perspective) queries, `ranker` the
    ranker trained on a set of CV folds, `matches` a question's cached matches, `holders` a property's holders
    (key, value → 1.0 or 0.0 per document position, as PropertyEvidence gives them), `values` the diversity
    variables' codes and `position` an argument id's document position. `fixed` params and a fixed `diversify`
    (None: chosen) are not tuned."""

    def __init__(
        self,
        fold: Callable[[int], tuple[list[Query], list[Query]]],
        ranker: Callable[[frozenset[int]], CrossLingualRanker],
        matches: Callable[[str], Matches],
        holders: Callable[[str, str], np.ndarray],
        values: Mapping[str, np.ndarray],
        position: Callable[[int], int],
        fixed: Mapping[str, float],
        diversify: float | None,
    ):
        self.fold, self.ranker, self.matches, self.holders = fold, ranker, matches, holders
        self.values, self.position = values, position
        self.fixed, self.diversify = dict(fixed), diversify
        self.grid = {name: options for name, options in GRID.items() if name not in fixed}
        self.points = [dict(zip(self.grid, combination)) for combination in itertools.product(*self.grid.values())]
        self._judgments: dict[tuple[str, str], tuple[frozenset[int], float]] = {}
        self._holder_positions: dict[tuple[str, str], np.ndarray] = {}
        self._holder_columns: dict[tuple[str, str], int] = {}  # a property's column of _holders_by_document
        self._holders_by_document = np.zeros((0, 0), dtype=bool)

    def defaults(self) -> dict[str, float]:
        return {**DEFAULTS, **self.fixed}

    def choose(self, inner_folds: Sequence[int]) -> Choice:
        """The setting chosen by cross-validation over `inner_folds` (each scored with what the others teach);
        with fewer than two, the defaults, unscored."""
        inner_folds = sorted(inner_folds)
        default_diversify = DEFAULT_DIVERSIFY if self.diversify is None else self.diversify
        if len(inner_folds) < 2:
            return Choice(self.defaults(), default_diversify, inner_folds)
        folds = []
        for held in inner_folds:
            baseline, perspective = self.fold(held)
            ranker = self.ranker(frozenset(inner_folds) - {held})
            folds.append(InnerFold(baseline, perspective, ranker))
        scores = [self._grid_scores(inner) for inner in folds]  # per fold: point → scenario → query id → score
        figures = [_pooled(scores, number) for number in range(len(self.points))]
        criterion = [_mean(f for f in figure.values() if not math.isnan(f)) for figure in figures]
        best = int(np.argmax([-math.inf if math.isnan(c) else c for c in criterion]))  # ties: the first in GRID
        params = {**self.defaults(), **self.points[best]}
        inner = {scenario: {q: s for fold in scores for q, s in fold[best][scenario].items()} for scenario in TUNED}
        diversify = self.diversify
        if diversify is None or diversify > 0:
            by_weight = self._diversified(folds, params, DIVERSIFY_GRID if diversify is None else (diversify,))
            if diversify is None:
                plain = _mean(inner["explicit"].values())
                figures = {weight: _mean(by_weight[weight].values()) for weight in DIVERSIFY_GRID}
                diversify = max(w for w in DIVERSIFY_GRID if w == 0 or figures[w] >= plain - DIVERSIFY_TOLERANCE)
            if diversify > 0:
                inner["explicit"] = by_weight[diversify]
        return Choice(params, diversify, inner_folds, inner)

    def _grid_scores(self, inner: InnerFold) -> list[dict[str, dict[str, float]]]:
        """Per grid point, per tuned scenario, each of the fold's held-out queries' nDCG@4 (explicit undiversified)."""
        result = [{scenario: {} for scenario in TUNED} for _ in self.points]
        ranker = inner.ranker
        settings = [{**self.defaults(), **point} for point in self.points]
        translations = sorted({params["translation"] for params in settings})
        for text, (baseline, perspective) in _by_text(inner.baseline, inner.perspective).items():
            matches = self.matches(text)
            issue = ranker.questions.get(text)
            for translation in translations:
                parts = ranker.parts(matches, issue, translation)
                for number, params in enumerate(settings):
                    if params["translation"] != translation:
                        continue
                    scores = ranker.combine(parts, (params["concept_weight"], params["category_weight"]))
                    best, _ = top_k(np.arange(len(scores)), scores, CUT)
                    for query in baseline:
                        result[number]["baseline"][query.query_id] = self._ndcg(best, query)
                    for query, top in zip(perspective, self._explicit_tops(scores, perspective, CUT)):
                        result[number]["explicit"][query.query_id] = self._ndcg(top, query)
        return result

    def _diversified(self, folds: list[InnerFold], params: Mapping[str, float],
                     weights: Sequence[float]) -> dict[float, dict[str, float]]:  # fmt: skip
        """Per diversity weight, each explicit inner held-out query's nDCG@4 at the ranker's `params`: the
        explicit ranking's best DIVERSIFY_DEPTH re-ordered as `diversify` does, queries of one question at once."""
        result: dict[float, dict[str, float]] = {weight: {} for weight in weights}
        codes = np.stack([self.values[name] for name in DIVERSITY_VARIABLES])
        for inner in folds:
            ranker = inner.ranker
            for text, (_, perspective) in _by_text([], inner.perspective).items():
                parts = ranker.parts(self.matches(text), ranker.questions.get(text), params["translation"])
                scores = ranker.combine(parts, (params["concept_weight"], params["category_weight"]))
                spread = _spread(scores)
                tops = self._explicit_tops(scores, perspective, DIVERSIFY_DEPTH)
                for width in sorted({len(top) for top in tops}):  # one width but on a corpus of fewer arguments
                    rows = [i for i, top in enumerate(tops) if len(top) == width]
                    top = np.stack([tops[i] for i in rows])
                    lift = np.stack([self._holders(perspective[i])[tops[i]] for i in rows])
                    adjusted = scores[top] + spread * lift
                    active = np.array([[name != _own_column(perspective[i]) for name in DIVERSITY_VARIABLES]
                                       for i in rows])  # fmt: skip
                    for weight in weights:
                        picked = top[:, :CUT]
                        if weight > 0:
                            order = diversified_order(adjusted, codes[:, top].transpose(1, 0, 2), active, weight, CUT)
                            picked = np.take_along_axis(top, order, axis=1)
                        for i, row in zip(rows, picked):
                            result[weight][perspective[i].query_id] = self._ndcg(row, perspective[i])
        return result

    def _holders(self, query: Query) -> np.ndarray:
        """The query's property's holders as PropertyEvidence gives them (1.0 or 0.0 per document)."""
        return self.holders(*next(iter(query.demographic_property.items())))

    def _explicit_tops(self, scores: np.ndarray, queries: Sequence[Query], depth: int) -> list:
        """Per query, the explicit ranking's best `depth`: its property's holders lifted by the scores' spread, as
        PropertyEvidence.adjust does, then the best by lifted score, ties by document. Where the `depth`-th best
        holder's lifted score is above every score before lifting (always, but for scores so large that adding the
        spread rounds away), those are the holders' best alone: read off the POOL best documents for every property
        at once (_pooled_tops), or else selected among the property's holders; otherwise the whole list is ranked."""
        spread = _spread(scores)
        highest = scores.max(initial=0.0)
        keys = list(dict.fromkeys(next(iter(query.demographic_property.items())) for query in queries))
        found = self._pooled_tops(scores, keys, depth, spread, highest)
        for key in keys:
            if key not in found:
                held = self._held(key)
                top, lifted = top_k(held, scores[held] + spread, depth)
                if len(top) < depth or lifted[-1] <= highest:
                    top, _ = top_k(np.arange(len(scores)), scores + spread * self.holders(*key), depth)
                found[key] = top
        return [found[next(iter(query.demographic_property.items()))] for query in queries]

    def _pooled_tops(self, scores: np.ndarray, keys: list[tuple[str, str]], depth: int, spread: float,
                     highest: float) -> dict[tuple[str, str], np.ndarray]:  # fmt: skip
        """The explicit tops of the properties whose `depth` best holders are among the POOL best documents: those
        documents ordered by lifted score (ties by document), each property's first `depth` holders among them. A
        property's top counts where its last is above every score before lifting and above what a document outside
        the pool can reach when lifted (rounding may tie it there: then the caller selects among the holders)."""
        if not keys:
            return {}
        pool, best = top_k(np.arange(len(scores)), scores, POOL)
        reach = best[-1] + spread if len(pool) < len(scores) else -math.inf
        order = best_first(pool, best + spread)  # adding the spread may round scores level: ties by document again
        pool, lifted = pool[order], (best + spread)[order]
        columns = [self._holder_column(key) for key in keys]  # first: it may widen the matrix
        held = self._holders_by_document.take(pool, axis=0)[:, columns]
        key_at, pool_at = np.nonzero(held.T)  # by property, then by place in the pool
        starts, counts = np.searchsorted(key_at, np.arange(len(keys))), np.bincount(key_at, minlength=len(keys))
        found = {}
        for number, key in enumerate(keys):
            at = pool_at[starts[number] : starts[number] + depth]
            if counts[number] >= depth and lifted[at[-1]] > max(highest, reach):
                found[key] = pool[at]
        return found

    def _holder_column(self, key: tuple[str, str]) -> int:
        """The property's column of the matrix of holders (a row per document, a column per property), added once:
        the pool's rows of it are then read for all properties in one gather."""
        if key not in self._holder_columns:
            column = (self.holders(*key) > 0)[:, np.newaxis]
            matrix = self._holders_by_document
            self._holders_by_document = column if matrix.size == 0 else np.concatenate([matrix, column], axis=1)
            self._holder_columns[key] = len(self._holder_columns)
        return self._holder_columns[key]

    def _held(self, key: tuple[str, str]) -> np.ndarray:
        """The document positions of a property's holders, ascending, found once."""
        if key not in self._holder_positions:
            self._holder_positions[key] = np.flatnonzero(self.holders(*key) > 0)
        return self._holder_positions[key]

    def _ndcg(self, top: np.ndarray, query: Query) -> float:
        """nDCG@4 of the top with binary gains, the ideal list the query's distinct relevant arguments."""
        relevant, ideal = self._judgment(query)
        if ideal <= 0:
            return 0.0
        return math.fsum(_DISCOUNTS[rank] for rank, doc in enumerate(top[:CUT].tolist()) if doc in relevant) / ideal

    def _judgment(self, query: Query) -> tuple[frozenset[int], float]:
        """The query's relevant arguments (document positions) and its ideal DCG@4, read once per query."""
        key = ("perspective" if query.demographic_property else "baseline", query.query_id)
        if key not in self._judgments:
            ids = set(query.relevant_candidates)
            self._judgments[key] = (frozenset(map(self.position, ids)), float(_DISCOUNTS[: min(CUT, len(ids))].sum()))
        return self._judgments[key]


def _spread(scores: np.ndarray) -> float:
    """What PropertyEvidence.adjust lifts a holder by."""
    return scores.max(initial=0.0) - scores.min(initial=0.0) + 1.0


def _own_column(query: Query) -> str | None:
    """The corpus column of a query's property, which diversity leaves out."""
    return QUERY_PROPERTY_TO_CORPUS[next(iter(query.demographic_property))] if query.demographic_property else None


def _by_text(baseline: Sequence[Query], perspective: Sequence[Query]) -> dict[str, tuple[list[Query], list[Query]]]:
    """Queries grouped by question text, texts in first-seen order."""
    grouped: dict[str, tuple[list[Query], list[Query]]] = {}
    for query in baseline:
        grouped.setdefault(query.text, ([], []))[0].append(query)
    for query in perspective:
        grouped.setdefault(query.text, ([], []))[1].append(query)
    return grouped


def _pooled(scores: list[list[dict[str, dict[str, float]]]], number: int) -> dict[str, float]:
    """A grid point's mean per tuned scenario over every inner fold's held-out queries."""
    return {scenario: _mean(v for fold in scores for v in fold[number][scenario].values()) for scenario in TUNED}


def _mean(values) -> float:
    values = list(values)
    return math.fsum(values) / len(values) if values else math.nan


def _json_number(value: float) -> float | None:
    return None if math.isnan(value) else value
