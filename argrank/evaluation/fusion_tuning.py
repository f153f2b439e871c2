"""A fusion's weights or parameter chosen on judged topics, and the cross-validated figure of that choice: each fold
of topics scored with what the other folds chose, never with a choice made on its own topics.

What is chosen: `wsum` and `wmnz` their weights, by coordinate ascent (each run's weight in turn over WEIGHTS, the
others held, until a pass improves nothing; equal weights to start); `rrf` its k over KS. Other methods have
nothing to choose. The measure is nDCG@k or P@k, computed here on arrays as trec_eval computes it (gain the label,
0 below 0; ties in score broken by document id, descending, as trec_eval does); the figures reported are the
project's evaluation of the fused runs.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from argrank.evaluation.fusion import Ranked, fuse, fused_lines, normalised
from argrank.evaluation.ranking import evaluate
from argrank.formats.runfile import RunLine

TUNABLE = {"wsum": "weights", "wmnz": "weights", "rrf": "k"}
WEIGHTS = tuple(step / 10 for step in range(11))
KS = (1, 5, 10, 20, 30, 40, 60, 80, 100)
MEASURE = re.compile(r"^(nDCG|P)@(\d+)$")
PASSES = 10  # coordinate ascent's most passes over the runs


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
    depth: int


def prepare(runs: Sequence[Ranked], norm: str, qrels: Mapping[str, Mapping[str, float]], measure: str) -> Prepared:
    """The arrays `score_topics` ranks and scores; ValueError for a measure other than nDCG@k or P@k."""
    found = MEASURE.match(measure)
    if not found:
        raise ValueError(f"fusion tuning optimises nDCG@k or P@k, not {measure!r}")
    kind, depth = found.group(1), int(found.group(2))
    topics = sorted(qrels, key=topic_key)
    rows_scores, rows_held, rows_positions, gains, starts, ideal = [], [], [], [], [0], []
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
        rows_held.append(positions > 0)
        gains.append(np.array([max(float(labels.get(doc, 0)), 0.0) for doc in docs]))
        starts.append(starts[-1] + len(docs))
        best = sorted((max(float(label), 0.0) for label in labels.values()), reverse=True)[:depth]
        ideal.append(sum(g / math.log2(i + 2) for i, g in enumerate(best)) if kind == "nDCG" else float(depth))
    return Prepared(topics, np.array(starts), np.vstack(rows_scores) if rows_scores else np.zeros((0, len(runs))),
                    np.vstack(rows_held) if rows_held else np.zeros((0, len(runs)), bool),
                    np.vstack(rows_positions) if rows_positions else np.zeros((0, len(runs)), np.int64),
                    np.concatenate(gains) if gains else np.zeros(0), np.array(ideal), kind, depth)  # fmt: skip


def fused_scores(prepared: Prepared, method: str, params: Mapping[str, Any]) -> np.ndarray:
    """Every row's fused score under `method` (a tunable one) with `params`."""
    if method == "rrf":
        k = float(params.get("k", 60))
        return np.where(prepared.held, 1.0 / (k + np.maximum(prepared.positions, 1)), 0.0).sum(axis=1)
    weights = np.asarray(params.get("weights", [1.0] * prepared.scores.shape[1]), dtype=np.float64)
    if method == "wsum":
        return prepared.scores @ weights
    return prepared.scores.sum(axis=1) * (prepared.held @ weights)


def topic_scores(prepared: Prepared, fused: np.ndarray, chosen: Sequence[int]) -> np.ndarray:
    """The measure of each topic in `chosen` (indices into prepared.topics), ranked by `fused`."""
    out = np.zeros(len(chosen))
    discounts = 1.0 / np.log2(np.arange(2, prepared.depth + 2))
    for slot, topic in enumerate(chosen):
        start, end = prepared.starts[topic], prepared.starts[topic + 1]
        if end == start or prepared.ideal[topic] == 0:
            continue
        values = fused[start:end]
        k = min(prepared.depth, end - start)
        top = np.argpartition(-values, k - 1)[:k] if k < end - start else np.arange(end - start)
        top = top[np.lexsort((top, -values[top]))]  # by score, then row (documents by id, descending)
        gains = prepared.gains[start:end][top]
        if prepared.kind == "nDCG":
            out[slot] = float(gains @ discounts[: len(gains)]) / prepared.ideal[topic]
        else:
            out[slot] = float((gains > 0).sum()) / prepared.depth
    return out


def choose(prepared: Prepared, method: str, chosen: Sequence[int]) -> tuple[dict[str, Any], float]:
    """The parameters of highest mean measure over the topics `chosen`, and that mean."""
    if method not in TUNABLE:
        return {}, float("nan")
    if method == "rrf":
        means = [topic_scores(prepared, fused_scores(prepared, method, {"k": k}), chosen).mean() for k in KS]
        best = int(np.argmax(means))
        return {"k": KS[best]}, float(means[best])
    return _ascend(prepared, method, chosen)


def _ascend(prepared: Prepared, method: str, chosen: Sequence[int]) -> tuple[dict[str, Any], float]:
    """Coordinate ascent over the runs' weights (module docstring)."""
    weights = np.ones(prepared.scores.shape[1])
    best = topic_scores(prepared, fused_scores(prepared, method, {"weights": weights}), chosen).mean()
    for _ in range(PASSES):
        improved = False
        for run in range(len(weights)):
            for value in WEIGHTS:
                if value == weights[run]:
                    continue
                trial = weights.copy()
                trial[run] = value
                mean = topic_scores(prepared, fused_scores(prepared, method, {"weights": trial}), chosen).mean()
                if mean > best + 1e-12:
                    best, weights, improved = mean, trial, True
        if not improved:
            break
    return {"weights": [float(w) for w in weights]}, float(best)


def folds(topics: Sequence[str], count: int, seed: int) -> list[list[str]]:
    """The topics shuffled with `seed` and dealt into `count` groups (at most one per topic), each by topic."""
    order = np.random.default_rng(seed).permutation(len(topics))
    count = max(1, min(count, len(topics)))
    return [sorted((topics[i] for i in order[start::count]), key=topic_key) for start in range(count)]


def tuned(runs: Sequence[Ranked], names: Sequence[str], qrels: Mapping[str, Mapping[str, float]], method: str,
          norm: str, measure: str, cv: int = 0, seed: int = 0, depth: int = 1000) -> dict[str, Any]:  # fmt: skip
    """What `argrank fuse --optimize` reports: the parameters chosen on all judged topics and their mean there;
    with `cv` folds, `cv_mean` (each fold's topics scored with what the other folds chose) and each fold's choice;
    and the best input run (`best_single`, `best_single_mean`) and each run's mean."""
    prepared = prepare(runs, norm, qrels, measure)
    everything = list(range(len(prepared.topics)))
    params, _ = choose(prepared, method, everything)
    singles = {name: _mean(_per_topic(_lines(run, name), qrels, measure)) for name, run in zip(names, runs)}
    best_single = max(singles, key=lambda name: singles[name])
    report: dict[str, Any] = {
        "method": method, "norm": norm, "measure": measure, "chosen": params,
        "in_sample_mean": _mean(_per_topic(fused_lines(fuse(runs, method, norm, params, depth), "fused"), qrels,
                                           measure)),
        "best_single": best_single, "best_single_mean": singles[best_single], "runs": singles,
        "topics": len(prepared.topics),
    }  # fmt: skip
    if cv:
        held_out: dict[str, float] = {}
        report["folds"] = []
        for group in folds(prepared.topics, cv, seed):
            training = [i for i, topic in enumerate(prepared.topics) if topic not in set(group)]
            fold_params, training_mean = choose(prepared, method, training)
            fused = fuse([{t: run[t] for t in group if t in run} for run in runs], method, norm, fold_params, depth)
            scores = _per_topic(fused_lines(fused, "fused"), {t: qrels[t] for t in group}, measure)
            held_out.update(scores)
            report["folds"].append({"topics": group, "chosen": fold_params, "training_mean": training_mean,
                                    "held_out_mean": _mean(scores)})  # fmt: skip
        report["cv_mean"] = _mean(held_out)
        report["per_topic"] = held_out
    return report


def _lines(run: Ranked, tag: str) -> list[RunLine]:
    return fused_lines(run, tag)


def _per_topic(lines: list[RunLine], qrels: Mapping[str, Mapping[str, float]], measure: str) -> dict[str, float]:
    """Each judged topic's measure (the project's evaluation; 0 where the run has nothing for it)."""
    scores = evaluate(lines, qrels, measures=[measure]).per_topic
    return {topic: float(scores.get(topic, {}).get(measure, 0.0)) for topic in qrels}


def _mean(scores: Mapping[str, float]) -> float:
    return float(np.mean(list(scores.values()))) if scores else float("nan")


def topic_key(topic: str) -> tuple[int, str]:
    """Numbered topics in numeric order, before (and apart from) named ones."""
    return (int(topic), topic) if topic.isdigit() else (0, topic)
