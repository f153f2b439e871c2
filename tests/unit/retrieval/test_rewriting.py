"""retrieval.rewriting: the topics a query rewriter sees, and its queries (texts or weighted terms) analysed into
weighted terms, anything else refused with what is wrong."""

from __future__ import annotations

import pyarrow as pa
import pytest

from argrank.retrieval.rewriting import TOPIC_COLUMNS, rewritten, topics_table


def _analyze(text: str) -> list[str]:
    return [word for word in text.lower().split() if word not in {"the", "a"}]


QUERIES = pa.table({"qid": ["1", "2"], "terms": [["flag", "burn", "flag"], ["tax"]]})


def test_topics_carry_text_terms_and_weights():
    topics = topics_table(QUERIES, {"1": "Burn the flag?", "2": "Tax"})
    assert topics.column_names == list(TOPIC_COLUMNS)
    assert topics.to_pylist() == [
        {"topic": "1", "query": "Burn the flag?", "terms": ["flag", "burn"], "weights": [2.0, 1.0]},
        {"topic": "2", "query": "Tax", "terms": ["tax"], "weights": [1.0]},
    ]
    weighted = pa.table({"qid": ["1"], "terms": [["a", "b"]], "weights": [[0.5, 2.0]]})
    assert topics_table(weighted, {}).to_pylist()[0]["weights"] == [0.5, 2.0]


def test_texts_and_weighted_terms_become_weighted_terms():
    topics = topics_table(QUERIES, {})
    table = rewritten(["The flag flag burning", {"Flag": 0.5, "the tax": 2, "a": 3.0}], topics, _analyze)
    assert table.to_pylist() == [
        {"qid": "1", "terms": ["flag", "burning"], "weights": [2.0, 1.0]},
        {"qid": "2", "terms": ["flag", "tax"], "weights": [0.5, 2.0]},
    ]


@pytest.mark.parametrize(
    ("returned", "message"),
    [
        ("one text", "returned str, not a list of one query per topic"),
        (["only one"], "returned 1 queries for 2 topics"),
        (["x", 3], r"query 1 \(topic 2\) is a int, not a text or a mapping"),
        (["x", {"tax": float("nan")}], r"query 1 \(topic 2\) weighs 'tax' nan, not a finite number"),
        (["x", {1: 1.0}], "has the term 1, not a text"),
        (["x", {"tax": True}], "weighs 'tax' True"),
    ],
)
def test_anything_else_is_refused_with_what_is_wrong(returned, message):
    with pytest.raises(ValueError, match=message):
        rewritten(returned, topics_table(QUERIES, {}), _analyze)
