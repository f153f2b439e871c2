"""BM25's term-at-a-time score accumulation in one compiled pass over a query's postings.

numpy scores a posting list in several passes over it and finds the candidates in a pass over every document; this
loop does it in one pass. Each posting's tf factor, tf·(k1+1) / (tf + k1·(1 − b + b·dl/avgdl)), is kept per
ranker and term (`impacts`) from the term's second query on, so later queries read it instead of recomputing it;
a term's first query computes it in the loop and keeps nothing (most terms are queried once). A document is listed
as a candidate when a posting first reaches it, so no pass over all documents remains. The running scores outgrow
the cache, so each document is prefetched a few postings before its read.

The arithmetic is rank-bm25's, in its order: every part is `scale * (idf * (tf·(k1+1) / (tf + norm)))`, summed
in query-term order from 0, so the scores are its scores bit for bit. bm25_numpy is the same in numpy.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from argrank.kernels.bm25_numpy import DAMAGED, UNTOUCHED
from argrank.kernels.prefetch import AHEAD, prefetch


@njit(cache=True, nogil=True)
def impacts(indptr, indices, data, rows, norm, k1_plus_1, out):  # pragma: no cover
    """The tf factor of each posting of the posting `rows` into `out`, 0 when done; `norm` is each document's
    k1·(1 − b + b·dl/avgdl). DAMAGED for a posting outside the index (compiled code has no bounds checks; numba's
    own are slow)."""
    documents = len(norm)
    for j in range(len(rows)):
        start, end = indptr[rows[j]], indptr[rows[j] + 1]
        if start < 0 or end < start or end > len(indices) or end > len(out):
            return DAMAGED
        for i in range(start, end):
            d = indices[i]
            if d < 0 or d >= documents:
                return DAMAGED
            f = np.float64(data[i])
            out[i] = f * k1_plus_1 / (f + norm[d])
    return 0


@njit(cache=True, nogil=True)
def accumulate(
    indptr, indices, data, norm, k1_plus_1, impact, cached, rows, idf, scale, table, candidates, scores
):  # pragma: no cover
    """Add each query term's BM25 parts into `table` (a running score per document, UNTOUCHED where none), listing
    each newly reached document in `candidates`; then copy their scores to `scores` and mark them untouched again,
    ready for the next query. Returns how many were listed, or DAMAGED. `rows` are the terms' posting rows (all
    present), `idf` and `scale` their factors; a term's tf factors are read from `impact` where `cached` says so
    (`impacts` wrote them), else computed as `impacts` does, from `data` and `norm`.

    The postings are checked against the index again: an index changed after its ranker was built is an error
    here, never a write to foreign memory."""
    n = 0
    documents = len(table)
    if len(norm) < documents:
        return DAMAGED
    for j in range(len(rows)):
        row, weight, factor, kept = rows[j], idf[j], scale[j], cached[j]
        start, end = indptr[row], indptr[row + 1]
        if start < 0 or end < start or end > len(indices) or end > len(data) or (kept and end > len(impact)):
            return DAMAGED
        for i in range(start, end):
            if i + AHEAD < end:  # the table is larger than the cache: ask for a later posting's document now
                ahead = indices[i + AHEAD]
                prefetch(table, ahead)
                if not kept:
                    prefetch(norm, ahead)
            d = indices[i]
            if d < 0 or d >= documents:
                return DAMAGED
            if kept:
                tf = impact[i]
            else:
                f = np.float64(data[i])
                tf = f * k1_plus_1 / (f + norm[d])
            score = table[d]
            candidates[n] = d
            reached = score == UNTOUCHED
            n += reached
            table[d] = (0.0 if reached else score) + factor * (weight * tf)
    for i in range(n):
        if i + AHEAD < n:
            prefetch(table, candidates[i + AHEAD])
        d = candidates[i]
        scores[i] = table[d]
        table[d] = UNTOUCHED
    return n
