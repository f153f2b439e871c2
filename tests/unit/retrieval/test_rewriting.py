"""retrieval.rewriting: the topics a query rewriter sees, and its queries (texts or weighted terms) analysed into
weighted terms, anything else refused with what is wrong; a query without terms refused, a huge one cut to its
heaviest terms with one warning."""

from __future__ import annotations

import logging

import pyarrow as pa
import pytest

from argrank.retrieval.rewriting import MAX_QUERY_TERMS, TOPIC_COLUMNS, rewritten, topics_table


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
        (["x", {"tax": 10**400}], r"weighs 'tax' 1000000000000000000000000000000000000000…, not a finite number"),
        (["x", {"tax": 1e308, "tax!": 1e308}], r"weighs 'tax' 1e\+308: at most 1,000,000 in magnitude"),
        (["x", ""], r"query 1 \(topic 2\) has no term left after analysis, so the topic would rank nothing"),
        (["x", {}], r"query 1 \(topic 2\) has no term left after analysis"),
        (["the a", "x"], r"query 0 \(topic 1\) has no term left after analysis"),
    ],
)
def test_anything_else_is_refused_with_what_is_wrong(returned, message):
    with pytest.raises(ValueError, match=message):
        rewritten(returned, topics_table(QUERIES, {}), _analyze)


def test_a_huge_query_keeps_its_heaviest_terms_and_says_so_once(caplog):
    """300,000 weighted terms once ran for minutes: the mapping is cut before anything is analysed."""
    huge = {f"t{i:06d}": float(i % 7) + 1 for i in range(300_000)}
    text = " ".join(f"w{i}" for i in range(MAX_QUERY_TERMS + 5))
    with caplog.at_level(logging.WARNING):
        table = rewritten([huge, text], topics_table(QUERIES, {}), _analyze)
    first, second = table.to_pylist()
    assert len(first["terms"]) == MAX_QUERY_TERMS and set(first["weights"]) == {7.0}
    assert first["terms"][:2] == ["t000006", "t000013"]  # the heaviest, ties by term
    assert len(second["terms"]) == MAX_QUERY_TERMS and second["terms"][0] == "w0"
    warned = [record.getMessage() for record in caplog.records if record.levelno == logging.WARNING]
    assert warned == [f"rewritten queries of 2 topic(s) cut to their {MAX_QUERY_TERMS:,} heaviest terms: 1, 2"]
