"""Stance for a ranking: texts fetched by id from the document table, objects per topic, NO without objects."""

from __future__ import annotations

import logging

import pyarrow as pa
import pytest

from argrank.retrieval.search import RANKING_SCHEMA
from argrank.tracks.comparative.ranked_stance import classify_ranking


def ranking(*rows: tuple[str, str]) -> pa.Table:
    return pa.table(
        {"qid": [q for q, _ in rows], "doc": [d for _, d in rows], "rank": list(range(1, len(rows) + 1)),
         "score": [float(-i) for i in range(len(rows))]},
        schema=RANKING_SCHEMA,
    )


def test_each_passage_is_classified_toward_its_topics_objects(caplog):
    calls = []

    def predict(texts, firsts, seconds):
        calls.append((texts, firsts, seconds))
        return ["FIRST" if first in text else "SECOND" for text, first in zip(texts, firsts)]

    texts = {"a": "tea wins", "b": "coffee wins", "c": "rice cookers"}
    objects = {"1": ("tea", "coffee"), "2": None}
    with caplog.at_level(logging.WARNING, logger="argrank.tracks.comparative.ranked_stance"):
        labelled = classify_ranking(ranking(("1", "a"), ("2", "c"), ("1", "b")), texts, objects, predict)
    assert labelled.column("stance").to_pylist() == ["FIRST", "NO", "SECOND"]
    assert labelled.column_names == [*RANKING_SCHEMA.names, "stance"]
    assert calls == [(["tea wins", "coffee wins"], ["tea", "tea"], ["coffee", "coffee"])]  # one batched call
    assert [r.getMessage() for r in caplog.records] == ["topics 2 name no objects to compare, so their passages get stance NO"]


def test_a_label_outside_the_four_is_refused():
    with pytest.raises(ValueError, match="outside"):
        classify_ranking(ranking(("1", "a")), {"a": "x"}, {"1": ("p", "q")}, lambda texts, *_: ["PRO"] * len(texts))
