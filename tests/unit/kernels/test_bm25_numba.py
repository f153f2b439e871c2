"""kernels/bm25_numba.py: numba's BM25 kernels against BM25's sum written out in plain Python (each part
scale·(idf·(tf·(k1+1) / (tf + norm))), added from 0 in query order), bit for bit; their refusal of postings outside
the index; the block bar that lets `top_candidates` list fewer documents and still hold the k best; and the
ordering of ties that top_k's ranking takes from these kernels."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from argrank.kernels import bm25_numba, bm25_numpy
from argrank.kernels.bm25_numba import RUN, STRIDE
from argrank.kernels.bm25_numpy import DAMAGED, UNTOUCHED

from .test_bm25_numpy import postings_and_query

K1_PLUS_1 = 2.2


def plain_scores(indptr, indices, data, norm, query, idf, scale) -> dict[int, float]:
    """Each document the query reaches and its score, in the order the query's postings first reach it."""
    scores: dict[int, float] = {}
    for j, row in enumerate(query.tolist()):
        for i in range(int(indptr[row]), int(indptr[row + 1])):
            d, f = int(indices[i]), float(data[i])
            part = float(scale[j]) * (float(idf[j]) * (f * K1_PLUS_1 / (f + float(norm[d]))))
            scores[d] = scores.get(d, 0.0) + part
    return scores


@settings(max_examples=100, deadline=None)
@given(postings_and_query())
def test_scores_are_the_plain_sum_in_query_order_whether_factors_are_kept_or_computed(case):
    """`impacts` writes the kept rows' tf factors and no others; `accumulate` then `collect` list every document
    the query reaches once, in first-reach order, with the plain sum's score, and leave the table UNTOUCHED."""
    indptr, indices, data, norm, query, idf, scale, kept = case
    impact = np.zeros(len(indices))
    assert bm25_numba.impacts(indptr, indices, data, np.flatnonzero(kept), norm, K1_PLUS_1, impact) == 0
    for row in range(len(indptr) - 1):
        for i in range(int(indptr[row]), int(indptr[row + 1])):
            f = float(data[i])
            assert impact[i] == (f * K1_PLUS_1 / (f + float(norm[indices[i]])) if kept[row] else 0.0)
    table = np.full(len(norm), UNTOUCHED)
    result = bm25_numba.accumulate(indptr, indices, data, norm, K1_PLUS_1, impact, kept[query], query, idf, scale,
                                   table)  # fmt: skip
    assert result == 0
    candidates, scores = np.empty(len(norm), dtype=np.int32), np.empty(len(norm))
    n = bm25_numba.collect(indptr, indices, query, table, UNTOUCHED, candidates, scores)
    expected = plain_scores(indptr, indices, data, norm, query, idf, scale)
    assert candidates[:n].tolist() == list(expected)
    assert scores[:n].tobytes() == np.array(list(expected.values()), dtype=np.float64).tobytes()  # -0.0 is not 0.0
    assert np.all(table == UNTOUCHED)


def test_collect_lists_at_or_above_the_bar_and_clears_only_the_documents_the_query_reaches():
    """Documents below the bar are cleared but not listed, a document two rows reach is listed once, and a score
    the query's postings never reach is left in the table."""
    indptr = np.array([0, 3, 5], dtype=np.int64)
    indices = np.array([4, 0, 2, 2, 1], dtype=np.int32)
    table = np.array([1.0, 3.0, 2.0, 7.0, 2.0])
    candidates, scores = np.empty(5, dtype=np.int32), np.empty(5)
    n = bm25_numba.collect(indptr, indices, np.array([0, 1]), table, 2.0, candidates, scores)
    assert candidates[:n].tolist() == [4, 2, 1] and scores[:n].tolist() == [2.0, 2.0, 3.0]
    assert table.tolist() == [UNTOUCHED, UNTOUCHED, UNTOUCHED, 7.0, UNTOUCHED]


def _healthy() -> dict:
    """Two rows over three documents, every buffer large enough, the rows' tf factors kept."""
    return {
        "indptr": np.array([0, 2, 3], dtype=np.int64),
        "indices": np.array([0, 2, 1], dtype=np.int32),
        "data": np.array([1, 2, 3], dtype=np.int32),
        "norm": np.ones(3),
        "impact": np.ones(3),
        "cached": np.array([True, True]),
        "rows": np.array([0, 1], dtype=np.int64),
        "table": np.full(3, UNTOUCHED),
        "candidates": np.empty(3, dtype=np.int32),
        "block": 3,
    }


def _call(kernel: str, a: dict) -> int:
    idf, scale, scores = np.ones(2), np.ones(2), np.empty(3)
    if kernel == "impacts":
        return bm25_numba.impacts(a["indptr"], a["indices"], a["data"], a["rows"], a["norm"], K1_PLUS_1, a["impact"])
    if kernel == "accumulate":
        return bm25_numba.accumulate(a["indptr"], a["indices"], a["data"], a["norm"], K1_PLUS_1, a["impact"],
                                     a["cached"], a["rows"], idf, scale, a["table"])  # fmt: skip
    if kernel == "collect":
        return bm25_numba.collect(a["indptr"], a["indices"], a["rows"], a["table"], UNTOUCHED, a["candidates"], scores)
    return bm25_numba.top_candidates(a["indptr"], a["indices"], a["data"], a["norm"], K1_PLUS_1, a["impact"],
                                     a["cached"], a["rows"], idf, scale, a["table"], 2, a["block"], np.empty(RUN),
                                     a["candidates"], scores)  # fmt: skip


def _set(name, position, value):
    def damage(a):
        a[name][position] = value

    return damage


def _replace(name, value):
    def damage(a):
        a[name] = value

    return damage


DAMAGES = [
    ("impacts", "a document past the last", _set("indices", 1, 3)),
    ("impacts", "a negative document", _set("indices", 0, -1)),
    ("impacts", "a row ending before it starts", _set("indptr", 2, 1)),
    ("impacts", "a row past the postings", _set("indptr", 2, 4)),
    ("impacts", "an output shorter than the postings", _replace("impact", np.ones(2))),
    ("accumulate", "a document past the table", _set("indices", 1, 3)),
    ("accumulate", "a negative document", _set("indices", 2, -2)),
    ("accumulate", "fewer norms than documents", _replace("norm", np.ones(2))),
    ("accumulate", "kept factors shorter than the postings", _replace("impact", np.ones(2))),
    ("accumulate", "frequencies shorter than the postings", _replace("data", np.ones(2, dtype=np.int32))),
    ("collect", "a document past the table", _set("indices", 2, 3)),
    ("collect", "a row past the postings", _set("indptr", 2, 4)),
    ("top_candidates", "a candidates buffer shorter than the documents", _replace("candidates", np.empty(2, np.int32))),
    ("top_candidates", "a block of no documents", _replace("block", 0)),
    ("top_candidates", "a table shorter than a block", _replace("table", np.full(2, UNTOUCHED))),
    ("top_candidates", "a row past the postings", _set("indptr", 2, 4)),
    ("top_candidates", "a document past the last", _set("indices", 2, 3)),
    ("top_candidates", "a negative document", _set("indices", 0, -1)),
]


@pytest.mark.parametrize("kernel, what, damage", DAMAGES, ids=[f"{kernel}: {what}" for kernel, what, _ in DAMAGES])
def test_postings_or_buffers_outside_the_index_are_damaged_not_read(kernel, what, damage):
    """Compiled code has no bounds checks: each kernel checks what it indexes and returns DAMAGED instead."""
    assert _call(kernel, _healthy()) >= 0
    arguments = _healthy()
    damage(arguments)
    assert _call(kernel, arguments) == DAMAGED


@pytest.mark.parametrize("block", [10_000, 40_000])
def test_top_candidates_hold_the_k_best_with_their_plain_scores_yet_list_fewer(block):
    """Over four blocks or one, with a row queried twice: every listed score is the plain sum's, the k best by
    score (ties by document) are all listed, the bar keeps most reached documents out, the table ends UNTOUCHED."""
    rng = np.random.default_rng(5)
    documents = 40_000
    rows = [np.sort(rng.choice(documents, size, replace=False)) for size in (30_000, 12_000, 3_000)]
    indptr = np.cumsum([0, *map(len, rows)]).astype(np.int64)
    indices = np.concatenate(rows).astype(np.int32)
    data = rng.integers(1, 20, len(indices)).astype(np.uint16)
    norm = rng.uniform(0.3, 3.0, documents)
    query, idf, scale = np.array([0, 2, 1, 2]), np.array([0.4, 2.5, 1.1, 2.5]), np.array([1.0, 1.0, 0.5, 1.0])
    expected = plain_scores(indptr, indices, data, norm, query, idf, scale)
    table = np.full(min(block, documents), UNTOUCHED)
    candidates, scores = np.empty(documents, dtype=np.int32), np.empty(documents)
    for k in (1, 10, 100):
        sample = np.empty(min(block, documents) // STRIDE + RUN)
        n = bm25_numba.top_candidates(indptr, indices, data, norm, K1_PLUS_1, np.zeros(len(indices)),
                                      np.zeros(4, dtype=np.bool_), query, idf, scale, table, k, block, sample,
                                      candidates, scores)  # fmt: skip
        listed = dict(zip(candidates[:n].tolist(), scores[:n].tolist()))
        assert len(listed) == n < len(expected) // 4
        assert all(score == expected[d] for d, score in listed.items())
        best = sorted(expected, key=lambda d: (-expected[d], d))[:k]
        assert set(best) <= set(listed)
        assert np.all(table == UNTOUCHED)


def test_a_block_lists_nothing_below_the_bar_a_block_before_it_set():
    """The first block holds the query's best documents, the second many lower ones: the second lists none below
    the first's bar, though its own sample would set a lower one, and the k best are all listed."""
    rng = np.random.default_rng(11)
    documents, block, k = 20_000, 10_000, 20
    rows = [np.sort(rng.choice(block, 6_000, replace=False)), block + np.sort(rng.choice(block, 6_000, replace=False))]
    indptr = np.cumsum([0, *map(len, rows)]).astype(np.int64)
    indices = np.concatenate(rows).astype(np.int32)
    data = rng.integers(1, 20, len(indices)).astype(np.uint16)
    norm = rng.uniform(0.3, 3.0, documents)
    query, idf, scale = np.array([0, 1]), np.array([3.0, 1.0]), np.ones(2)
    expected = plain_scores(indptr, indices, data, norm, query, idf, scale)
    sample = np.empty(block // STRIDE + RUN)
    first = np.full(block, UNTOUCHED)
    first[rows[0]] = [expected[d] for d in rows[0].tolist()]
    first_bar = _bar(first, block, documents, k, sample)
    second = np.full(block, UNTOUCHED)
    second[rows[1] - block] = [expected[d] for d in rows[1].tolist()]
    assert _bar(second, block, documents, k, sample) < first_bar
    assert any(expected[d] < first_bar for d in rows[1].tolist())
    table, candidates, scores = np.full(block, UNTOUCHED), np.empty(documents, np.int32), np.empty(documents)
    n = bm25_numba.top_candidates(indptr, indices, data, norm, K1_PLUS_1, np.zeros(len(indices)),
                                  np.zeros(2, dtype=np.bool_), query, idf, scale, table, k, block, sample, candidates,
                                  scores)  # fmt: skip
    listed = dict(zip(candidates[:n].tolist(), scores[:n].tolist()))
    assert all(score >= first_bar for d, score in listed.items() if d >= block)
    assert set(sorted(expected, key=lambda d: (-expected[d], d))[:k]) <= set(listed)


def _bar(table, width, documents, k, kept, tally=None):
    """`_running_bar` for a query's first block (a fresh tally), or after the blocks `tally` counts."""
    return bm25_numba._running_bar(table, width, documents, k, kept, np.zeros(3, np.int64) if tally is None else tally)


def _sampled_positions(width: int) -> list[int]:
    """The block's positions the bar samples: the first RUN of every whole RUN·STRIDE."""
    whole = width - width % (RUN * STRIDE)
    return [i for start in range(0, whole, RUN * STRIDE) for i in range(start, start + RUN)]


@pytest.mark.parametrize("width, untouched", [(5_000, 0.0), (20_000, 0.3), (33_000, 0.8)])
def test_a_first_blocks_bar_is_a_sampled_score_that_share_times_the_samples_part_of_the_k_best_reach(width, untouched):
    """The bar of a query's first block is one of the sampled scores the query reached; at least SHARE times the
    sample's expected share of the k best are at or above it; a larger k never raises it; scores outside the sample do
    not move it."""
    rng = np.random.default_rng(width)
    documents = 60_000
    table = rng.normal(5.0, 2.0, width)
    table[rng.random(width) < untouched] = UNTOUCHED
    positions = _sampled_positions(width)
    reached = [float(table[i]) for i in positions if table[i] != UNTOUCHED]
    sample = np.empty(width // STRIDE + RUN)
    bars = []
    for k in (1, 50, 400, 1_500):
        bar = _bar(table, width, documents, k, sample)
        assert bar in reached
        assert sum(score >= bar for score in reached) >= bm25_numba.SHARE * k * width / (documents * STRIDE)
        bars.append(bar)
        elsewhere = table.copy()
        outside = np.ones(width, dtype=bool)
        outside[positions] = False
        elsewhere[outside] = rng.normal(50.0, 1.0, int(outside.sum()))
        assert _bar(elsewhere, width, documents, k, sample) == bar
    assert bars == sorted(bars, reverse=True)


def test_the_bar_lists_everything_where_there_is_too_little_to_sample():
    """UNTOUCHED (no bar) where the kept scores are fewer than the bar's rank, for a block narrower than one
    RUN·STRIDE, and for a block whose sampled documents the query never reached."""
    width, documents = 4_096, 8_192
    table = np.linspace(1.0, 2.0, width)
    rank = -(-bm25_numba.SHARE * width // (documents * STRIDE)) + bm25_numba.MARGIN  # k = 1
    largest_first = sorted(table[_sampled_positions(width)], reverse=True)
    assert _bar(table, width, documents, 1, np.empty(bm25_numba.sample_length(1))) == largest_first[rank - 1]
    assert _bar(table, width, documents, 1, np.empty(rank)) != UNTOUCHED
    assert _bar(table, width, documents, 1, np.empty(rank - 1)) == UNTOUCHED
    narrow = RUN * STRIDE - 1
    assert _bar(table, narrow, documents, 1, np.empty(bm25_numba.sample_length(1))) == UNTOUCHED
    unreached = table.copy()
    unreached[_sampled_positions(width)] = UNTOUCHED
    assert _bar(unreached, width, documents, 1, np.empty(bm25_numba.sample_length(1))) == UNTOUCHED


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(RUN * STRIDE, 6 * RUN * STRIDE), min_size=1, max_size=5), st.integers(1, 300),
       st.sampled_from([0.0, 0.5, 0.9]), st.integers(0, 2**32 - 1))  # fmt: skip
def test_each_blocks_bar_is_the_rank_th_largest_of_every_sampled_score_so_far(widths, k, untouched, seed):
    """After each block, the bar is the rank-th largest (numpy's partition, ties included) of the reached scores
    sampled in it and the blocks before it, rank being SHARE times their widths' expected share of the k best, and
    MARGIN; UNTOUCHED where no more than rank were reached."""
    rng = np.random.default_rng(seed)
    documents = 4 * sum(widths)
    kept, tally, sampled = np.empty(bm25_numba.sample_length(k)), np.zeros(3, np.int64), []
    for b, width in enumerate(widths):
        table = rng.choice([0.5, 1.0, 2.5, 3.0], width) if b % 2 else rng.normal(5.0, 2.0, width)
        table[rng.random(width) < untouched] = UNTOUCHED
        sampled += [float(table[i]) for i in _sampled_positions(width) if table[i] != UNTOUCHED]
        rank = -(-bm25_numba.SHARE * k * sum(widths[: b + 1]) // (documents * STRIDE)) + bm25_numba.MARGIN
        bar = _bar(table, width, documents, k, kept, tally)
        if len(sampled) <= rank:
            assert bar == UNTOUCHED
        else:
            assert bar == np.partition(np.array(sampled), len(sampled) - rank)[len(sampled) - rank]


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 400), st.integers(1, 12), st.integers(0, 2**32 - 1))
def test_order_ties_puts_each_run_of_equal_scores_in_candidate_order_as_numpy_does(n, distinct, seed):
    """Few distinct scores make long runs (sorted by argsort) and short ones (by insertion); the result is
    np.lexsort's, and bm25_numpy's twin's."""
    rng = np.random.default_rng(seed)
    candidates = rng.permutation(n * 4 + 1)[:n].astype(np.int32)
    scores = rng.integers(-distinct, distinct, n) / 3.0
    compiled, plain = np.argsort(-scores), np.argsort(-scores)
    assert bm25_numba.order_ties(compiled, scores, candidates) == 0
    assert bm25_numpy.order_ties(plain, scores, candidates) == 0
    assert compiled.tolist() == plain.tolist() == np.lexsort((candidates, -scores)).tolist()


@pytest.mark.parametrize("kernel", [bm25_numba.order_ties, bm25_numpy.order_ties])
@pytest.mark.parametrize("position", [-1, 3])
def test_order_ties_refuses_a_position_outside_the_candidates(kernel, position):
    order = np.array([0, position, 1], dtype=np.int64)
    assert kernel(order, np.ones(3), np.arange(3, dtype=np.int32)) == DAMAGED
    assert kernel(np.array([0, 2], dtype=np.int64), np.ones(3), np.arange(2, dtype=np.int32)) == DAMAGED
