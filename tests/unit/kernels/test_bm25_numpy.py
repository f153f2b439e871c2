"""kernels/bm25_numpy.py: numpy's kernels, and the ones built ahead of time, against numba's: the same candidates
in the same order and the same scores, bit for bit, whatever the bar they are listed above."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from argrank.kernels import bm25_numba, bm25_numpy
from argrank.kernels.bm25_numpy import UNTOUCHED
from argrank.retrieval.top_k import top_k


@st.composite
def postings_and_query(draw):
    """A small CSR matrix (each row's documents distinct), document norms and a query's rows, repeats allowed."""
    documents = draw(st.integers(1, 40))
    rows = draw(st.lists(st.lists(st.integers(0, documents - 1), unique=True, max_size=documents), min_size=1,
                         max_size=8))  # fmt: skip
    indptr = np.cumsum([0, *map(len, rows)]).astype(np.int64)
    indices = np.array([d for row in rows for d in row], dtype=np.int32)
    frequencies = draw(st.sampled_from([np.int32, np.uint16]))  # as an index holds them (kernels/inversion.py)
    data = np.array(draw(st.lists(st.integers(1, 30), min_size=len(indices), max_size=len(indices))), frequencies)
    norm = np.array(draw(st.lists(st.floats(0.05, 4.0), min_size=documents, max_size=documents)))
    query = np.array(draw(st.lists(st.integers(0, len(rows) - 1), min_size=1, max_size=6)), dtype=np.int64)
    weights = st.floats(-2.0, 8.0, allow_subnormal=False)
    idf = np.array(draw(st.lists(weights, min_size=len(query), max_size=len(query))))
    scale = np.array(draw(st.lists(weights, min_size=len(query), max_size=len(query))))
    kept = np.array(draw(st.lists(st.booleans(), min_size=len(rows), max_size=len(rows))))  # rows' factors kept
    return indptr, indices, data, norm, query, idf, scale, kept


def _run(kernels, indptr, indices, data, norm, query, idf, scale, kept, bar=UNTOUCHED):
    """The kept rows' factors written by `impacts`, then the query accumulated, reading them for its kept rows, and
    the documents scoring at least `bar` collected."""
    out = np.zeros(len(indices))
    assert kernels.impacts(indptr, indices, data, np.flatnonzero(kept), norm, 2.2, out) == 0
    table = np.full(len(norm), UNTOUCHED)
    candidates, scores = np.empty(len(norm), dtype=np.int32), np.empty(len(norm))
    assert kernels.accumulate(indptr, indices, data, norm, 2.2, out, kept[query], query, idf, scale, table) == 0
    n = kernels.collect(indptr, indices, query, table, bar, candidates, scores)
    assert np.all(table == UNTOUCHED)  # ready for the next query
    return out, candidates[:n], scores[:n]


@settings(max_examples=200, deadline=None)
@given(postings_and_query())
def test_numpy_and_prebuilt_kernels_are_the_compiled_kernels(prebuilt_kernels, case):
    compiled = _run(bm25_numba, *case)
    for kernels in (bm25_numpy, prebuilt_kernels):
        for ours, theirs in zip(_run(kernels, *case), compiled):
            assert ours.dtype == theirs.dtype and ours.tobytes() == theirs.tobytes()  # bit for bit: 0.0 is not -0.0
    indptr, indices, _, _, query, _, _, kept = case
    reached = {int(d) for row in query for d in indices[indptr[row] : indptr[row + 1]]}
    assert sorted(compiled[1].tolist()) == sorted(reached)
    for factors in (np.ones_like(kept), np.zeros_like(kept)):  # every row's factors read, and computed in the loop
        _, candidates, scores = _run(bm25_numba, *case[:-1], factors)
        assert candidates.tobytes() == compiled[1].tobytes() and scores.tobytes() == compiled[2].tobytes()


@settings(max_examples=100, deadline=None)
@given(postings_and_query(), st.floats(0.0, 1.0))
def test_collect_lists_the_documents_at_or_above_the_bar_once_each(prebuilt_kernels, case, share):
    """Above a bar (here a score among the query's own, or beyond them all), each build lists exactly the documents
    scoring at least the bar, in the order all of them would be listed, and clears the table of every one."""
    _, everyone, all_scores = _run(bm25_numba, *case)
    ordered = np.sort(all_scores)
    bar = ordered[int(share * (len(ordered) - 1))] if len(ordered) and share < 1 else np.inf
    expected = [(d, s) for d, s in zip(everyone.tolist(), all_scores.tolist()) if s >= bar]
    for kernels in (bm25_numba, bm25_numpy, prebuilt_kernels):
        _, candidates, scores = _run(kernels, *case, bar=bar)
        assert list(zip(candidates.tolist(), scores.tolist())) == expected


@pytest.mark.parametrize("size", [0, 1])
def test_empty_and_single_postings(size, prebuilt_kernels):
    """Edge sizes: a query of an empty posting list lists nothing; one posting, one candidate."""
    indptr = np.array([0, size], dtype=np.int64)
    indices, data = np.zeros(size, dtype=np.int32), np.ones(size, dtype=np.int32)
    case = (indptr, indices, data, np.ones(1), np.array([0]), np.array([1.5]), np.array([1.0]))
    for kernels in (bm25_numba, bm25_numpy, prebuilt_kernels):
        for kept in (True, False):
            _, candidates, scores = _run(kernels, *case, np.array([kept]))
            assert len(candidates) == size and scores.tolist() == [1.5 * 2.2 / 2.0] * size


def test_a_first_part_of_negative_zero_is_summed_from_zero_as_compiled():
    """The compiled kernel adds each document's first part to 0.0, so a part of -0.0 (an idf of 0 weighted
    negatively) scores 0.0; the numpy kernel, which writes a query's first list without reading the table, too."""
    indptr = np.array([0, 2, 3], dtype=np.int64)
    indices, data = np.array([0, 1, 1], dtype=np.int32), np.array([1, 2, 3], dtype=np.int32)
    case = (indptr, indices, data, np.ones(2), np.array([0, 1]), np.array([0.0, 0.0]), np.array([-1.0, -1.0]))
    for kept in (np.array([True, False]), np.array([False, True])):
        compiled, plain = _run(bm25_numba, *case, kept), _run(bm25_numpy, *case, kept)
        assert compiled[2].tobytes() == plain[2].tobytes() == np.zeros(2).tobytes()


def _top(kernels, indptr, indices, data, norm, query, idf, scale, kept, k, block):
    """top_candidates on the case with its rows sorted by document (as an index holds them), then the k best of
    what it lists."""
    indices = indices.copy()
    for row in range(len(indptr) - 1):
        indices[indptr[row] : indptr[row + 1]].sort()
    out = np.zeros(len(indices))
    assert kernels.impacts(indptr, indices, data, np.flatnonzero(kept), norm, 2.2, out) == 0
    table = np.full(len(norm), UNTOUCHED)
    sample = np.empty(min(block, len(norm)) // bm25_numba.STRIDE + bm25_numba.RUN)
    candidates, scores = np.empty(len(norm), dtype=np.int32), np.empty(len(norm))
    n = kernels.top_candidates(indptr, indices, data, norm, 2.2, out, kept[query], query, idf, scale, table, k, block,
                               sample, candidates, scores)  # fmt: skip
    assert n >= 0 and np.all(table == UNTOUCHED)
    return top_k(candidates[:n], scores[:n], k), indices, n


@settings(max_examples=200, deadline=None)
@given(postings_and_query(), st.integers(1, 50), st.integers(1, 45))
def test_top_candidates_hold_the_k_best_in_every_build(prebuilt_kernels, case, k, block):
    """Whatever the block size (several blocks, or one) and k, each build lists the k best that accumulate and
    collect score, bit for bit, and leaves the table UNTOUCHED."""
    indptr, _, data, norm, query, idf, scale, kept = case
    for kernels in (bm25_numba, bm25_numpy, prebuilt_kernels):
        (docs, best), indices, _ = _top(kernels, *case, k, block)
        _, everyone, all_scores = _run(bm25_numba, indptr, indices, data, norm, query, idf, scale, kept)
        expected = top_k(everyone, all_scores, k)
        assert docs.tobytes() == expected[0].tobytes() and best.tobytes() == expected[1].tobytes()


@pytest.mark.parametrize("block", [4_096, 7_000, 20_000])
def test_top_candidates_score_again_where_the_sampled_documents_are_the_best(prebuilt_kernels, block):
    """Where exactly the sampled documents (the first RUN of every RUN·STRIDE in each block) score best, fewer than
    k listed documents reach the bar: the query is scored again with every document listed."""
    documents = 20_000
    run, stride = bm25_numba.RUN, bm25_numba.STRIDE
    blocks = -(-documents // block)
    width = -(-documents // blocks)
    sampled = np.array([(d % width) % (run * stride) < run for d in range(documents)])
    indptr = np.array([0, documents], dtype=np.int64)
    indices = np.arange(documents, dtype=np.int32)
    data = np.where(sampled, 5, 1).astype(np.int32)
    case = (indptr, indices, data, np.ones(documents), np.array([0]), np.array([1.5]), np.array([1.0]),
            np.array([False]))  # fmt: skip
    k = int(sampled.sum()) + 50
    for kernels in (bm25_numba, bm25_numpy, prebuilt_kernels):
        (docs, best), _, listed = _top(kernels, *case, k, block)
        _, everyone, all_scores = _run(bm25_numba, *case)
        expected = top_k(everyone, all_scores, k)
        assert docs.tolist() == expected[0].tolist() and best.tolist() == expected[1].tolist()
        assert listed == documents  # scored again (the numpy build always lists every document)
    (docs, _), _, listed = _top(bm25_numba, *case, int(sampled.sum()) // 2, block)
    assert listed < documents and docs.tolist() == np.flatnonzero(sampled)[: len(docs)].tolist()  # the bar held


def test_a_query_scored_again_lists_only_what_reaches_the_k_th_best_it_listed_first(prebuilt_kernels):
    """Two blocks: the first sets a low bar and lists many documents; in the second, exactly the sampled documents
    score best and set a bar that fewer than k reach. Scored again, the query lists only the documents at or above
    the k-th best score listed the first time: fewer than all, the k best among them."""
    documents, block = 20_000, 10_000
    run, stride = bm25_numba.RUN, bm25_numba.STRIDE
    d = np.arange(documents)
    sampled = (d >= block) & ((d - block) % (run * stride) < run) & (d - block < block - block % (run * stride))
    data = np.where(d < block, 1 + d % 3, np.where(sampled, 50, 1)).astype(np.int32)
    case = (np.array([0, documents], dtype=np.int64), d.astype(np.int32), data, np.ones(documents), np.array([0]),
            np.array([1.5]), np.array([1.0]), np.array([False]))  # fmt: skip
    k = int(sampled.sum()) + 50
    _, everyone, all_scores = _run(bm25_numba, *case)
    expected = top_k(everyone, all_scores, k)
    for kernels in (bm25_numba, prebuilt_kernels):
        (docs, best), _, listed = _top(kernels, *case, k, block)
        assert docs.tolist() == expected[0].tolist() and best.tolist() == expected[1].tolist()
        assert listed == int(sampled.sum() + (data[:block] == 3).sum())  # the first block's best and the sampled


def test_top_candidates_refuse_a_posting_outside_its_block(prebuilt_kernels):
    """A row not sorted by document puts a posting outside the block being scored: DAMAGED, nothing written
    outside the table's first block."""
    indptr = np.array([0, 3], dtype=np.int64)
    indices, data = np.array([9, 1, 2], dtype=np.int32), np.ones(3, dtype=np.int32)
    for kernels in (bm25_numba, prebuilt_kernels):
        table = np.full(5, UNTOUCHED)
        result = kernels.top_candidates(indptr, indices, data, np.ones(10), 2.2, np.zeros(3), np.array([False]),
                                        np.array([0]), np.array([1.0]), np.array([1.0]), table, 3, 5, np.empty(8),
                                        np.empty(10, dtype=np.int32), np.empty(10))  # fmt: skip
        assert result == bm25_numpy.DAMAGED
