"""Term-at-a-time score accumulation in one compiled pass over a query's postings.

In numpy, scoring a posting list is seven passes over it (convert, gather the length, add, divide, multiply,
scatter-add, mark) and finding the candidates is a pass over every document per query: at args.me size that was
25 ns a posting, slower than tantivy. Fused in one loop (numba) it is a few ns: the running scores live in one
table with each document's tf = 1 factor beside them (one cache line for both), and a document is listed as a
candidate the first time a posting reaches it, so no per-query pass over all documents remains.

The arithmetic is rank-bm25's, in its order: every part is `scale * (idf * (tf·(k1+1) / (tf + norm)))`, summed
in query-term order from 0, so the scores are its scores bit for bit (1.0 · x and 0.0 + x are exact).
"""

from __future__ import annotations

import numpy as np
from numba import njit

UNTOUCHED = -np.inf  # a document no posting of the current query has reached yet
DAMAGED = -1  # what accumulate returns for a posting that points outside the index


@njit(cache=True, nogil=True)
def accumulate(indptr, indices, data, rows, idf, scale, norm, k1_plus_1, table, candidates, scores):  # pragma: no cover
    """Add each query term's BM25 parts into `table[:, 0]`, listing each newly reached document in `candidates`;
    then copy their scores to `scores` and mark them untouched again, ready for the next query (one compiled
    function: loading each from numba's cache costs some 0.2 s a process). Returns how many were listed, or
    DAMAGED. `rows` are the terms' posting rows (all present), `idf` and `scale` their factors, `norm` each
    document's k1·(1 − b + b·dl/avgdl), `table[:, 1]` each document's (k1+1)/(1 + norm).

    Compiled code has no bounds checks (numba's cost a fifth of the time): a posting outside the index, which only
    a damaged index file holds, is checked here instead, so it is an error and never a write to foreign memory."""
    n = 0
    documents = len(norm)
    for j in range(len(rows)):
        row, weight, factor = rows[j], idf[j], scale[j]
        start, end = indptr[row], indptr[row + 1]
        if start < 0 or end < start or end > len(indices):
            return DAMAGED
        for i in range(start, end):
            d = indices[i]
            if d < 0 or d >= documents:
                return DAMAGED
            tf = data[i]
            score = table[d, 0]
            candidates[n] = d
            reached = score == UNTOUCHED
            n += reached
            if tf == 1:  # 95 % of the bench corpus's postings: the division is the document's, once per ranker
                part = factor * (weight * table[d, 1])
            else:
                f = np.float64(tf)
                part = factor * (weight * (f * k1_plus_1 / (f + norm[d])))
            table[d, 0] = (0.0 if reached else score) + part
    for i in range(n):
        d = candidates[i]
        scores[i] = table[d, 0]
        table[d, 0] = UNTOUCHED
    return n
