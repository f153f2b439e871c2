"""retrieval/expansion.py: RM3 and Bo1 against their formulas worked by hand on two feedback documents; the
queries a run's ranking expands; the token table's counts; weighted queries ranked as their terms' weights say."""

from __future__ import annotations

import math

import pyarrow as pa
import pytest

from argrank.index.build import build_index
from argrank.retrieval.expansion import Collection, Feedback, bo1, collection_of, expand_queries, rm3
from argrank.retrieval.registry import make_ranker
from argrank.retrieval.search import rank_queries

# Two feedback documents of four terms each, the first scoring three times the second.
FEEDBACK = [Feedback(3.0, {"a": 2, "c": 2}), Feedback(1.0, {"c": 1, "d": 3})]
COLLECTION = Collection(10, {"a": 5, "b": 1, "c": 2, "d": 20}.get)


def test_rm3_interpolates_the_query_with_the_relevance_model_of_its_heaviest_terms():
    # P(d1) = 3/4, P(d2) = 1/4: P(a|R) = 3/4·2/4 = 0.375, P(c|R) = 3/4·2/4 + 1/4·1/4 = 0.4375, P(d|R) = 1/4·3/4.
    # The two heaviest, c and a, renormalised over 0.8125; P(a|Q) = P(b|Q) = 1/2; λ = 0.6.
    weights = rm3(["a", "b"], FEEDBACK, COLLECTION, fb_terms=2, fb_lambda=0.6)
    assert weights == pytest.approx({"a": 0.6 * 0.5 + 0.4 * 0.375 / 0.8125, "b": 0.3, "c": 0.4 * 0.4375 / 0.8125})
    assert sum(weights.values()) == pytest.approx(1.0)
    assert rm3(["a"], FEEDBACK, COLLECTION, fb_terms=2, fb_lambda=1.0) == pytest.approx({"a": 1.0, "c": 0.0})


def test_bo1_adds_its_heaviest_terms_by_bose_einstein_divergence_over_the_heaviest():
    def divergence(tfx, frequency):
        pn = frequency / 10
        return tfx * math.log2((1 + pn) / pn) + math.log2(1 + pn)

    # tfx: a 2, c 3, d 3; F: a 5, c 2, d 20 of N = 10. c weighs most, then a; d (Pn 2) least.
    assert divergence(3, 2) > divergence(2, 5) > divergence(3, 20)
    weights = bo1(["a"], FEEDBACK, COLLECTION, fb_terms=2)
    assert weights == pytest.approx({"a": 1.0 + divergence(2, 5) / divergence(3, 2), "c": 1.0})


def test_ties_between_candidate_terms_are_broken_by_the_term():
    feedback = [Feedback(1.0, {"z": 1, "y": 1, "x": 1})]
    assert list(rm3(["q"], feedback, COLLECTION, fb_terms=2, fb_lambda=0.5)) == ["q", "x", "y"]


def _index():
    ids = [f"d{i}" for i in range(6)]
    docs = [["a", "c", "c"], ["a", "b"], ["c", "d", "d"], ["b", "e"], ["e", "e", "f"], ["a", "c", "f"]]
    return build_index(pa.array(ids), pa.array(docs, type=pa.list_(pa.string()))), dict(zip(ids, docs))


def test_a_runs_ranking_expands_its_queries_and_a_query_without_feedback_keeps_its_terms():
    index, docs = _index()
    ranking = pa.table({"qid": ["1", "1", "2"], "doc": ["d0", "d5", "d3"], "rank": [1, 2, 1], "score": [2.0, 1.0, 1.0]})
    queries = pa.table({"qid": ["1", "2", "3"], "terms": [["a"], ["b", "b"], ["zzz"]]})
    counts = {doc: {term: terms.count(term) for term in terms} for doc, terms in docs.items()}
    table = expand_queries(queries, ranking, counts, collection_of(index), "rm3", {"fb_docs": 1, "fb_terms": 2})
    rows = table.to_pylist()
    assert rows[0]["terms"][0] == "a" and set(rows[0]["terms"]) == {"a", "c"}  # d0 alone: a and c
    assert rows[2] == {"qid": "3", "terms": ["zzz"], "weights": [1.0]}  # no feedback: the query as it was


@pytest.mark.parametrize("method", ["bm25", "dirichlet"])
def test_weights_of_one_rank_as_the_plain_query_and_a_weight_scales_a_terms_part(method):
    index, _ = _index()
    ranker = make_ranker(index, method, {})
    plain = rank_queries(index, pa.table({"qid": ["1"], "terms": [["a", "c"]]}), ranker, 10)
    ones = pa.table({"qid": ["1"], "terms": [["a", "c", "unknown"]], "weights": [[1.0, 1.0, 5.0]]})
    assert rank_queries(index, ones, ranker, 10).equals(plain)
    term_ids = ranker.term_ids(["a", "c"])
    docs, scores = ranker.score(term_ids, [2.0, 0.5])
    parts = [dict(zip(*ranker.score([t]))) for t in term_ids]
    if method == "bm25":  # a sum of each term's part, weighted
        for doc, score in zip(docs.tolist(), scores.tolist()):
            assert score == pytest.approx(2.0 * parts[0].get(doc, 0.0) + 0.5 * parts[1].get(doc, 0.0))
    else:  # each term's log-likelihood, length term included, counts its weight's times
        lengths = index.doc_lengths[docs].astype(float)
        background = ranker.background
        tf = {t: dict(zip(index.postings.indices[index.postings.indptr[r]:index.postings.indptr[r + 1]].tolist(),
                          index.postings.data[index.postings.indptr[r]:index.postings.indptr[r + 1]].tolist()))
              for t, r in zip(term_ids, ranker.rows[term_ids])}  # fmt: skip
        expected = [sum(w * math.log(tf[t].get(d, 0) + 2000 * background[t]) for t, w in zip(term_ids, [2.0, 0.5]))
                    - 2.5 * math.log(length + 2000) for d, length in zip(docs.tolist(), lengths)]  # fmt: skip
        assert scores == pytest.approx(expected)
