"""Top-k selection from a query's scored candidates: the best k by score, ties broken by document id (the index's
column order), as every ranking model's `top` returns them."""

from __future__ import annotations

import numpy as np

from argrank.kernels import Kernels, bm25_numpy
from argrank.kernels.bm25_numpy import DAMAGED

STRIDE = 16  # top_k samples every STRIDE-th score for its bar
SAMPLED = 8  # ... where there are more than SAMPLED times k candidates


def top_k(
    candidates: np.ndarray, scores: np.ndarray, k: int, kernels: Kernels = bm25_numpy
) -> tuple[np.ndarray, np.ndarray]:
    """The k best candidates by score, ties by document id (candidates are column ids); none for k ≤ 0. `kernels`
    order the ties (`best_first`).

    Among many candidates (tens of thousands a query on a large corpus, for the best 1,000) the exact selection
    runs on a few: a score that every sixteenth candidate's scores put a little below the k-th best is the bar, and the
    candidates at or above it are all the k best and some more. Where fewer than k clear the bar (a rare
    sample), all are selected from. A partition of every score would cost as much as scoring the query."""
    if k <= 0:
        return candidates[:0], scores[:0]
    if len(scores) > SAMPLED * k:
        sample = scores[::STRIDE]
        rank = min(len(sample), -(-k * 3 // (2 * STRIDE)))  # half again the share of the k best a sample holds
        bar = np.partition(sample, len(sample) - rank)[len(sample) - rank]
        keep = np.flatnonzero(scores >= bar)
        if len(keep) >= k:
            candidates, scores = candidates[keep], scores[keep]
    if len(scores) > k:
        threshold = np.partition(scores, len(scores) - k)[len(scores) - k]
        keep = np.flatnonzero(scores >= threshold)  # positions, found once for both takes
        candidates, scores = candidates[keep], scores[keep]
    order = best_first(candidates, scores, kernels)[:k]
    return candidates[order], scores[order]


def best_first(candidates: np.ndarray, scores: np.ndarray, kernels: Kernels = bm25_numpy) -> np.ndarray:
    """The positions of the candidates by score, best first, ties by document id: what
    `np.lexsort((candidates, -scores))` gives, in one sort by score, after which `kernels.order_ties` puts each run
    of equal scores in order (lexsort's two stable sorts take several times as long); ValueError where candidates
    and scores differ in length."""
    if len(candidates) != len(scores):
        raise ValueError(f"{len(candidates)} candidates but {len(scores)} scores")
    order = np.argsort(-scores)
    if kernels.order_ties(order, scores, candidates) == DAMAGED:
        raise ValueError("order_ties found a position outside the candidates")
    return order
