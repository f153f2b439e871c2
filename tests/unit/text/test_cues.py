"""Negation words and the sentence and word patterns the cue counters share."""

from __future__ import annotations

import pytest

from argrank.text.cues import NEGATION_WINDOW, SENTENCE, WORD, is_negation


@pytest.mark.parametrize("word", ["not", "no", "never", "without", "nothing", "isn't", "don't", "can't", "cannot"])
def test_negations(word):
    assert is_negation(word)


@pytest.mark.parametrize("word", ["note", "know", "nowhere", "better", "nt", "n't've", "", "Not"])
def test_other_words_are_no_negations(word):
    assert not is_negation(word)  # words reach it lowercased


def test_sentences_end_at_runs_of_end_marks_and_line_breaks():
    text = "Cats are better. Dogs?! Maybe; or not: fine\n\nnext"
    assert SENTENCE.split(text) == ["Cats are better", " Dogs", " Maybe", " or not", " fine", "next"]


def test_words_are_lowercase_letters_and_digits_with_one_clitic():
    assert WORD.findall("it's 3x better, isn't it? rock'n'roll a-b Big") == [
        "it's", "3x", "better", "isn't", "it", "rock'n", "roll", "a", "b", "ig",
    ]  # fmt: skip
    assert NEGATION_WINDOW == 3
