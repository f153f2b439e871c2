"""BM25's kernels (bm25_numba) in numpy: the same contract, buffers and arithmetic, so the same candidates in the
same order and the same scores bit for bit, with nothing to compile (the `kernels: numpy` setting).

Within one posting list every document is listed once, so a fancy-indexed read, add and write is the compiled
loop's per-posting update done for the whole list.
"""

from __future__ import annotations

import numpy as np

UNTOUCHED = -np.inf  # a document no posting of the current query has reached yet
DAMAGED = -1  # what the kernels return for a posting that points outside the index


def impacts(indptr, indices, data, rows, norm, k1_plus_1, out) -> int:
    """As bm25_numba.impacts: each posting's tf·(k1+1) / (tf + norm) of the posting `rows` into `out`."""
    for row in rows.tolist():
        start, end = _span(indptr, row, min(len(indices), len(data), len(out)))
        documents = indices[start:end]
        if start < 0 or _outside(documents, len(norm)):
            return DAMAGED
        _factors(data[start:end], norm[documents.astype(np.intp)], k1_plus_1, out[start:end])
    return 0


def accumulate(indptr, indices, data, norm, k1_plus_1, impact, cached, rows, idf, scale, table) -> int:
    """As bm25_numba.accumulate: the query's parts added into `table`; 0, or DAMAGED. A term's tf factors are read
    from `impact` where `cached` says so, else computed as `impacts` does.

    In place where it can be, and each list's documents made index-sized once (numpy would convert them for the
    read and again for the write); the first list finds the table UNTOUCHED, so it is written without reading it."""
    if len(norm) < len(table):
        return DAMAGED
    postings = min(len(indices), len(data))
    for j, row in enumerate(rows.tolist()):
        kept = bool(cached[j])
        start, end = _span(indptr, row, min(postings, len(impact)) if kept else postings)
        documents = indices[start:end]
        if start < 0 or _outside(documents, len(table)):
            return DAMAGED
        documents = documents.astype(np.intp)
        if kept:
            part = impact[start:end] * idf[j]
        else:
            part = _factors(data[start:end], norm[documents], k1_plus_1, np.empty(end - start))
            part *= idf[j]
        if scale[j] != 1.0:  # 1.0 · x is x, bit for bit
            part *= scale[j]
        if j == 0:
            part += 0.0  # the kernel's 0.0 + part: -0.0 becomes 0.0
            table[documents] = part
            continue
        running = table[documents]
        running[running == UNTOUCHED] = 0.0
        running += part
        table[documents] = running
    return 0


def collect(indptr, indices, rows, table, bar, candidates, scores) -> int:
    """As bm25_numba.collect: the documents the rows' postings reach with a score of at least `bar`, each once in
    the order they are first reached, listed with their scores; every document reached marked UNTOUCHED again.
    Within one list every document is listed once, so a list's reads and writes are one fancy-indexed step each."""
    n = 0
    for row in rows.tolist():
        start, end = _span(indptr, row, len(indices))
        documents = indices[start:end]
        if start < 0 or _outside(documents, len(table)):
            return DAMAGED
        documents = documents.astype(np.intp)
        running = table[documents]
        table[documents] = UNTOUCHED
        listed = (running >= bar) & (running != UNTOUCHED)  # one listed already reads UNTOUCHED
        count = int(np.count_nonzero(listed))
        candidates[n : n + count] = documents[listed]
        scores[n : n + count] = running[listed]
        n += count
    return n


def top_candidates(indptr, indices, data, norm, k1_plus_1, impact, cached, rows, idf, scale, table, k, block, sample,
                   candidates, scores) -> int:  # fmt: skip
    """As bm25_numba.top_candidates, with no bar and no blocks: every document the query reaches is listed (a set that
    holds its k best), as `accumulate` and `collect` list them."""
    if len(candidates) < len(norm) or len(scores) < len(norm):
        return DAMAGED
    result = accumulate(indptr, indices, data, norm, k1_plus_1, impact, cached, rows, idf, scale, table)
    return result if result == DAMAGED else collect(indptr, indices, rows, table, UNTOUCHED, candidates, scores)


def order_ties(order, scores, candidates) -> int:
    """As bm25_numba.order_ties: each run of equal scores in `order` put in ascending order of candidate, in place;
    0, or DAMAGED for a position outside `scores` or `candidates`. One sort of (run, candidate) keys, where there
    are ties (candidates below 2**31)."""
    if _outside(order, min(len(scores), len(candidates))):
        return DAMAGED
    ranked = scores[order]
    changes = ranked[1:] != ranked[:-1]
    if changes.all():
        return 0
    run = np.concatenate(([0], np.cumsum(changes)))  # each position's run of equal scores, in score order
    key = (run << 32) | candidates[order].astype(np.int64)
    order[:] = order[np.argsort(key)]
    return 0


def _factors(frequencies: np.ndarray, norms: np.ndarray, k1_plus_1: float, out: np.ndarray) -> np.ndarray:
    """tf·(k1+1) / (tf + norm) of each posting into `out`, with the compiled kernels' operations."""
    tf = frequencies.astype(np.float64)
    norms = norms + tf
    tf *= k1_plus_1
    return np.divide(tf, norms, out=out)


def _span(indptr, row: int, limit: int) -> tuple[int, int]:
    """The row's posting positions; (-1, -1) where they do not lie within `limit` positions."""
    start, end = int(indptr[row]), int(indptr[row + 1])
    return (start, end) if 0 <= start <= end <= limit else (-1, -1)


def _outside(documents: np.ndarray, count: int) -> bool:
    """Whether a posting points outside the `count` documents (numpy would wrap a negative one silently)."""
    return len(documents) > 0 and (documents.min() < 0 or documents.max() >= count)
