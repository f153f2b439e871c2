"""Top-k selection from a query's scored candidates: the best k by score, ties broken by document id (the index's
column order), as every ranking model's `top` returns them."""

from __future__ import annotations

import numpy as np

STRIDE = 16  # top_k samples every STRIDE-th score for its bar
SAMPLED = 8  # ... where there are more than SAMPLED times k candidates


def top_k(candidates: np.ndarray, scores: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The k best candidates by score, ties by document id (candidates are column ids); none for k ≤ 0.

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
    order = best_first(candidates, scores)[:k]
    return candidates[order], scores[order]


def best_first(candidates: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """The positions of the candidates by score, best first, ties by document id: what
    `np.lexsort((candidates, -scores))` gives, in one sort by score and, where scores tie, one by (run of equal
    scores, document id) (lexsort's two stable sorts take several times as long)."""
    order = np.argsort(-scores)
    ranked = scores[order]
    changes = ranked[1:] != ranked[:-1]
    if changes.all():
        return order
    run = np.concatenate(([0], np.cumsum(changes)))  # each position's run of equal scores, in score order
    key = (run << 32) | candidates[order].astype(np.int64)  # column ids are below 2**31
    return order[np.argsort(key)]
