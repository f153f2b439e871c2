"""A fusion's weights or parameter chosen on judged topics, and the cross-validated figure of that choice: each fold
of topics scored with what the other folds chose, never with a choice made on its own topics.

`wsum` and `wmnz` choose their weights by coordinate ascent (each run's weight in turn over WEIGHTS, the others
held, until a pass improves nothing) from equal weights and from each run alone (weight 1, the others 0). The
ascents run side by side on arrays (the measure as trec_eval computes it: gain the label, 0 below 0; ties in score
broken by document id, descending), visiting the runs in an order of their contents, not of their names or
places. Three finalists, in this order: equal weights, the run best by itself weighted alone, the ascents' best
end. The chosen is the finalist of the highest mean as the report computes it (Figures), ties to the earlier: the
arrays rank in double precision, trec_eval in single (two scores it ties, the arrays may not), and the arrays'
sums may round apart from fusion's.

The guarantee, on the topics a choice is made on (all judged topics, or a fold's training topics): a wsum choice
scores at least what equal weights score and at least what every run scores by itself, since a run weighted alone
ranks as the run does (fusion: normalising keeps its order and ties, documents only others hold are left out;
after borda its missing candidates follow its own), as long as the measure's k is within the fused depth and
normalising neither joins nor parts two of the run's scores as trec_eval reads them (in single precision, so
scores some 1e-7 apart may tie before normalising and not after). A wmnz choice scores at least what equal
weights (combmnz) score; a run alone is no wmnz weighting (its documents still add the other runs' scores), so
the best single run does not bound it. `rrf` chooses its k over KS by the arrays; other methods have nothing to
choose. Every figure reported is the project's evaluation of the fused run.
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

from argrank.evaluation.fusion import Ranked, applied_norm, fuse, fused_lines, normalised
from argrank.evaluation.ranking import evaluate
from argrank.formats.runfile import RunLine

TUNABLE = {"wsum": "weights", "wmnz": "weights", "rrf": "k"}
WEIGHTS = np.arange(11) / 10
KS = (1, 5, 10, 20, 30, 40, 60, 80, 100)
MEASURE = re.compile(r"^(nDCG|P)@(\d+)$")
PASSES = 10  # coordinate ascent's most passes over the runs
BETTER = 1e-12  # a move of the ascent must raise the mean by more than this
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


def ascend(prepared: Prepared, method: str, chosen: Sequence[int], starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Coordinate ascent from each row of `starts` side by side (module docstring): the weights each ends on and
    their mean over the topics `chosen`. A start is done after a pass that moves it nowhere; starts that meet are
    scored once."""
    weights = np.array(starts, dtype=np.float64)
    scored = means(prepared, method, chosen, weights)
    active = np.ones(len(weights), dtype=bool)
    for _ in range(PASSES):
        moved = np.zeros(len(weights), dtype=bool)
        for run in range(weights.shape[1]):
            todo = np.flatnonzero(active)
            distinct, back = np.unique(weights[todo], axis=0, return_inverse=True)
            trials = np.repeat(distinct, len(WEIGHTS), axis=0)
            trials[:, run] = np.tile(WEIGHTS, len(distinct))
            tried = means(prepared, method, chosen, trials).reshape(len(distinct), len(WEIGHTS))[back.reshape(-1)]
            best = tried.argmax(axis=1)
            gain = tried[np.arange(len(todo)), best] > scored[todo] + BETTER
            weights[todo[gain], run] = WEIGHTS[best[gain]]
            scored[todo[gain]] = tried[np.arange(len(todo)), best][gain]
            moved[todo[gain]] = True
        active &= moved
        if not active.any():
            break
    return weights, scored


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


class Figures:
    """The project's evaluation of fused runs per judged topic: what the report shows and what finalists are
    compared by. Only judged topics are fused (a topic's fusion never depends on another's), each fusion once, and
    evaluation is given each topic's documents down to the k-th's score in single precision, ties included (nDCG@k
    and P@k read no further); `singles` the runs' own figures."""

    def __init__(self, runs: Sequence[Ranked], qrels: Mapping[str, Mapping[str, float]], method: str, norm: str,
                 measure: str, depth: int) -> None:  # fmt: skip
        self.runs = [{topic: run[topic] for topic in qrels if topic in run} for run in runs]
        self.qrels, self.method, self.norm, self.measure, self.depth = qrels, method, norm, measure, depth
        found = MEASURE.match(measure)
        self.cutoff = int(found.group(2)) if found else depth
        self._fused: dict[str, dict[str, float]] = {}
        self.singles = [self._evaluated(run) for run in self.runs]

    def fused(self, params: Mapping[str, Any]) -> dict[str, float]:
        """Each judged topic's measure of the fusion with `params`."""
        key = json.dumps(params, sort_keys=True)
        if key not in self._fused:
            self._fused[key] = self._evaluated(fuse(self.runs, self.method, self.norm, params, self.depth))
        return self._fused[key]

    def _evaluated(self, run: Ranked) -> dict[str, float]:
        top = {}
        with np.errstate(over="ignore"):  # a score beyond single precision is ±infinity there, without a warning
            for topic, docs in run.items():
                bar = np.float32(docs[min(self.cutoff, len(docs)) - 1][1]) if docs else 0.0  # as trec_eval reads it
                top[topic] = list(itertools.takewhile(lambda pair: np.float32(pair[1]) >= bar, docs))
        return _per_topic(fused_lines(top, "run"), self.qrels, self.measure)


class Tuning:
    """The choice of a method's weights or k on any set of the prepared topics (module docstring)."""

    def __init__(self, prepared: Prepared, figures: Figures, method: str) -> None:
        self.prepared, self.figures, self.method = prepared, figures, method
        digests = [hashlib.sha256(prepared.scores[:, run].tobytes() + prepared.positions[:, run].tobytes()).digest()
                   for run in range(prepared.scores.shape[1])]  # fmt: skip
        self.order = sorted(range(len(digests)), key=lambda run: (digests[run], run))  # the runs by content
        if method in ("wsum", "wmnz"):
            visited = replace(prepared, scores=prepared.scores[:, self.order], held=prepared.held[:, self.order],
                              positions=prepared.positions[:, self.order])  # fmt: skip
            self.search = contenders(visited, method)

    def choose(self, chosen: Sequence[int]) -> tuple[dict[str, Any], float]:
        """The parameters chosen on the topics `chosen` (indices into prepared.topics) and their mean there, as the
        report computes it."""
        topics = [self.prepared.topics[i] for i in chosen]
        if self.method == "rrf":
            scored = [topic_scores(self.prepared, fused_scores(self.prepared, "rrf", {"k": k}), chosen).mean()
                      for k in KS]  # fmt: skip
            params: dict[str, Any] = {"k": KS[int(np.argmax(scored))]}
        elif self.method in ("wsum", "wmnz"):
            params = self._weights(chosen, topics)
        else:
            params = {}
        return params, _mean(self.figures.fused(params), topics)

    def _weights(self, chosen: Sequence[int], topics: list[str]) -> dict[str, Any]:
        """The best of the finalists (module docstring), by the report's figures on `topics`."""
        runs = len(self.order)
        ends, scored = ascend(self.search, self.method, chosen, np.vstack([np.ones(runs), np.eye(runs)]))
        alone = max(self.order, key=lambda run: (_mean(self.figures.singles[run], topics), -self.order.index(run)))
        finalists = [np.ones(runs), np.eye(runs)[alone], _unvisited(ends[int(np.argmax(scored))], self.order)]
        weighted = [{"weights": [float(w) for w in weights]} for weights in finalists]
        return max(weighted, key=lambda params: (_mean(self.figures.fused(params), topics), -weighted.index(params)))


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
          norm: str, measure: str, cv: int = 0, seed: int = 0, depth: int = 1000) -> dict[str, Any]:  # fmt: skip
    """What `argrank fuse --optimize` reports: the parameters chosen on all judged topics and their mean there;
    with `cv` folds, `cv_mean` (each fold's topics scored with what the other folds chose) and each fold's choice;
    the best input run (`best_single`, `best_single_mean`) and each run's mean (`runs`); the runs' `names` and,
    for weights, `weights_by_run` (name → weight). `norm` is the normalisation the method reads (None: ranks).
    ValueError for a measure whose k is beyond `depth`, which the fused run never reaches."""
    if cutoff(measure) > depth:
        raise ValueError(f"{measure} reads {cutoff(measure):,} documents per topic, beyond the fused depth {depth:,}")
    prepared = prepare(runs, norm, qrels, measure)
    if cv and not 2 <= cv <= len(prepared.topics):
        raise ValueError(f"cross-validation needs 2 to {len(prepared.topics)} folds of the judged topics, not {cv}")
    figures = Figures(runs, qrels, method, norm, measure, depth)
    # The products are small (rows × runs by runs × candidates): more BLAS threads would only wait on each other.
    with threadpool_limits(limits=1, user_api="blas"):
        return _report(prepared, figures, Tuning(prepared, figures, method), names, cv, seed)


def _report(prepared: Prepared, figures: Figures, tuning: Tuning, names: Sequence[str], cv: int,
            seed: int) -> dict[str, Any]:  # fmt: skip
    """tuned's report."""
    method, norm, measure = figures.method, figures.norm, figures.measure
    params, in_sample = tuning.choose(range(len(prepared.topics)))
    singles = {name: _mean(scores) for name, scores in zip(names, figures.singles)}
    best_single = max(singles, key=lambda name: singles[name])
    report: dict[str, Any] = {
        "method": method, "norm": applied_norm(method, norm), "measure": measure, "chosen": params,
        "in_sample_mean": in_sample, "best_single": best_single, "best_single_mean": singles[best_single],
        "runs": singles, "topics": len(prepared.topics), "names": list(names), **_by_run(params, names),
    }  # fmt: skip
    if cv:
        held_out: dict[str, float] = {}
        report["folds"] = []
        for group in folds(prepared.topics, cv, seed):
            outside = set(group)
            training = [i for i, topic in enumerate(prepared.topics) if topic not in outside]
            fold_params, training_mean = tuning.choose(training)
            scores = {topic: figures.fused(fold_params)[topic] for topic in group}
            held_out.update(scores)
            report["folds"].append({"topics": group, "chosen": fold_params, "training_mean": training_mean,
                                    "held_out_mean": _mean(scores), **_by_run(fold_params, names)})  # fmt: skip
        report["cv_mean"] = _mean(held_out)
        report["per_topic"] = held_out
    return report


def _by_run(params: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """{"weights_by_run": name → weight} for weights, else nothing."""
    return {"weights_by_run": dict(zip(names, params["weights"]))} if "weights" in params else {}


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
