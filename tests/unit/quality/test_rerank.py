"""The quality-aware re-ranking, on one topic small enough to work out by hand."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from argrank.quality.rerank import Quality, rerank

SCHEMA = pa.schema([("qid", pa.string()), ("doc", pa.string()), ("rank", pa.int32()), ("score", pa.float64())])


def ranking(scores: dict[str, list[tuple[str, float]]]) -> pa.Table:
    rows = [(qid, doc, rank, score) for qid, docs in scores.items() for rank, (doc, score) in enumerate(docs, 1)]
    return pa.table({name: [r[i] for r in rows] for i, name in enumerate(SCHEMA.names)}, schema=SCHEMA)


QUALITY = Quality(
    expected={"a": -1.0, "b": 2.0, "c": 0.0, "d": 5.0, "e": 1.0},
    argument={"a": 0.9, "b": 0.2, "c": 0.9, "d": 0.9, "e": 0.9},
    words={"a": 50, "b": 50, "c": 50, "d": 3, "e": 50},
)
RANKING = ranking({"1": [("a", 9.0), ("b", 8.0), ("c", 7.0), ("d", 1.0)], "2": [("e", 4.0)]})


def order(table: pa.Table, qid: str) -> list[str]:
    return [doc for q, doc in zip(table.column("qid").to_pylist(), table.column("doc").to_pylist()) if q == qid]


def test_weight_zero_keeps_the_retrieval_order_and_one_sorts_the_top_by_quality():
    assert order(rerank(RANKING, QUALITY, {"weight": 0.0}), "1") == ["a", "b", "c", "d"]
    assert order(rerank(RANKING, QUALITY, {"weight": 1.0}), "1") == ["d", "b", "c", "a"]
    assert order(rerank(RANKING, QUALITY, {"weight": 1.0, "depth": 3}), "1") == ["b", "c", "a", "d"]


def test_half_and_half_is_the_mean_of_the_standardised_scores():
    # Top 3: retrieval 9, 8, 7 → z 1.22, 0, -1.22; quality -1, 2, 0 → z -1.07, 1.34, -0.27.
    # Halves: a 0.08, b 0.67, c -0.75.
    table = rerank(RANKING, QUALITY, {"weight": 0.5, "depth": 3})
    assert order(table, "1") == ["b", "a", "c", "d"]
    assert table.column("rank").to_pylist() == [1, 2, 3, 4, 1]
    scores = table.column("score").to_pylist()
    assert scores[0] > scores[1] > scores[2] > scores[3] == 1.0  # the top above the rest, which keeps its score
    assert scores[2] == pytest.approx(2.0)  # the rest's best plus one, for the lowest of the top
    assert order(table, "2") == ["e"]


def test_penalties_for_likely_non_arguments_and_short_texts():
    # b is probably no argument: a penalty of 3 × 0.8 takes it from 0.67 to -1.73, below a (0.08 - 0.3) and
    # c (-0.75 - 0.3).
    assert order(rerank(RANKING, QUALITY, {"depth": 3, "nonargument_penalty": 3.0}), "1") == ["a", "c", "b", "d"]
    # d has 3 words: with min_words 10 it counts as surely none, even though its expected quality is the best.
    settings = {"weight": 1.0, "nonargument_penalty": 10.0, "min_words": 10}
    assert order(rerank(RANKING, QUALITY, settings), "1")[-1] == "d"


def test_ties_keep_the_retrieval_order():
    flat = Quality({d: 0.0 for d in "abcd"}, {d: 1.0 for d in "abcd"}, {d: 9 for d in "abcd"})
    tied = ranking({"1": [("a", 1.0), ("b", 1.0), ("c", 1.0), ("d", 1.0)]})
    assert order(rerank(tied, flat, {"weight": 0.5}), "1") == ["a", "b", "c", "d"]
    assert np.all(np.diff(rerank(tied, flat, {}).column("score").to_numpy()) <= 0)
