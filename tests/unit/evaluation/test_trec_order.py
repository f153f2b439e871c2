"""trec_eval's order of a run's documents: score descending as 32-bit floats, then document id descending."""

from __future__ import annotations

import pytest

from argrank.evaluation.trec_order import ranked_documents
from argrank.formats.runfile import RunLine


def _run(*rows: tuple[str, str, float]) -> list[RunLine]:
    """Lines whose file ranks contradict their scores: the order must come from the scores alone."""
    return [RunLine(topic, "Q0", doc, len(rows) - i, score, "t") for i, (topic, doc, score) in enumerate(rows)]


def test_scores_descending_then_ids_descending_per_topic():
    ranked = ranked_documents(_run(("1", "a", 1.0), ("1", "c", 2.0), ("2", "x", 0.5), ("1", "b", 1.0), ("1", "d", 0.5)))
    assert ranked == {"1": [(2.0, "c"), (1.0, "b"), (1.0, "a"), (0.5, "d")], "2": [(0.5, "x")]}


def test_scores_equal_in_single_precision_are_a_tie():
    ranked = ranked_documents(_run(("1", "a", 1.00000002), ("1", "b", 1.00000001), ("1", "c", 1.0002)))
    assert [doc for _, doc in ranked["1"]] == ["c", "b", "a"]
    assert ranked["1"][1][0] == ranked["1"][2][0] == 1.0


def test_ids_compare_as_strings_not_numbers():
    assert [doc for _, doc in ranked_documents(_run(("1", "9", 1.0), ("1", "10", 1.0)))["1"]] == ["9", "10"]


def test_an_empty_run_has_no_topics():
    assert ranked_documents([]) == {}


def test_a_document_listed_twice_in_a_topic_is_refused():
    with pytest.raises(ValueError, match="^topic 2: a document appears more than once in the run$"):
        ranked_documents(_run(("1", "a", 1.0), ("2", "a", 1.0), ("2", "a", 0.5)))
