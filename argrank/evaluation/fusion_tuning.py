"""A fusion's weights, parameter or method chosen on judged topics, and the cross-validated figure of that choice:
each fold of topics scored with what the other folds chose, never with a choice made on its own topics.

`wsum` and `wmnz` grow sparse weights greedily: from the run best by itself on the topics the choice is made on
(weight 1, the others 0), each step adds one of STEPS to one run's weight, the step that raises the mean most,
until none raises it or MOST_STEPS are taken. Beside that path lies a second, of one parameter: the best run at 1
and every other run at one common weight (SHARES), up to equal weights, which fits where the runs are alike and
each adds a little, as no few greedy steps do. Which point of either path to keep is the regulariser, and it is
chosen by an inner cross-validation of those same topics (REPEATS shuffles into INNER folds, seeded from the outer
seed: the paths grown on the others, scored on each), so that few weights of few runs are kept where many fit only
the topics they are chosen on. `auto` chooses, by the same inner folds, among the best single run, combsum,
combmnz and rrf (k 60) over the m runs best by themselves (m in SIZES, and all runs) and wsum's two paths at each
point; ties go to that order, the simplest first. `rrf` chooses its k over KS on the topics themselves; other
methods have nothing to choose.

The paths and the inner folds are scored on arrays (the measure as trec_eval computes it: gain the label, 0
below 0; ties in score broken by document id, descending), the runs visited in an order of their contents, not
of their names or places. The choice, refitted on all the topics it is made on, is then compared with the best
single run by the report's own figures (Figures), the single run kept on a tie: the arrays rank in double
precision, trec_eval in single. So a wsum or auto choice scores at least what every run scores by itself on the
topics it is made on, since a run weighted alone ranks as the run does (fusion: normalising keeps its order and
ties, documents only others hold are left out; after borda its missing candidates follow its own), as long as the
measure's k is within the fused depth and normalising neither joins nor parts two of the run's scores as trec_eval
reads them. A run alone is no wmnz weighting (its documents still add the other runs' scores): wmnz keeps its
start's figure, not the best single run's. Every figure reported is the project's evaluation of the fused run.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

from argrank.evaluation.folds import fold_spread
from argrank.evaluation.fusion import Ranked, applied_norm, fuse, fused_lines, normalised
from argrank.evaluation.ranking import evaluate
from argrank.formats.runfile import RunLine

AUTO = "auto"  # the method whose fusion, runs and parameters are chosen (module docstring)
TUNABLE = {"wsum": "weights", "wmnz": "weights", "rrf": "k", AUTO: "the fusion"}
STEPS = (0.1, 0.2, 0.5, 1.0)  # what one greedy step adds to one run's weight (the first run's weight is 1)
MOST_STEPS = 10  # the greedy path's most steps
SHARES = (0.1, 0.2, 0.3, 0.5, 0.7, 1.0)  # the other runs' common weight on the path from the best run to equal ones
INNER = 5  # folds of the inner cross-validation that chooses the point on the paths (auto: the fusion)
REPEATS = 3  # inner cross-validations, each shuffled by its own seed, whose figures are summed: a steadier choice
SIZES = (2, 3, 5, 8, 13)  # auto's m: fusions of the m runs best by themselves (and of all runs)
AUTO_METHODS = ("combsum", "combmnz", "rrf")
AUTO_K = 60  # rrf's k under auto
KS = (1, 5, 10, 20, 30, 40, 60, 80, 100)
MEASURE = re.compile(r"^(nDCG|P)@(\d+)$")
BETTER = 1e-12  # a greedy step must raise the mean by more than this
DECIMALS = 10  # weights are rounded so that 0.1 + 0.2 is shown as 0.3
CELLS = 1 << 22  # rows × candidates scored at once: the memory of one batch


@dataclass
class Prepared:
    """The judged topics' candidates as arrays: one row per (topic, document), topics in segments (`starts`), each
    topic's documents by id, descending (trec_eval's tie order); per run its normalised score (0 where it lacks
    the document), whether it holds it, and its 1-based position there."""

    topics: list[str]
    starts: np.ndarray
    scores: np.ndarray
    held: np.ndarray
    positions: np.ndarray
    gains: np.ndarray
    ideal: np.ndarray  # per topic: the best DCG@k (nDCG) or k (P)
    kind: str
    depth: int  # the measure's cut-off k


def cutoff(measure: str) -> int:
    """The cut-off k of the measure tuning optimises (nDCG@k or P@k, k at least 1); ValueError for another."""
    found = MEASURE.match(measure)
    if not found or int(found.group(2)) < 1:
        raise ValueError(f"fusion tuning optimises nDCG@k or P@k, not {measure!r}")
    return int(found.group(2))


def prepare(runs: Sequence[Ranked], norm: str, qrels: Mapping[str, Mapping[str, float]], measure: str) -> Prepared:
    """The arrays `topic_scores` ranks and scores; ValueError for a measure other than nDCG@k or P@k."""
    kind, depth = measure.split("@")[0], cutoff(measure)
    topics = sorted(qrels, key=topic_key)
    rows_scores, rows_positions, gains, starts, ideal = [], [], [], [0], []
    for topic in topics:
        lists = normalised([run.get(topic, []) for run in runs], norm)
        docs = sorted({doc for docs in lists for doc, _ in docs}, reverse=True)
        index = {doc: row for row, doc in enumerate(docs)}
        scores = np.zeros((len(docs), len(runs)))
        positions = np.zeros((len(docs), len(runs)), dtype=np.int64)
        for column, ranked_docs in enumerate(lists):
            for position, (doc, score) in enumerate(ranked_docs, start=1):
                scores[index[doc], column] = score
                positions[index[doc], column] = position
        labels = qrels[topic]
        rows_scores.append(scores)
        rows_positions.append(positions)
        gains.append(np.array([max(float(labels.get(doc, 0)), 0.0) for doc in docs]))
        starts.append(starts[-1] + len(docs))
        best = sorted((max(float(label), 0.0) for label in labels.values()), reverse=True)[:depth]
        ideal.append(sum(g / math.log2(i + 2) for i, g in enumerate(best)) if kind == "nDCG" else float(depth))
    positions = np.vstack(rows_positions) if rows_positions else np.zeros((0, len(runs)), np.int64)
    return Prepared(topics, np.array(starts), np.vstack(rows_scores) if rows_scores else np.zeros((0, len(runs))),
                    positions > 0, positions, np.concatenate(gains) if gains else np.zeros(0), np.array(ideal), kind,
                    depth)  # fmt: skip


def fused_scores(prepared: Prepared, method: str, params: Mapping[str, Any]) -> np.ndarray:
    """Every row's fused score under `method` (a tunable one) with `params`; −inf for a document that only runs of
    weight 0 hold (fusion leaves it out)."""
    if method == "rrf":
        k = float(params.get("k", 60))
        return np.where(prepared.held, 1.0 / (k + np.maximum(prepared.positions, 1)), 0.0).sum(axis=1)
    weights = np.asarray(params.get("weights", [1.0] * prepared.scores.shape[1]), dtype=np.float64)
    return _weighted(prepared, method, weights[None, :])[:, 0]


def _weighted(prepared: Prepared, method: str, weights: np.ndarray) -> np.ndarray:
    """rows × candidates: each row's wsum or wmnz score under each row of `weights` (candidates × runs)."""
    held = prepared.held.astype(np.float64)
    taking = held @ (weights != 0).astype(np.float64).T
    if method == "wsum":
        fused = prepared.scores @ weights.T
    else:
        fused = prepared.scores.sum(axis=1, keepdims=True) * (held @ weights.T)
    return np.where(taking > 0, fused, -np.inf)


def topic_scores(prepared: Prepared, fused: np.ndarray, chosen: Sequence[int]) -> np.ndarray:
    """The measure of each topic in `chosen` (indices into prepared.topics), ranked by `fused`: one score per row,
    or rows × candidates for several rankings at once (then topics × candidates)."""
    values = fused if fused.ndim == 2 else fused[:, None]
    out = np.zeros((len(chosen), values.shape[1]))
    for slot, topic in enumerate(chosen):
        start, end = prepared.starts[topic], prepared.starts[topic + 1]
        if end > start and prepared.ideal[topic] > 0:
            out[slot] = _measure(prepared, values[start:end], prepared.gains[start:end], prepared.ideal[topic])
    return out if fused.ndim == 2 else out[:, 0]


def _measure(prepared: Prepared, values: np.ndarray, gains: np.ndarray, ideal: float) -> np.ndarray:
    """One topic's measure under each column of `values` (rows by document id, descending): the k best rows by
    score, a tie taking its first rows, as trec_eval ranks them; a row of −inf (left out of the fusion) gains 0."""
    rows, candidates = values.shape
    k = min(prepared.depth, rows)
    if k < rows:
        kth = -np.partition(-values, k - 1, axis=0)[k - 1]
        above, tied = values > kth, values == kth
        top = above | (tied & (np.cumsum(tied, axis=0) <= k - above.sum(axis=0)))
    else:
        top = np.ones_like(values, dtype=bool)
    counted = np.where(np.isneginf(values), 0.0, gains[:, None])
    if prepared.kind == "P":
        return ((counted > 0) & top).sum(axis=0) / prepared.depth
    picked = np.nonzero(top.T)[1].reshape(candidates, k)  # each candidate's k rows, by row
    columns = np.arange(candidates)[:, None]
    order = np.argsort(-values[picked, columns], axis=1, kind="stable")
    ranked_gains = np.take_along_axis(counted[picked, columns], order, axis=1)
    return ranked_gains @ (1.0 / np.log2(np.arange(2, k + 2))) / ideal


def means(prepared: Prepared, method: str, chosen: Sequence[int], weights: np.ndarray) -> np.ndarray:
    """The mean measure over the topics `chosen` of each weighting (rows of `weights`), in batches."""
    batch = max(1, CELLS // max(1, len(prepared.gains)))
    return np.concatenate([topic_scores(prepared, _weighted(prepared, method, weights[at : at + batch]), chosen)
                           .mean(axis=0) for at in range(0, len(weights), batch)])  # fmt: skip


def greedy(prepared: Prepared, method: str, chosen: Sequence[int], start: int) -> list[np.ndarray]:
    """The greedy path (module docstring) on the topics `chosen`, from run `start` alone: the weights after 0, 1, …
    steps, each step the first (run, step) in order that raises the mean most, by more than BETTER."""
    runs = prepared.scores.shape[1]
    weights = np.zeros(runs)
    weights[start] = 1.0
    path, best = [weights], means(prepared, method, chosen, weights[None])[0]
    moves = np.repeat(np.arange(runs), len(STEPS)), np.tile(STEPS, runs)
    for _ in range(MOST_STEPS):
        trials = np.repeat(weights[None], len(moves[0]), axis=0)
        trials[np.arange(len(trials)), moves[0]] = np.round(trials[np.arange(len(trials)), moves[0]] + moves[1],
                                                            DECIMALS)  # fmt: skip
        scored = means(prepared, method, chosen, trials)
        pick = int(np.argmax(scored))
        if scored[pick] <= best + BETTER:
            break
        weights, best = trials[pick], scored[pick]
        path.append(weights)
    return path


def contenders(prepared: Prepared, method: str) -> Prepared:
    """The arrays without the rows that cannot reach a topic's top k under any weights of 0 or more: rows that k
    others outrank under every such weighting, each held by at least the runs holding the row and scoring at least
    as high in every run (wmnz: a sum at least as high and not below 0), and higher wherever the row is held or
    else before it in the tie order. The top k, and so the arrays' measure, of every such weighting is the same
    without them."""
    keep = np.zeros(len(prepared.gains), dtype=bool)
    for topic in range(len(prepared.topics)):
        start, end = prepared.starts[topic], prepared.starts[topic + 1]
        keep[start:end] = _undominated(prepared.scores[start:end], prepared.held[start:end], method, prepared.depth)
    kept = np.concatenate([[0], np.cumsum(keep)])
    return replace(prepared, starts=kept[prepared.starts], scores=prepared.scores[keep], held=prepared.held[keep],
                   positions=prepared.positions[keep], gains=prepared.gains[keep])  # fmt: skip


def _undominated(scores: np.ndarray, held: np.ndarray, method: str, k: int) -> np.ndarray:
    """One topic's rows outranked by fewer than k others under every weighting of 0 or more (contenders): each row
    checked against each run's and the sum's best 2k rows."""
    rows = len(scores)
    if rows <= k:
        return np.ones(rows, dtype=bool)
    total = scores.sum(axis=1, keepdims=True)
    keys = np.hstack([scores, total])
    pool = np.unique(np.argpartition(-keys, min(2 * k, rows) - 1, axis=0)[: 2 * k])
    compared = scores if method == "wsum" else total
    outranked = np.zeros(rows, dtype=np.int64)
    for at in range(0, len(pool), 64):
        them = pool[at : at + 64]
        higher, atleast = compared[them][None] > compared[:, None], compared[them][None] >= compared[:, None]
        beats = (held[them][None] | ~held[:, None]).all(axis=2)
        if method == "wsum":
            beats &= atleast.all(axis=2)
            sure = (higher | ~held[:, None]).all(axis=2)
        else:
            beats &= atleast[..., 0] & (total[them, 0] >= 0)[None]
            sure = higher[..., 0] & (total[them, 0] > 0)[None]
        outranked += (beats & ((them[None] < np.arange(rows)[:, None]) | sure)).sum(axis=1)
    return outranked < k


@dataclass(frozen=True)
class Choice:
    """A fusion the tuning may choose: `method` over the runs `members` (indices, in the runs' order) with
    `params` (wsum's and wmnz's weights are one per member)."""

    method: str
    members: tuple[int, ...]
    params: Mapping[str, Any]

    def key(self) -> str:
        return json.dumps([self.method, self.members, self.params], sort_keys=True)


def choice_scores(prepared: Prepared, choice: Choice) -> np.ndarray:
    """Every row's fused score under `choice`, −inf for a row no member of it holds (the fusion leaves it out)."""
    members = list(choice.members)
    if choice.method in ("wsum", "wmnz"):
        weights = np.zeros(prepared.scores.shape[1])
        weights[members] = choice.params["weights"]
        return _weighted(prepared, choice.method, weights[None])[:, 0]
    held, scores = prepared.held[:, members], prepared.scores[:, members]
    if choice.method == "rrf":
        fused = np.where(held, 1.0 / (float(choice.params["k"]) + np.maximum(prepared.positions[:, members], 1)), 0)
        fused = fused.sum(axis=1)
    elif choice.method == "combmnz":
        fused = np.where(held, scores, 0.0).sum(axis=1) * held.sum(axis=1)
    elif choice.method == "combsum":
        fused = np.where(held, scores, 0.0).sum(axis=1)
    else:
        raise ValueError(f"no array scores for {choice.method!r}")
    return np.where(held.any(axis=1), fused, -np.inf)


class Figures:
    """The project's evaluation of fused runs per judged topic: what the report shows and what a choice is compared
    with the best single run by. Only judged topics are fused (a topic's fusion never depends on another's), each
    fusion once, and evaluation is given each topic's documents down to the k-th's score in single precision, ties
    included (nDCG@k and P@k read no further); `singles` the runs' own figures."""

    def __init__(self, runs: Sequence[Ranked], qrels: Mapping[str, Mapping[str, float]], norm: str, measure: str,
                 depth: int) -> None:  # fmt: skip
        self.runs = [{topic: run[topic] for topic in qrels if topic in run} for run in runs]
        self.qrels, self.norm, self.measure, self.depth = qrels, norm, measure, depth
        found = MEASURE.match(measure)
        self.cutoff = int(found.group(2)) if found else depth
        self._fused: dict[str, dict[str, float]] = {}
        self.singles = [self._evaluated(run) for run in self.runs]

    def fused(self, choice: Choice) -> dict[str, float]:
        """Each judged topic's measure of the fusion `choice`."""
        key = choice.key()
        if key not in self._fused:
            members = [self.runs[index] for index in choice.members]
            fused = fuse(members, choice.method, self.norm, dict(choice.params), self.depth)
            self._fused[key] = self._evaluated(fused)
        return self._fused[key]

    def _evaluated(self, run: Ranked) -> dict[str, float]:
        top = {}
        with np.errstate(over="ignore"):  # a score beyond single precision is ±infinity there, without a warning
            for topic, docs in run.items():
                bar = np.float32(docs[min(self.cutoff, len(docs)) - 1][1]) if docs else 0.0  # as trec_eval reads it
                top[topic] = list(itertools.takewhile(lambda pair: np.float32(pair[1]) >= bar, docs))
        return _per_topic(fused_lines(top, "run"), self.qrels, self.measure)


@dataclass
class Chosen:
    """What a tuning chose on some topics: the fusion, its mean there by the report's figures, the slot the inner
    folds picked (None where nothing was cross-validated) and the inner folds' mean of that slot."""

    choice: Choice
    mean: float
    slot: str | None = None
    inner_mean: float | None = None


class Tuning:
    """The choice of a method's weights, k or (auto) fusion on any set of the prepared topics (module docstring)."""

    def __init__(self, prepared: Prepared, figures: Figures, method: str, seed: int) -> None:
        self.prepared, self.figures, self.method, self.seed = prepared, figures, method, seed
        self.runs = prepared.scores.shape[1]
        digests = [hashlib.sha256(prepared.scores[:, run].tobytes() + prepared.positions[:, run].tobytes()).digest()
                   for run in range(self.runs)]  # fmt: skip
        self.order = sorted(range(self.runs), key=lambda run: (digests[run], run))  # the runs by content
        self.weighting = "wsum" if method == AUTO else method
        if self.weighting in ("wsum", "wmnz"):
            visited = replace(prepared, scores=prepared.scores[:, self.order], held=prepared.held[:, self.order],
                              positions=prepared.positions[:, self.order])  # fmt: skip
            self.search = contenders(visited, self.weighting)

    def choose(self, chosen: Sequence[int]) -> Chosen:
        """The fusion chosen on the topics `chosen` (indices into prepared.topics) and its mean there, as the
        report computes it."""
        topics = [self.prepared.topics[i] for i in chosen]
        everyone = tuple(range(self.runs))
        if self.method == "rrf":
            scored = [topic_scores(self.prepared, fused_scores(self.prepared, "rrf", {"k": k}), chosen).mean()
                      for k in KS]  # fmt: skip
            choice = Choice("rrf", everyone, {"k": KS[int(np.argmax(scored))]})
        elif self.method in ("wsum", "wmnz", AUTO):
            return self._cross_validated(chosen, topics)
        else:
            choice = Choice(self.method, everyone, {})
        return Chosen(choice, _mean(self.figures.fused(choice), topics))

    def _cross_validated(self, chosen: Sequence[int], topics: list[str]) -> Chosen:
        """The slot best in the inner folds of `chosen`, refitted on all of them; the best single run instead where
        it scores at least as high there by the report's figures."""
        inner = [group for repeat in range(REPEATS) for group in folds(topics, INNER, self.seed + repeat)]
        totals: dict[str, float] = {}
        if len(topics) >= 2:
            for group in inner:
                outside = set(group)
                training = [i for i in chosen if self.prepared.topics[i] not in outside]
                tested = [i for i in chosen if self.prepared.topics[i] in outside]
                for slot, choice in self._slots(training).items():
                    fused = choice_scores(self.prepared, choice)
                    totals[slot] = totals.get(slot, 0.0) + float(topic_scores(self.prepared, fused, tested).sum())
        slots = self._slots(chosen)
        first = next(iter(slots))
        slot = max(totals, key=lambda name: (totals[name], -list(slots).index(name))) if totals else first
        picked = max([slots[first], slots[slot]], key=lambda choice: _mean(self.figures.fused(choice), topics))
        if picked is slots[first]:
            slot = first
        inner_mean = totals[slot] / (len(chosen) * REPEATS) if totals else None
        return Chosen(picked, _mean(self.figures.fused(picked), topics), slot, inner_mean)

    def _slots(self, chosen: Sequence[int]) -> dict[str, Choice]:
        """Every fusion the inner folds choose among, fitted on the topics `chosen`, by slot name, simplest first."""
        topics = [self.prepared.topics[i] for i in chosen]
        ranking = sorted(self.order, key=lambda run: -_mean(self.figures.singles[run], topics))  # best first
        everyone = tuple(range(self.runs))
        slots = {"single" if self.weighting == "wsum" else f"{self.weighting}, 0 steps": self._alone(ranking[0])}
        if self.method == AUTO:
            for size in sorted({*(size for size in SIZES if size < self.runs), self.runs}):
                members = tuple(sorted(ranking[:size]))
                for method in AUTO_METHODS:
                    slots[f"{method} of the best {size}"] = Choice(method, members, {"k": AUTO_K} if method == "rrf"
                                                                   else {})  # fmt: skip
        path = greedy(self.search, self.weighting, chosen, self.order.index(ranking[0]))
        for steps in range(1, MOST_STEPS + 1):  # a path that stopped early keeps its end for the longer counts
            weights = _unvisited(path[min(steps, len(path) - 1)], self.order)
            slots[f"{self.weighting}, at most {steps} step{'s' if steps > 1 else ''}"] = Choice(
                self.weighting, everyone, {"weights": [float(w) for w in weights]})
        for share in SHARES:
            weights = [1.0 if run == ranking[0] else share for run in range(self.runs)]
            slots[f"{self.weighting}, the others at {share:g}"] = Choice(self.weighting, everyone, {"weights": weights})
        return slots

    def _alone(self, run: int) -> Choice:
        """Run `run` weighted alone: wsum's (wmnz's) weights 1 for it, 0 for the others."""
        return Choice(self.weighting, tuple(range(self.runs)), {"weights": [float(i == run) for i in range(self.runs)]})


def _unvisited(weights: np.ndarray, order: list[int]) -> np.ndarray:
    """Weights of the runs in the visiting order put back in the runs' own order."""
    back = np.empty_like(weights)
    back[order] = weights
    return back


def folds(topics: Sequence[str], count: int, seed: int) -> list[list[str]]:
    """The topics shuffled with `seed` and dealt into `count` groups (at most one per topic), each by topic."""
    order = np.random.default_rng(seed).permutation(len(topics))
    count = max(1, min(count, len(topics)))
    return [sorted((topics[i] for i in order[start::count]), key=topic_key) for start in range(count)]


def tuned(runs: Sequence[Ranked], names: Sequence[str], qrels: Mapping[str, Mapping[str, float]], method: str,
          norm: str, measure: str, cv: int = 0, seed: int = 0, depth: int = 1000,
          repeats: int = 1) -> dict[str, Any]:  # fmt: skip
    """What `argrank fuse --optimize` reports: the fusion chosen on all judged topics (`chosen_method`, the
    `members` it fuses by name, its parameters `chosen`) and its mean there; with `cv` folds, `cv_mean` (each
    fold's topics scored with what the other folds chose) beside `cv_inner_mean` (what chose it: the inner folds'
    mean, else the training mean), the spread of the folds' figures, `cv_best_single_mean` (the single run best on
    each fold's training topics, scored on its held-out ones) and each fold's choice; the best input run
    (`best_single`, `best_single_mean`) and each run's mean (`runs`); the runs' `names` and, for weights,
    `weights_by_run` (name → weight). `norm` is the normalisation the method reads (None: ranks). With `repeats` > 1
    the whole cross-validation also runs with the seeds after `seed` (`cv_repeats`: each draw of folds' figures, as
    that seed alone gives them, and their mean): how much the figure owes to one draw of the folds. ValueError for a
    measure whose k is beyond `depth`, which the fused run never reaches, or repeats without folds."""
    if cutoff(measure) > depth:
        raise ValueError(f"{measure} reads {cutoff(measure):,} documents per topic, beyond the fused depth {depth:,}")
    prepared = prepare(runs, norm, qrels, measure)
    if cv and not 2 <= cv <= len(prepared.topics):
        raise ValueError(f"cross-validation needs 2 to {len(prepared.topics)} folds of the judged topics, not {cv}")
    if repeats < 1 or repeats > 1 and not cv:
        raise ValueError(f"repeats must be at least 1, and more than 1 only with folds (cv), not {repeats}")
    figures = Figures(runs, qrels, norm, measure, depth)
    # The products are small (rows × runs by runs × candidates): more BLAS threads would only wait on each other.
    with threadpool_limits(limits=1, user_api="blas"):
        report = _report(prepared, figures, Tuning(prepared, figures, method, seed), names, cv, seed)
        if repeats > 1:
            draws = [report] + [_cross_validation(prepared, figures, Tuning(prepared, figures, method, other), names,
                                                  cv, other) for other in range(seed + 1, seed + repeats)]  # fmt: skip
            report["cv_repeats"] = _repeated(draws, seed)
        return report


def _repeated(draws: Sequence[Mapping[str, Any]], seed: int) -> dict[str, Any]:
    """The cross-validations of successive seeds from `seed`: each one's held-out figure, single run and gain, and
    their means with the gains' spread over the draws."""
    found = {key: [draw[key] for draw in draws] for key in ("cv_mean", "cv_best_single_mean", "cv_gain")}
    return {"seeds": list(range(seed, seed + len(draws))), **found,
            **{f"mean_{key}": float(np.mean(values)) for key, values in found.items()},
            "gain_spread": fold_spread(found["cv_gain"])}  # fmt: skip


def _report(prepared: Prepared, figures: Figures, tuning: Tuning, names: Sequence[str], cv: int,
            seed: int) -> dict[str, Any]:  # fmt: skip
    """tuned's report."""
    everything = tuning.choose(range(len(prepared.topics)))
    singles = {name: _mean(scores) for name, scores in zip(names, figures.singles)}
    best_single = max(singles, key=lambda name: singles[name])
    report: dict[str, Any] = {
        "method": tuning.method, "norm": applied_norm(tuning.method, figures.norm), "measure": figures.measure,
        **_described(everything, names), "in_sample_mean": everything.mean, "best_single": best_single,
        "best_single_mean": singles[best_single], "runs": singles, "topics": len(prepared.topics),
        "names": list(names),
    }  # fmt: skip
    if everything.inner_mean is not None:
        report["selection"] = {"slot": everything.slot, "inner_mean": everything.inner_mean, "folds": INNER,
                               "repeats": REPEATS}
    if cv:
        report.update(_cross_validation(prepared, figures, tuning, names, cv, seed))
    return report


def _cross_validation(prepared: Prepared, figures: Figures, tuning: Tuning, names: Sequence[str], cv: int,
                      seed: int) -> dict[str, Any]:  # fmt: skip
    """The outer folds: each fold's choice on the others, scored on its own topics, beside the single run its
    training topics pick."""
    held_out: dict[str, float] = {}
    singles_held_out: dict[str, float] = {}
    outer, inner = [], []
    for group in folds(prepared.topics, cv, seed):
        outside = set(group)
        training = [i for i, topic in enumerate(prepared.topics) if topic not in outside]
        picked = tuning.choose(training)
        scores = {topic: figures.fused(picked.choice)[topic] for topic in group}
        single = max(tuning.order, key=lambda run: (_mean(figures.singles[run], [prepared.topics[i] for i in training]),
                                                    -tuning.order.index(run)))  # fmt: skip
        single_scores = {topic: figures.singles[single][topic] for topic in group}
        held_out.update(scores)
        singles_held_out.update(single_scores)
        fold = {"topics": group, **_described(picked, names), "training_mean": picked.mean,
                "inner_mean": picked.inner_mean if picked.inner_mean is not None else picked.mean,
                "held_out_mean": _mean(scores), "best_single": names[single],
                "best_single_held_out_mean": _mean(single_scores)}  # fmt: skip
        if picked.slot is not None:
            fold["slot"] = picked.slot
        outer.append(fold)
        inner.append(fold["inner_mean"])
    figures_by_fold = [fold["held_out_mean"] for fold in outer]
    cv_mean, single_mean = _mean(held_out), _mean(singles_held_out)
    return {"folds": outer, "cv_mean": cv_mean, "cv_inner_mean": float(np.mean(inner)),
            "cv_spread": fold_spread(figures_by_fold),
            "cv_best_single_mean": single_mean, "cv_gain": cv_mean - single_mean, "per_topic": held_out}  # fmt: skip


def _described(chosen: Chosen, names: Sequence[str]) -> dict[str, Any]:
    """A choice as the report shows it: the method fused, its members by name, its parameters, weights by run."""
    choice = chosen.choice
    described = {"chosen_method": choice.method, "members": [names[i] for i in choice.members],
                 "chosen": dict(choice.params)}  # fmt: skip
    if "weights" in choice.params:
        described["weights_by_run"] = dict(zip(described["members"], choice.params["weights"]))
    return described


def _per_topic(lines: list[RunLine], qrels: Mapping[str, Mapping[str, float]], measure: str) -> dict[str, float]:
    """Each judged topic's measure (the project's evaluation; 0 where the run has nothing for it)."""
    scores = evaluate(lines, qrels, measures=[measure]).per_topic
    return {topic: float(scores.get(topic, {}).get(measure, 0.0)) for topic in qrels}


def _mean(scores: Mapping[str, float], topics: Sequence[str] | None = None) -> float:
    """The mean of `scores` over `topics` (all of them where None)."""
    values = list(scores.values()) if topics is None else [scores[topic] for topic in topics]
    return float(np.mean(values)) if values else float("nan")


def topic_key(topic: str) -> tuple[int, str]:
    """Numbered topics in numeric order, before (and apart from) named ones."""
    return (int(topic), topic) if topic.isdigit() else (0, topic)
