"""retrieval/search.py: the ranking table of a run's queries against rank-bm25 (BM25's reference): queries in the
given order, each one's documents holding a query term by score, ties by id, ranked from 1 and cut at the depth;
a query no term of which the index knows is left out and warned about unless a shard's caller says not to;
weighted (expanded) queries are scored with their known terms' weights."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from rank_bm25 import BM25Okapi

from argrank.formats.topics import Topic
from argrank.index.build import build_index
from argrank.retrieval.formulations import title, title_and_description
from argrank.retrieval.queries import analyze_topics
from argrank.retrieval.registry import make_ranker
from argrank.retrieval import search
from argrank.retrieval.search import RANKING_SCHEMA, rank_queries, rank_topics

# Ids out of order (the index sorts them); d2 and d9 are the same text, so they tie on every query.
DOCUMENTS = {
    "d9": "nuclear power is safe and clean",
    "d4": "wind power is clean power",
    "d7": "nuclear waste lasts for millennia",
    "d2": "nuclear power is safe and clean",
    "d5": "coal is cheap",
    "d1": "solar and wind are clean energy sources",
    "d8": "",
}
QUERIES = pa.table(
    {
        "qid": ["7", "1", "30", "2", "4"],
        "terms": [["nuclear", "power"], ["clean", "clean", "energy"], ["fusion"], None, ["wind", "millennia", "coal"]],
    }
)
LOGGER = "argrank.retrieval.search"


@pytest.fixture(scope="module")
def index():
    return build_index(pa.array(list(DOCUMENTS), pa.string()), pa.array([d.split() for d in DOCUMENTS.values()]))


def reference(queries: pa.Table, depth: int) -> list[tuple[str, str, int, float]]:
    """rank-bm25's scores of the documents holding a query term, best first, ties by id, the top `depth`."""
    ids = sorted(DOCUMENTS)
    bm25 = BM25Okapi([DOCUMENTS[i].split() for i in ids], k1=1.2, b=0.75, epsilon=0.25)
    rows = []
    for qid, terms in zip(queries.column("qid").to_pylist(), queries.column("terms").to_pylist()):
        scores = bm25.get_scores(terms or [])
        holding = [i for i, doc in enumerate(ids) if set(DOCUMENTS[doc].split()) & set(terms or [])]
        ranked = sorted(holding, key=lambda i: (-scores[i], ids[i]))[:depth]
        rows += [(qid, ids[i], rank, float(scores[i])) for rank, i in enumerate(ranked, 1)]
    return rows


@pytest.mark.parametrize("depth", [1, 3, 1000])
def test_the_ranking_is_rank_bm25s_in_query_order_cut_at_depth(index, depth):
    ranking = rank_queries(index, QUERIES, make_ranker(index, "bm25", {}), depth)
    assert ranking.schema.equals(RANKING_SCHEMA)
    assert [tuple(row.values()) for row in ranking.to_pylist()] == reference(QUERIES, depth)
    ties = ranking.filter(pc.equal(ranking.column("qid"), "7")).column("doc").to_pylist()
    assert ties[:2] == ["d2", "d9"][:depth]


@pytest.mark.parametrize("batch", [1, 2, 64])
def test_queries_ranked_in_batches_are_ranked_as_each_alone(index, monkeypatch, batch):
    """The run's queries are ranked BATCH at a time (Scorer.top_many), skipped queries between them: each is still
    rank-bm25's ranking under its own qid."""
    monkeypatch.setattr(search, "BATCH", batch)
    repeated = pa.concat_tables([QUERIES] * 3)
    ranking = rank_queries(index, repeated, make_ranker(index, "bm25", {}), 3)
    assert [tuple(row.values()) for row in ranking.to_pylist()] == reference(repeated, 3)


def test_queries_without_a_known_term_are_left_out_and_warned_about_in_order(index, caplog):
    ranker = make_ranker(index, "bm25", {})
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        ranking = rank_queries(index, QUERIES, ranker, 10)
    assert "30" not in ranking.column("qid").to_pylist() and "2" not in ranking.column("qid").to_pylist()
    assert [record.getMessage() for record in caplog.records] == [
        f"topic {qid}: no query term occurs in the index, so the topic gets no results" for qid in ("30", "2")
    ]
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        quiet = rank_queries(index, QUERIES, ranker, 10, warn_unmatched=False)
    assert quiet.equals(ranking) and caplog.records == []


def test_no_queries_give_an_empty_ranking(index):
    empty = pa.table({"qid": pa.array([], pa.string()), "terms": pa.array([], pa.list_(pa.string()))})
    ranking = rank_queries(index, empty, make_ranker(index, "bm25", {}), 10)
    assert ranking.num_rows == 0 and ranking.schema.equals(RANKING_SCHEMA)


class Weighted:
    """A scorer that scores a document by the sum of the weights of the query terms it is listed under; it records
    what it is asked, and refuses `top`, which a weighted query must not use."""

    def __init__(self):
        self.terms = {"a": 0, "b": 1, "c": 2}
        self.listed = {0: [0, 2, 4], 1: [1, 2], 2: [3, 4, 5]}  # term id: the column ids of its documents
        self.asked: list[tuple[list[int], list[float]]] = []

    def term_ids(self, terms):
        return [self.terms[t] for t in terms if t in self.terms]

    def score(self, term_ids, weights=None):
        self.asked.append((list(term_ids), list(weights)))
        totals: dict[int, float] = {}
        for term, weight in zip(term_ids, weights):
            for doc in self.listed[term]:
                totals[doc] = totals.get(doc, 0.0) + weight
        return np.array(list(totals), dtype=np.int64), np.array(list(totals.values()))

    def top(self, term_ids, k):
        raise AssertionError("a weighted query is ranked from its weighted scores")


def test_a_weighted_query_scores_its_known_terms_with_their_own_weights(index, caplog):
    queries = pa.table(
        {
            "qid": ["5", "6"],
            "terms": [["a", "unknown", "c", "b"], ["nothing", "known"]],
            "weights": [[2.0, 9.0, 0.5, 1.5], [1.0, 1.0]],
        }
    )
    scorer = Weighted()
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        ranking = rank_queries(index, queries, scorer, 5)
    assert scorer.asked == [([0, 2, 1], [2.0, 0.5, 1.5])]  # the unknown term dropped with its weight, not another's
    # Column 2: a + b = 3.5; 4: a + c = 2.5; 0: 2.0; 1: 1.5; 3 and 5: 0.5 each, 3 first; cut at 5.
    doc_ids = index.doc_ids.to_pylist()
    assert ranking.column("doc").to_pylist() == [doc_ids[c] for c in (2, 4, 0, 1, 3)]
    assert ranking.column("score").to_pylist() == [3.5, 2.5, 2.0, 1.5, 0.5]
    assert ranking.column("rank").to_pylist() == [1, 2, 3, 4, 5] and set(ranking.column("qid").to_pylist()) == {"5"}
    assert [record.getMessage().split(":")[0] for record in caplog.records] == ["topic 6"]


def test_ranking_topics_is_analysing_them_then_ranking_the_queries(index, caplog):
    analyzer = SimpleNamespace(analyze=lambda text: text.lower().split())
    topics = [
        Topic(number="3", title="Nuclear POWER", description="is it clean"),
        Topic(number="8", title="Fusion", description="wind"),
    ]
    ranker = make_ranker(index, "bm25", {})
    for query in (title, title_and_description):
        expected = rank_queries(index, analyze_topics(analyzer, topics, query), ranker, 4)
        assert rank_topics(index, analyzer, topics, ranker, query, 4).equals(expected)
    assert rank_topics(index, analyzer, topics, ranker, title, 4).column("qid").to_pylist() == ["3"] * 4
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        rank_topics(index, analyzer, topics, ranker, title, 4, warn_unmatched=False)
    assert caplog.records == []
