"""Our sparse BM25 against rank-bm25 (the reference), Dirichlet LM against a direct formula, and top-k tie-breaking."""

from __future__ import annotations

import dataclasses
import json
import math

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from rank_bm25 import BM25Okapi

from argrank.formats.token_table import TERMS_KEY
from argrank.index.build import build_index, index_codes, read_token_codes, read_tokens
from argrank.index.statistics import CollectionStatistics
from argrank.index.store import load_index, save_index
from argrank.kernels.bm25_numba import RUN, STRIDE
from argrank.retrieval.models import bm25 as bm25_model
from argrank.retrieval.registry import make_ranker, resolve_params
from argrank.retrieval.top_k import top_k


def zipf_corpus(num_docs: int, seed: int = 7) -> tuple[list[str], list[list[str]]]:
    """Seeded documents over a Zipfian vocabulary, with a few very common terms (idf < 0) and empty documents."""
    rng = np.random.default_rng(seed)
    vocabulary = [f"t{i}" for i in range(3000)]
    ids, docs = [], []
    for i in range(num_docs):
        length = 0 if i % 97 == 0 else int(rng.lognormal(3.5, 0.9))
        ranks = np.minimum(rng.zipf(1.3, size=length), len(vocabulary)) - 1
        tokens = [vocabulary[r] for r in ranks]
        if rng.random() < 0.7:
            tokens.append("common")
        ids.append(f"S{rng.integers(1 << 32):08x}-A{i:09x}")
        docs.append(tokens)
    return ids, docs


@pytest.fixture(scope="module")
def corpus():
    ids, docs = zipf_corpus(2500)
    index = build_index(pa.array(ids), pa.array(docs, type=pa.list_(pa.string())))
    return ids, docs, index


QUERIES = [["t0", "t5", "t17"], ["common", "t3"], ["t1", "t1", "t250"], ["t2999", "missing"], ["t42"]]


def bm25(index, params: dict, kernels):
    """A BM25 ranker that scores with the given kernels, whatever the process has loaded."""
    ranker = make_ranker(index, "bm25", params)
    ranker.kernels = kernels
    return ranker


@pytest.mark.parametrize("k1,b", [(1.5, 0.75), (1.2, 0.4), (0.9, 0.95), (2, 0)])  # whole numbers: YAML's ints
def test_bm25_scores_identical_to_rank_bm25(corpus, k1, b, kernels):
    ids, docs, index = corpus
    order = sorted(range(len(ids)), key=ids.__getitem__)
    reference = BM25Okapi([docs[i] for i in order], k1=k1, b=b, epsilon=0.25)
    ours = bm25(index, {"k1": k1, "b": b, "epsilon": 0.25}, kernels)
    assert index.doc_ids.to_pylist() == [ids[i] for i in order]
    # Three rounds: a term's tf factors are computed in the loop at its first query, kept at its second, read after.
    for query in QUERIES * 3:
        expected = reference.get_scores(query)
        candidates, scores = ours.score(index.vocabulary.ids(query))
        # Each document holding a query term once (one ranker scores every query: nothing left from the one before).
        holding = {i for i, d in enumerate(docs[i] for i in order) if set(d) & set(query)}
        assert sorted(candidates.tolist()) == sorted(holding)
        full = np.zeros(index.num_docs)
        full[candidates] = scores
        np.testing.assert_array_equal(full, expected)
        # The top 1,000 are the same documents in the same order, ties broken by id.
        docs_top, _ = top_k(candidates, scores, 1000)
        expected_top = np.lexsort((np.arange(len(expected)), -expected))[: len(docs_top)]
        assert docs_top.tolist() == expected_top.tolist()


def test_bm25_floors_negative_idf_like_rank_bm25(corpus):
    _, _, index = corpus
    ranker = make_ranker(index, "bm25", {})
    common = index.vocabulary.ids(["common"])[0]
    assert index.document_frequencies[common] > index.num_docs / 2
    assert 0 < ranker.idf[common] < ranker.idf[index.vocabulary.ids(["t42"])[0]]


def test_dirichlet_matches_query_likelihood_formula(corpus):
    ids, docs, index = corpus
    mu = 500.0
    ranker = make_ranker(index, "dirichlet", {"mu": mu})
    total = sum(len(d) for d in docs)
    cf: dict[str, int] = {}
    for d in docs:
        for t in d:
            cf[t] = cf.get(t, 0) + 1
    by_id = dict(zip(ids, docs))
    query = ["t0", "t5", "t5", "t999"]
    candidates, scores = ranker.score(index.vocabulary.ids(query))
    for column, score in zip(candidates[:200], scores[:200]):
        doc = by_id[index.doc_ids[column].as_py()]
        expected = sum(math.log((doc.count(t) + mu * cf[t] / total) / (len(doc) + mu)) for t in query)
        assert score == pytest.approx(expected, rel=1e-12)
    assert set(candidates.tolist()) == {i for i, d in enumerate(index.doc_ids.to_pylist()) if set(by_id[d]) & set(query)}


def test_top_k_breaks_ties_by_document_id():
    candidates = np.array([0, 1, 2, 3, 4, 5])
    scores = np.array([1.0, 3.0, 1.0, 3.0, 2.0, 1.0])
    docs, ordered = top_k(candidates, scores, 4)
    assert docs.tolist() == [1, 3, 4, 0]
    assert ordered.tolist() == [3.0, 3.0, 2.0, 1.0]
    assert [part.tolist() for part in top_k(candidates, scores, 0)] == [[], []]  # was a numpy IndexError


def test_index_round_trips_through_disk(corpus, tmp_path):
    _, _, index = corpus
    save_index(index, tmp_path / "index")
    loaded = load_index(tmp_path / "index")
    _assert_same_index(loaded, index)
    assert loaded.postings.shape == index.postings.shape


def test_index_numbers_terms_by_first_occurrence_in_id_order_and_counts_postings(corpus):
    ids, docs, index = corpus
    terms: dict[str, int] = {}
    expected: dict[tuple[int, int], int] = {}
    for column, row in enumerate(sorted(range(len(ids)), key=lambda i: ids[i])):
        for token in docs[row]:
            term = terms.setdefault(token, len(terms))
            expected[term, column] = expected.get((term, column), 0) + 1
    assert index.terms.to_pylist() == list(terms)
    coo = index.postings.matrix().tocoo()
    assert dict(zip(zip(coo.row.tolist(), coo.col.tolist()), coo.data.tolist())) == expected
    assert index.doc_lengths.tolist() == [len(docs[i]) for i in sorted(range(len(ids)), key=lambda i: ids[i])]


def _assert_same_index(rebuilt, index):
    assert rebuilt.terms.equals(index.terms) and rebuilt.doc_ids.equals(index.doc_ids)
    for name in ("indptr", "indices", "data"):
        np.testing.assert_array_equal(getattr(rebuilt.postings, name), getattr(index.postings, name))
    np.testing.assert_array_equal(rebuilt.doc_lengths, index.doc_lengths)


def _write_token_table(path, ids, docs, row_group_size=None) -> None:
    """A token table as the tokenize stage writes it: codes in the lists, the terms in the metadata."""
    terms: dict[str, int] = {}
    coded = [None if doc is None else [terms.setdefault(t, len(terms)) for t in doc] for doc in docs]
    table = pa.table({"id": ids, "tokens": pa.array(coded, type=pa.list_(pa.int32()))})
    pq.write_table(table.replace_schema_metadata({TERMS_KEY: json.dumps(list(terms))}), path, row_group_size=row_group_size)


def test_index_from_a_token_table_is_the_same(corpus, tmp_path):
    """The token table read whole with each chunk's terms as a dictionary (read_tokens) or a row group at a time
    into codes (read_token_codes, as BuildIndex reads it): the index must not change."""
    ids, docs, index = corpus
    _write_token_table(tmp_path / "tokens.parquet", ids, docs, row_group_size=300)  # several chunks
    read_ids, tokens = read_tokens(tmp_path / "tokens.parquet")
    assert tokens.num_chunks > 1 and pa.types.is_dictionary(tokens.type.value_type)
    _assert_same_index(build_index(read_ids, tokens), index)
    _assert_same_index(index_codes(read_token_codes(tmp_path / "tokens.parquet")), index)


def test_a_null_token_list_is_an_empty_document(tmp_path):
    """A null list (a document with no text field) counts as no tokens, in either reader."""
    ids, docs = ["b", "a", "c"], [["x", "y", "x"], None, []]
    _write_token_table(tmp_path / "tokens.parquet", ids, docs)
    table = pa.table({"id": ids, "tokens": pa.array(docs, pa.list_(pa.string()))})
    for built in (build_index(table["id"], table["tokens"]), index_codes(read_token_codes(tmp_path / "tokens.parquet"))):
        assert built.doc_ids.to_pylist() == ["a", "b", "c"] and built.doc_lengths.tolist() == [0, 3, 0]
        assert built.terms.to_pylist() == ["x", "y"]
        assert built.postings.matrix().toarray().tolist() == [[0, 2, 0], [0, 1, 0]]


@pytest.mark.parametrize("longest", [65_535, 65_536])
def test_frequencies_are_uint16_where_every_document_is_shorter_than_its_range(longest, tmp_path):
    """A posting's frequency is at most its document's length: a document of 65,536 tokens of one term, which
    uint16 would wrap to 0, makes the index's frequencies int32, and the score is rank-bm25's either way."""
    docs = [["w"] * longest, ["w", "x"], ["x"]]
    ids = ["a", "b", "c"]
    index = build_index(pa.array(ids), pa.array(docs, type=pa.list_(pa.string())))
    assert index.postings.data.dtype == (np.uint16 if longest < 65_536 else np.int32)
    assert index.postings.matrix().toarray().tolist() == [[longest, 1, 0], [0, 1, 1]]
    save_index(index, tmp_path / "index")
    assert load_index(tmp_path / "index").postings.data.dtype == index.postings.data.dtype
    expected = BM25Okapi(docs, k1=1.2, b=0.75, epsilon=0.25).get_scores(["w"])
    _, scores = make_ranker(index, "bm25", {}).score(index.vocabulary.ids(["w"]))
    assert scores.tolist() == expected[:2].tolist()


def test_parameters_are_checked():
    assert resolve_params("bm25", {"k1": 2}) == {"k1": 2.0, "b": 0.75, "epsilon": 0.25}
    with pytest.raises(ValueError, match="unknown parameter"):
        resolve_params("bm25", {"mu": 10})
    with pytest.raises(ValueError, match="unknown ranking method"):
        resolve_params("tfidf", {})
    with pytest.raises(ValueError, match="finite number"):
        resolve_params("dirichlet", {"mu": "big"})


@pytest.mark.parametrize("method", ["bm25", "dirichlet"])
def test_explicit_statistics_of_the_index_change_nothing(corpus, method):
    """The statistics a shard is scored with default to the index's own: passing those gives the same scores."""
    _, _, index = corpus
    default = make_ranker(index, method, {})
    explicit = make_ranker(index, method, {}, CollectionStatistics.of_index(index))
    assert default.rows.tolist() == list(range(len(index.terms)))
    for query in QUERIES:
        assert default.term_ids(query) == index.vocabulary.ids(query) == explicit.term_ids(query)
        term_ids = index.vocabulary.ids(query)
        for got, expected in zip(explicit.score(term_ids), default.score(term_ids)):
            np.testing.assert_array_equal(got, expected)


def _damageable(index):
    """A copy of `index` whose posting lists can be damaged without touching the original's."""
    return dataclasses.replace(index, postings=dataclasses.replace(index.postings, indices=index.postings.indices.copy()))


@pytest.mark.parametrize("queried", [0, 1, 2])
@pytest.mark.parametrize("damage", [5, -3])
def test_bm25_refuses_a_posting_outside_the_index(corpus, kernels, damage, queried):
    """The compiled loop has no bounds checks of its own, and numpy wraps a negative index: a damaged posting is an
    error, not a foreign write or a wrong score, whether the loop computes the term's tf factors (its first query),
    `impacts` keeps them (its second) or the loop reads them (later)."""
    _, _, built = corpus
    index = _damageable(built)  # the fixture is shared: damage a copy
    ranker = bm25(index, {}, kernels)
    query = index.vocabulary.ids(["t0"])
    for _ in range(queried):
        ranker.score(query)
    first = index.postings.indptr[ranker.rows[query[0]]]
    index.postings.indices[first] = damage if damage < 0 else index.num_docs + damage
    with pytest.raises(ValueError, match="index is damaged"):
        ranker.score(query)


def test_bm25_refuses_a_posting_damaged_before_its_term_is_first_queried(corpus, kernels):
    """A damaged posting of a term never queried before is found by the query that first reads it, and the ranker
    still answers queries of other terms."""
    _, _, built = corpus
    index = _damageable(built)
    ranker = bm25(index, {}, kernels)
    index.postings.indices[-1] = -3
    last_row = len(index.postings.indptr) - 2
    damaged = [int(np.flatnonzero(ranker.rows == last_row)[0])]
    with pytest.raises(ValueError, match="index is damaged"):
        ranker.score(damaged)
    other = index.vocabulary.ids(["t0"])
    assert other != damaged
    np.testing.assert_array_equal(ranker.score(other)[1], make_ranker(built, "bm25", {}).score(other)[1])


def test_top_is_top_k_of_the_scores_where_the_sampled_documents_are_the_best(kernels):
    """BM25's `top` lists the documents above a bar read from a sample of the scores (the first RUN documents of
    every RUN·STRIDE): where exactly those documents score best, fewer than k clear the bar, and the query is
    scored again with every document listed."""
    ids = [f"d{i:05d}" for i in range(RUN * STRIDE * 10)]
    sampled = [i % (RUN * STRIDE) < RUN for i in range(len(ids))]
    docs = [["x"] * (5 if best else 1) + ["filler"] * 4 for best in sampled]
    index = build_index(pa.array(ids), pa.array(docs, type=pa.list_(pa.string())))
    ranker = bm25(index, {}, kernels)
    term_ids = index.vocabulary.ids(["x"])
    for k in (5, 60, 100, 200):
        for got, expected in zip(ranker.top(term_ids, k), top_k(*ranker.score(term_ids), k)):
            np.testing.assert_array_equal(got, expected)
    assert len(ranker.top(term_ids, 100)[0]) == 100 > sum(sampled)


@pytest.mark.parametrize("method", ["bm25", "dirichlet"])
def test_top_is_top_k_of_the_scores(corpus, method):
    """A scorer's `top` (BM25's selects in its own buffers) is top_k of its `score`, whatever k and query order."""
    _, _, index = corpus
    ranker = make_ranker(index, method, {})
    for k in (0, 1, 7, 250, 10_000):
        for query in [*QUERIES, *reversed(QUERIES)]:
            term_ids = index.vocabulary.ids(query)
            for got, expected in zip(ranker.top(term_ids, k), top_k(*ranker.score(term_ids), k)):
                np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("room", [bm25_model.ROOM, 3000, 0])
def test_top_many_ranks_each_query_as_top_alone(corpus, kernels, monkeypatch, room):
    """Queries ranked together (their candidates listed one after another in the buffers, selected from when the
    buffers' room is used up) are each ranked as `top` ranks it alone, whatever k, the room and the query order."""
    _, _, index = corpus
    monkeypatch.setattr(bm25_model, "ROOM", room)
    queries = [index.vocabulary.ids(query) for query in [*QUERIES, [], *reversed(QUERIES)]]
    together, alone = bm25(index, {}, kernels), bm25(index, {}, kernels)
    for k in (0, 1, 7, 250, 10_000):
        tops = together.top_many(queries, k)
        assert len(tops) == len(queries)
        for (docs, scores), query in zip(tops, queries):
            expected_docs, expected_scores = alone.top(query, k)
            np.testing.assert_array_equal(docs, expected_docs)
            np.testing.assert_array_equal(scores, expected_scores)


def test_top_many_refuses_a_damaged_posting_and_ranks_again_after(corpus, kernels):
    _, _, built = corpus
    index = _damageable(built)
    ranker = bm25(index, {}, kernels)
    damaged = index.vocabulary.ids(["t0"])
    saved = index.postings.indices[index.postings.indptr[ranker.rows[damaged[0]]]]
    index.postings.indices[index.postings.indptr[ranker.rows[damaged[0]]]] = -3
    with pytest.raises(ValueError, match="index is damaged"):
        ranker.top_many([index.vocabulary.ids(["t5"]), damaged], 10)
    index.postings.indices[index.postings.indptr[ranker.rows[damaged[0]]]] = saved
    fresh = bm25(built, {}, kernels)
    for got, expected in zip(ranker.top_many([damaged], 10)[0], fresh.top(damaged, 10)):
        np.testing.assert_array_equal(got, expected)
