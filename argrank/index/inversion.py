"""Token codes in, per-term postings out: two compiled passes over the tokens in document order.

Through scipy, the inversion held every token three or four times over (the codes in id order, a renumbered
copy, a matrix of ones per token, its transpose before duplicates are summed): at args.me size (37 M tokens) a
peak above tantivy's whole build. Here the first pass numbers the terms by first occurrence and counts each
term's documents, the second writes each posting in place, so beyond the codes only the postings are held, and
each term's documents come out in order.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def invert(codes, offsets, order, distinct):  # pragma: no cover
    """Postings (indptr, indices, data) of the documents `order` lists (rows of `offsets`, document i being row
    order[i]), whose tokens are `codes` into `distinct` strings; and, per term in first-occurrence order, its
    code. Tokens sharing a document and a term add to one posting's frequency."""
    term_of = np.full(distinct, -1, np.int64)
    code_of = np.empty(distinct, np.int64)
    last = np.full(distinct, -1, np.int64)  # per term, the last document that counted or listed it
    counts = np.zeros(distinct + 1, np.int64)
    terms = 0
    for doc in range(len(order)):
        row = order[doc]
        for i in range(offsets[row], offsets[row + 1]):
            code = codes[i]
            term = term_of[code]
            if term < 0:
                term = terms
                term_of[code], code_of[term] = term, code
                terms += 1
            if last[term] != doc:
                last[term] = doc
                counts[term + 1] += 1
    indptr = np.cumsum(counts[: terms + 1])
    indices = np.empty(indptr[terms], np.int32)
    data = np.zeros(indptr[terms], np.int32)
    written = indptr[:terms].copy()  # per term, where its next posting goes (its current one is just before)
    last[:] = -1
    for doc in range(len(order)):
        row = order[doc]
        for i in range(offsets[row], offsets[row + 1]):
            term = term_of[codes[i]]
            if last[term] != doc:
                last[term] = doc
                indices[written[term]] = doc
                written[term] += 1
            data[written[term] - 1] += 1
    return indptr, indices, data, code_of[:terms]
