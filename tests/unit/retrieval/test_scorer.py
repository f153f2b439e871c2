"""retrieval/scorer.py: what every registered model shares. Query terms are numbered by the collection's statistics
(a shard's scorer knows terms its own index lacks), each statistics term is mapped to its row of the index's
postings or to -1, and `top` is the k best of the model's `score`, ties by document id."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from argrank.index.build import build_index
from argrank.index.statistics import CollectionStatistics, merge_statistics
from argrank.retrieval.scorer import PostingsScorer, postings_rows

TOKENS = pa.list_(pa.string())
SHARDS = [
    (["a1", "a2", "a3"], [["war", "peace"], ["peace", "tax", "tax"], []]),
    (["b1", "b2"], [["zoo", "war"], ["vote"]]),
]


def _index(ids, docs):
    return build_index(pa.array(ids, pa.string()), pa.array(docs, TOKENS))


@pytest.fixture(scope="module")
def shards():
    indexes = [_index(ids, docs) for ids, docs in SHARDS]
    return indexes, merge_statistics(indexes)


def test_each_statistics_term_maps_to_its_row_of_the_shards_postings_or_minus_one(shards):
    indexes, statistics = shards
    for index in indexes:
        rows = postings_rows(index, statistics)
        own = index.terms.to_pylist()
        expected = [own.index(term) if term in own else -1 for term in statistics.terms.to_pylist()]
        assert rows.tolist() == expected and rows.dtype == np.int64
        assert -1 in expected  # each shard lacks some of the collection's terms


def test_an_index_with_its_own_statistics_maps_every_term_to_its_own_row():
    index = _index(*SHARDS[0])
    assert postings_rows(index, CollectionStatistics.of_index(index)).tolist() == list(range(len(index.terms)))


def test_the_same_terms_in_another_order_are_looked_up_not_taken_as_the_same():
    """Only statistics whose terms equal the index's, order included, may skip the lookup."""
    index = _index(*SHARDS[0])
    own = CollectionStatistics.of_index(index)
    reversed_terms = pa.array(index.terms.to_pylist()[::-1], pa.string())
    statistics = CollectionStatistics(
        reversed_terms, own.document_frequencies[::-1], None, own.num_docs, own.total_length
    )
    assert postings_rows(index, statistics).tolist() == list(range(len(index.terms)))[::-1]


class Fixed(PostingsScorer):
    """A scorer whose candidates and scores are given, to see what the base class does with them."""

    candidates = np.array([4, 0, 3, 1, 2], dtype=np.int32)
    scores = np.array([1.0, 2.0, 2.0, 0.5, 2.0])

    def score(self, term_ids, weights=None):
        self.asked = list(term_ids)
        return self.candidates, self.scores


def test_query_terms_are_the_statistics_ids_in_query_order_with_repeats_and_unknown_terms_dropped(shards):
    indexes, statistics = shards
    scorer = Fixed(indexes[0], statistics)
    ids = {term: i for i, term in enumerate(statistics.terms.to_pylist())}
    query = ["vote", "war", "nowhere", "war", "tax"]  # vote: only in the other shard
    assert scorer.term_ids(query) == [ids["vote"], ids["war"], ids["war"], ids["tax"]]
    lists = pa.array([query, None, [], ["nowhere"], ["zoo"]], TOKENS)
    assert scorer.term_ids_of_lists(lists) == [scorer.term_ids(terms or []) for terms in lists.to_pylist()]


def test_without_statistics_the_scorer_uses_the_indexs_own():
    index = _index(*SHARDS[1])
    scorer = Fixed(index)
    assert scorer.statistics.terms.equals(index.terms) and scorer.statistics.num_docs == index.num_docs
    assert scorer.rows.tolist() == list(range(len(index.terms)))
    assert scorer.term_ids(["vote", "zoo"]) == [index.terms.to_pylist().index(t) for t in ("vote", "zoo")]
    assert scorer.doc_lengths is index.doc_lengths and scorer.doc_lengths.dtype.kind in "iu"


@pytest.mark.parametrize("k, expected", [(0, []), (1, [0]), (3, [0, 2, 3]), (10, [0, 2, 3, 4, 1])])
def test_top_is_the_k_best_of_score_ties_by_document_id(shards, k, expected):
    indexes, statistics = shards
    scorer = Fixed(indexes[0], statistics)
    docs, scores = scorer.top([2, 5], k)
    assert scorer.asked == [2, 5]
    assert docs.tolist() == expected
    assert scores.tolist() == [dict(zip(Fixed.candidates.tolist(), Fixed.scores.tolist()))[d] for d in expected]


def test_top_many_is_top_of_each_query_in_order(shards):
    indexes, statistics = shards
    scorer = Fixed(indexes[0], statistics)
    asked = []
    scorer.score = lambda term_ids, weights=None: (asked.append(list(term_ids)), (Fixed.candidates, Fixed.scores))[1]
    tops = scorer.top_many([[2, 5], [1], []], 3)
    assert asked == [[2, 5], [1], []]
    assert [(docs.tolist(), scores.tolist()) for docs, scores in tops] == [([0, 2, 3], [2.0, 2.0, 2.0])] * 3
    assert scorer.top_many([], 3) == []
