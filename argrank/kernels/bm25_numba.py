"""BM25's term-at-a-time score accumulation, compiled: one pass over a query's postings adds the scores, a second
lists the documents they reach (those above a bar, for a top k) and clears them for the next query.

numpy scores a posting list in several passes over it; these loops do it in one. Each posting's tf factor,
tf·(k1+1) / (tf + k1·(1 − b + b·dl/avgdl)), is kept per ranker and term (`impacts`) from the term's second query
on, so later queries read it instead of recomputing it; a term's first query computes it in the loop and keeps
nothing (most terms are queried once). The candidates are listed from the postings again, not from every
document. The running scores outgrow the cache, so each document is prefetched a few postings before its read.

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
def accumulate(indptr, indices, data, norm, k1_plus_1, impact, cached, rows, idf, scale, table):  # pragma: no cover
    """Add each query term's BM25 parts into `table`, a running score per document (UNTOUCHED where none yet): 0,
    or DAMAGED. `rows` are the terms' posting rows (all present), `idf` and `scale` their factors; a term's tf
    factors are read from `impact` where `cached` says so (`impacts` wrote them), else computed as `impacts` does,
    from `data` and `norm`. `collect` then lists the scored documents and leaves the table UNTOUCHED again.

    The postings are checked against the index again: an index changed after its ranker was built is an error
    here, never a write to foreign memory."""
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
            if j == 0:  # the table is UNTOUCHED before the first list: no need to read it
                table[d] = 0.0 + factor * (weight * tf)
            else:
                score = table[d]
                table[d] = (0.0 if score == UNTOUCHED else score) + factor * (weight * tf)
    return 0


@njit(cache=True, nogil=True)
def collect(indptr, indices, rows, table, bar, candidates, scores):  # pragma: no cover
    """List each document the postings of `rows` reach whose score in `table` is at least `bar` (each once, in the
    order the postings first reach them) into `candidates`, its score into `scores`, and mark every document
    they reach UNTOUCHED again, ready for the next query. Returns how many were listed, or DAMAGED.

    No list is kept while the scores are added: where the bar is high, the test here rarely passes and the reads
    of the table do not wait for one another."""
    n = 0
    documents = len(table)
    for j in range(len(rows)):
        start, end = indptr[rows[j]], indptr[rows[j] + 1]
        if start < 0 or end < start or end > len(indices):
            return DAMAGED
        for i in range(start, end):
            if i + AHEAD < end:
                prefetch(table, indices[i + AHEAD])
            d = indices[i]
            if d < 0 or d >= documents:
                return DAMAGED
            score = table[d]
            table[d] = UNTOUCHED
            if score >= bar and score != UNTOUCHED:  # a document listed already reads UNTOUCHED
                candidates[n] = d
                scores[n] = score
                n += 1
    return n
