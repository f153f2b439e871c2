"""Token codes in, per-term postings out: two compiled passes over the tokens in document order.

Through scipy, the inversion would hold every token three or four times over (the codes in id order, a
renumbered copy, a matrix of ones per token, its transpose before duplicates are summed), and the build's memory
peak with it. Here the first pass numbers the terms by first occurrence and counts each term's documents, the
second writes each posting in place, so beyond the codes only the postings are held, and each term's documents
come out in order.

A posting's frequency is at most its document's length, so where every document is shorter than 65,536 tokens
the frequencies are uint16, not int32: the index is 2 bytes a posting smaller on disk and in the build.
"""

from __future__ import annotations

import numpy as np
from numba import njit

NARROW = np.uint16  # the frequencies' type where every document is shorter than its range


def invert(codes, offsets, order, distinct, kernels=None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Postings (indptr, indices, data) of the documents `order` lists (rows of `offsets`, document i being row
    order[i]), whose tokens are `codes` into `distinct` strings; and, per term in first-occurrence order, its
    code. Tokens sharing a document and a term add to one posting's frequency. `kernels` has this module's
    `number_terms` and `write_postings` (the ahead-of-time build, kernels/ahead_of_time.py); this module's own
    where it is None."""
    number, write = (kernels.number_terms, kernels.write_postings) if kernels else (number_terms, write_postings)
    codes, offsets = np.ascontiguousarray(codes, np.int32), np.ascontiguousarray(offsets, np.int64)
    order = np.ascontiguousarray(order, np.int64)
    term_of, code_of = np.full(distinct, -1, np.int64), np.empty(distinct, np.int64)
    counts, last = np.zeros(distinct + 1, np.int64), np.empty(distinct, np.int64)
    terms = number(codes, offsets, order, term_of, code_of, counts, last)
    indptr = np.cumsum(counts[: terms + 1])
    longest = int(np.max(np.diff(offsets))) if len(offsets) > 1 else 0
    indices = np.empty(indptr[-1], np.int32)
    data = np.zeros(indptr[-1], NARROW if longest <= np.iinfo(NARROW).max else np.int32)
    write(codes, offsets, order, term_of, indptr, indices, data)
    return indptr, indices, data, code_of[:terms]


@njit(cache=True, nogil=True)
def number_terms(codes, offsets, order, term_of, code_of, counts, last):  # pragma: no cover
    """Number the terms by first occurrence: per code its term into `term_of` (-1 for none, as given), per term its
    code into `code_of`, and each term's count of documents into counts[term + 1] (zeros, as given); `last` is
    scratch of one slot per code. Returns how many terms there are."""
    last[:] = -1  # per term, the last document that counted it
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
    return terms


@njit(cache=True, nogil=True)
def write_postings(codes, offsets, order, term_of, indptr, indices, data):  # pragma: no cover
    """Each posting's document into `indices` and its frequency into `data` (zeros), in document order per term;
    returns 0."""
    terms = len(indptr) - 1
    written = indptr[:terms].copy()  # per term, where its next posting goes (its current one is just before)
    last = np.full(terms, -1, np.int64)  # per term, the last document that listed it
    for doc in range(len(order)):
        row = order[doc]
        for i in range(offsets[row], offsets[row + 1]):
            term = term_of[codes[i]]
            if last[term] != doc:
                last[term] = doc
                indices[written[term]] = doc
                written[term] += 1
            data[written[term] - 1] += 1
    return 0
