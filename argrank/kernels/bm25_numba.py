"""BM25's term-at-a-time score accumulation, compiled: one pass over a query's postings adds the scores, a second
lists the documents they reach (those above a bar, for a top k) and clears them for the next query.

numpy scores a posting list in several passes over it; these loops do it in one. Each posting's tf factor,
tf·(k1+1) / (tf + k1·(1 − b + b·dl/avgdl)), is kept per ranker and term (`impacts`) from the term's second query
on, so later queries read it instead of recomputing it; a term's first query computes it in the loop and keeps
nothing (most terms are queried once). The candidates are listed from the postings again, not from every
document. Where the running scores outgrow the cache (`accumulate`), each document is prefetched a few postings
before its read; `top_candidates` scores blocks of documents whose scores stay in the cache, and prefetches none.

The arithmetic is rank-bm25's, in its order: every part is `scale * (idf * (tf·(k1+1) / (tf + norm)))`, summed
in query-term order from 0, so the scores are its scores bit for bit. bm25_numpy is the same in numpy.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from argrank.kernels.bm25_numpy import DAMAGED, UNTOUCHED
from argrank.kernels.prefetch import AHEAD, prefetch

STRIDE = 64  # top_candidates samples one document's score in STRIDE ...
RUN = 8  # ... in runs of RUN documents (one cache line of scores)
LONG_TIE = 32  # order_ties sorts a run of more equal scores than this by argsort, not by insertion
# A bar keeps SHARE times the sample's expected share of the k best above it, and MARGIN more: room for chance, and
# for documents of one debate that sit together and score alike, so that a run of RUN sampled scores is less than
# RUN independent ones.
SHARE = 3
MARGIN = 8


def sample_length(k: int) -> int:
    """How many sampled scores `top_candidates` keeps for a top k (its `sample`): one more than the largest rank a
    bar of the query asks for, when the sample spans every block."""
    return -(-SHARE * max(k, 0) // STRIDE) + MARGIN + 1


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
        if _add(indices, data, norm, k1_plus_1, impact, kept, start, end, 0, documents, weight, factor, j == 0, True,
                table) != end:  # fmt: skip
            return DAMAGED
    return 0


@njit(cache=True, nogil=True)
def _add(indices, data, norm, k1_plus_1, impact, kept, start, end, first, last, weight, factor, fresh, distant,
         table):  # pragma: no cover  # fmt: skip
    """Add the parts of the postings from `start` on, up to `end` or to the first of a document past last − 1, into
    `table` (document d at d − first): where they stopped, or −1 for a posting of a document before `first`. A sorted
    list's part in a block is found so, as its postings are read, without a search. `fresh` where the table is
    UNTOUCHED for all of them (a query's first list: written unread); `distant` where the table outgrows the cache,
    so that each document's score is prefetched (a block's scores stay in the cache, where a prefetch only costs)."""
    i = start
    while i < end:
        if i + AHEAD < end and (distant or not kept):  # ask for a later posting's document now
            ahead = indices[i + AHEAD]
            if distant:
                prefetch(table, ahead - first)
            if not kept:
                prefetch(norm, ahead)
        d = indices[i]
        if d >= last:
            break
        if d < first:
            return -1
        if kept:
            tf = impact[i]
        else:
            f = np.float64(data[i])
            tf = f * k1_plus_1 / (f + norm[d])
        if fresh:
            table[d - first] = 0.0 + factor * (weight * tf)
        else:
            score = table[d - first]
            table[d - first] = (0.0 if score == UNTOUCHED else score) + factor * (weight * tf)
        i += 1
    return i


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


@njit(cache=True, nogil=True)
def top_candidates(indptr, indices, data, norm, k1_plus_1, impact, cached, rows, idf, scale, table, k, block, sample,
                   candidates, scores):  # pragma: no cover  # fmt: skip
    """List into `candidates` and `scores` a set of the query's documents that holds its k best (as `accumulate` and
    `collect` score them, in the same arithmetic): how many, or DAMAGED. `table` is UNTOUCHED before and after.

    The documents are taken in blocks of at most `block` ids, each scored whole (every row's postings in it) before
    the next, so the running scores of a block stay in a cache that the whole table outgrows; only the first
    `block` entries of `table` are used. In each block, only the documents at or above a bar are listed: the highest
    score that the sample of the blocks scored so far (the first RUN documents of every RUN·STRIDE, `_running_bar`)
    very likely puts below the query's k-th best overall. Where fewer than k listed documents reach the highest bar
    used, that may not hold, and the query is scored again with every document listed that reaches the k-th best
    score listed the first time (or every document, where fewer than k were). A bar above what the sample says at a
    block lists fewer of its documents and never loses one of the k best: that check is against the highest bar
    either way. `sample` holds the sample's largest scores. Posting lists must be sorted by document, as the index
    writes them; a posting of a document before the block being scored, or past the last one, is DAMAGED."""
    documents = len(norm)
    if len(table) < min(block, documents) or len(candidates) < documents or len(scores) < documents or block < 1:
        return DAMAGED
    blocks = -(-documents // block)
    width = -(-documents // blocks) if blocks else 0  # blocks of equal width, the last one shorter
    m = len(rows)
    positions, ends = np.empty(m, np.int64), np.empty(m, np.int64)
    for j in range(m):
        start, end = indptr[rows[j]], indptr[rows[j] + 1]
        if start < 0 or end < start or end > len(indices) or end > len(data) or (cached[j] and end > len(impact)):
            return DAMAGED
        ends[j] = end
    stops = np.empty(m, np.int64)
    tally = np.zeros(3, np.int64)  # _running_bar's counts
    floor = UNTOUCHED  # the second attempt's one bar
    for attempt in range(2):  # the second lists every document at or above `floor`
        for j in range(m):
            positions[j] = indptr[rows[j]]
        n, highest, barred = 0, UNTOUCHED, False
        tally[:] = 0
        for first in range(0, documents, max(width, 1)):
            last = min(documents, first + width)
            for j in range(m):  # the block's part of each row, scored
                stops[j] = _add(indices, data, norm, k1_plus_1, impact, cached[j], positions[j], ends[j], first, last,
                                idf[j], scale[j], j == 0, False, table)  # fmt: skip
                if stops[j] < 0:
                    return DAMAGED
            bar = floor
            if attempt == 0:
                bar = _running_bar(table, last - first, documents, k, sample, tally)
                if bar != UNTOUCHED:
                    highest, barred = max(highest, bar), True
                bar = highest  # the highest bar so far: each one stands for the query's k-th best overall
            for j in range(m):  # listed and cleared
                for i in range(positions[j], stops[j]):
                    d = indices[i]
                    score = table[d - first]
                    table[d - first] = UNTOUCHED
                    if score >= bar and score != UNTOUCHED:
                        candidates[n] = d
                        scores[n] = score
                        n += 1
                positions[j] = stops[j]
        for j in range(m):
            if positions[j] != ends[j]:  # a posting past the last document
                return DAMAGED
        if not barred:
            return n
        reaching = 0
        for i in range(n):
            if scores[i] >= highest:
                reaching += 1
        if reaching >= k:  # the k-th best is at or above every bar: each block listed all of the k best it holds
            return n
        if 0 < k <= n:  # the k-th best of those listed: the query's k best are at or above it
            floor = np.partition(scores[:n], n - k)[n - k]
    return n


@njit(cache=True, nogil=True)
def order_ties(order, scores, candidates):  # pragma: no cover
    """Put each run of equal scores in `order` (positions into `scores` and `candidates`, ranked by score) in
    ascending order of candidate, in place: 0, or DAMAGED for a position outside either. Runs of ties are short in
    a ranking, so each one is sorted by insertion, a long one (in a ranking of few distinct scores) by argsort."""
    n = len(order)
    size = min(len(scores), len(candidates))
    for i in range(n):
        if order[i] < 0 or order[i] >= size:
            return DAMAGED
    start = 0
    while start < n:
        end = start + 1
        while end < n and scores[order[end]] == scores[order[start]]:
            end += 1
        if end - start > LONG_TIE:
            run = order[start:end].copy()
            order[start:end] = run[np.argsort(candidates[run])]
        else:
            for i in range(start + 1, end):
                position = order[i]
                j = i
                while j > start and candidates[order[j - 1]] > candidates[position]:
                    order[j] = order[j - 1]
                    j -= 1
                order[j] = position
        start = end
    return 0


@njit(cache=True, nogil=True)
def _running_bar(table, width, documents, k, kept, tally):  # pragma: no cover
    """The bar after one more block, whose scores are the first `width` of `table`: among the sampled scores the
    query reached in this block and the ones before it, the one that SHARE times the sample's expected share of the k
    best (and MARGIN more) are at or above; UNTOUCHED (list everything) where the sample is that small, or `kept` too
    short.

    A block's own sample is small, and the MARGIN weighs on it most; the sample of all the blocks so far sets a bar
    nearer the k-th best, so later blocks list fewer documents. `kept` holds the largest sampled scores so far, in
    descending order, and `tally` the widths sampled so far, the scores reached and how many of them are kept: all
    three 0 before a query's first block."""
    most = min(len(kept), -(-SHARE * max(k, 0) // STRIDE) + MARGIN + 1)  # sample_length(k)
    held = tally[2]
    for start in range(0, width - width % (RUN * STRIDE), RUN * STRIDE):
        for i in range(start, start + RUN):
            score = table[i]
            if score == UNTOUCHED:
                continue
            tally[1] += 1
            if held == most and (held == 0 or score <= kept[held - 1]):
                continue
            j = min(held, most - 1)  # where it goes in, the smaller ones moving down (the smallest kept drops out)
            while j > 0 and kept[j - 1] < score:
                kept[j] = kept[j - 1]
                j -= 1
            kept[j] = score
            held = min(held + 1, most)
    tally[0] += width
    tally[2] = held
    rank = -(-SHARE * max(k, 0) * tally[0] // (documents * STRIDE)) + MARGIN
    if rank > held or tally[1] <= rank:
        return UNTOUCHED
    return kept[rank - 1]
