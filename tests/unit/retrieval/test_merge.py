"""retrieval/merge.py: shard rankings merged against a plain sort of their rows: topics in the order given, by score,
ties by document id in byte order, the top `depth` kept and ranked from 1 again, and a warning for each topic no
shard ranked, in topic order."""

from __future__ import annotations

import logging

import numpy as np
import pyarrow as pa
import pytest

from argrank.retrieval.merge import merge_rankings
from argrank.retrieval.search import RANKING_SCHEMA

TOPICS = ["9", "2", "10", "31", "5"]  # "31" and "5" ranked by no shard
IDS = ["Zeta", "alpha", "a", "aa", "Ärger", "ß-1", "z", "B", "éclair", "0", "zz", "Ω"]


def shard_rankings(seed: int, depth: int) -> list[pa.Table]:
    """Three shards' rankings of three topics (each its own top `depth`, ranked by score), their documents
    disjoint, with scores drawn from a few values so that documents tie within a shard and across shards."""
    rng = np.random.default_rng(seed)
    shards = [[f"{name}-{shard}" for name in IDS] for shard in range(3)]
    rankings = []
    for documents in shards:
        rows = []
        for qid in TOPICS[:3]:
            chosen = rng.choice(documents, int(rng.integers(0, len(documents))), replace=False).tolist()
            scores = (rng.integers(0, 4, len(chosen)) / 2).tolist()
            ranked = sorted(zip(chosen, scores), key=lambda pair: (-pair[1], pair[0].encode()))[:depth]
            rows += [(qid, doc, rank, score) for rank, (doc, score) in enumerate(ranked, 1)]
        qids, docs, ranks, scores = (list(column) for column in zip(*rows)) if rows else ([], [], [], [])
        rankings.append(pa.table([qids, docs, ranks, scores], schema=RANKING_SCHEMA))
    return rankings


def plain_merge(rankings: list[pa.Table], depth: int) -> list[tuple[str, str, int, float]]:
    rows = [(r["qid"], r["doc"], r["score"]) for ranking in rankings for r in ranking.to_pylist()]
    rows.sort(key=lambda row: (TOPICS.index(row[0]), -row[2], row[1].encode()))
    merged, ranks = [], {}
    for qid, doc, score in rows:
        ranks[qid] = ranks.get(qid, 0) + 1
        if ranks[qid] <= depth:
            merged.append((qid, doc, ranks[qid], score))
    return merged


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("depth", [1, 4, 100])
def test_the_merge_is_a_plain_sort_of_the_shards_rows_cut_at_depth(seed, depth):
    rankings = shard_rankings(seed, depth)
    merged = merge_rankings(rankings, TOPICS, depth)
    assert merged.schema.equals(RANKING_SCHEMA)
    expected = plain_merge(rankings, depth)
    assert [tuple(row.values()) for row in merged.to_pylist()] == expected


def test_ties_across_shards_go_by_document_id_in_byte_order():
    """Equal scores across shards: uppercase before lowercase, non-ASCII after both, a prefix before its
    extensions."""
    shard_one = pa.table([["1"] * 3, ["éclair", "B", "ab"], [1, 2, 3], [1.0, 1.0, 1.0]], schema=RANKING_SCHEMA)
    shard_two = pa.table([["1"] * 3, ["a", "Z", "b"], [1, 2, 3], [1.0, 1.0, 1.0]], schema=RANKING_SCHEMA)
    merged = merge_rankings([shard_one, shard_two], ["1"], 10)
    assert merged.column("doc").to_pylist() == ["B", "Z", "a", "ab", "b", "éclair"]
    assert merged.column("rank").to_pylist() == [1, 2, 3, 4, 5, 6]


def test_columns_are_taken_by_name_and_extra_ones_dropped():
    """A shard's ranking with its columns in another order and one more column merges as the plain one."""
    plain = shard_rankings(11, 5)
    shuffled = [
        ranking.select(["score", "doc", "qid", "rank"]).append_column("note", pa.array(["x"] * ranking.num_rows))
        for ranking in plain
    ]
    assert merge_rankings(shuffled, TOPICS, 5).equals(merge_rankings(plain, TOPICS, 5))


def test_each_topic_without_results_is_warned_about_once_in_topic_order(caplog):
    rankings = shard_rankings(3, 10)
    with caplog.at_level(logging.WARNING, logger="argrank.retrieval.search"):
        merge_rankings(rankings, TOPICS, 10)
    warned = [record.getMessage() for record in caplog.records]
    assert warned == [
        f"topic {qid}: no query term occurs in the index, so the topic gets no results" for qid in TOPICS[3:]
    ]


def test_shards_with_no_rows_give_an_empty_ranking_and_a_warning_per_topic(caplog):
    empty = pa.table([[], [], [], []], schema=RANKING_SCHEMA)
    with caplog.at_level(logging.WARNING, logger="argrank.retrieval.search"):
        merged = merge_rankings([empty, empty], TOPICS, 10)
    assert merged.num_rows == 0 and merged.schema.equals(RANKING_SCHEMA)
    assert [record.getMessage().split(":")[0] for record in caplog.records] == [f"topic {qid}" for qid in TOPICS]
