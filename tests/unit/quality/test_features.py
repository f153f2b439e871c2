"""The measured features of a text, on texts small enough to count by hand."""

from __future__ import annotations

import numpy as np
import pytest

from argrank.quality.features import FEATURES, text_features, word_counts


def features(text: str) -> dict[str, float]:
    return dict(zip(FEATURES, text_features([text])[0]))


def test_a_developed_argument():
    text = ("Homework should stay. Because practice helps, pupils who read at home are ahead; "
            "studies show a 12% gain (see www.example.org).")  # fmt: skip
    f = features(text)
    assert f["words"] == 21 == word_counts([text])[0]
    assert f["sentences"] == 2  # the dots of "www.example.org" end no sentence
    assert f["discourse_markers"] == 1 and f["evidence_markers"] == 1  # "because"; "studies show"
    assert f["links"] == 1 and f["numbers"] == 1
    assert f["parentheses_per_word"] == pytest.approx(2 / 21)
    assert f["clause_punctuation_per_word"] == pytest.approx(2 / 21)  # a comma and a semicolon
    assert f["starts_with_punctuation"] == 0 and f["ends_without_punctuation"] == 0


def test_debate_bookkeeping_and_careless_writing():
    f = features("thx opponent forfeited this round!!! vote con u guys")
    assert f["debate_word_share"] == pytest.approx(4 / 9)  # opponent, round, vote, con of 9 words
    assert f["character_runs"] == 1 and f["exclamations"] == 3
    assert f["slang_share"] == pytest.approx(1 / 9)  # u
    assert f["lowercase_sentence_starts"] > 0
    assert features(": a heading")["starts_with_punctuation"] == 1


def test_no_words_and_shape():
    matrix = text_features(["", "...", "One."])
    assert matrix.shape == (3, len(FEATURES)) and np.isfinite(matrix).all()
    assert matrix[0, FEATURES.index("words")] == 0
    assert text_features([]).shape == (0, len(FEATURES))
