"""Language detection by stop words, and analysis of a corpus that mixes German, French and Italian."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from argrank.text.language import LanguageDetector, words

DETECTOR = LanguageDetector(["de", "fr", "it"])


@pytest.mark.parametrize(
    "text, language",
    [
        ("Das Rentenalter muss steigen, sonst ist die AHV nicht finanzierbar.", "de"),
        ("L'âge de la retraite doit augmenter pour sauver l'AVS.", "fr"),
        ("L'età pensionabile deve aumentare per salvare l'AVS.", "it"),
        ("Nous sommes contre cette taxe, elle frappe les familles.", "fr"),
        ("Siamo contrari a questa tassa, colpisce le famiglie.", "it"),
        ("Cannabis!", "de"),  # no stop word at all: the first language, the corpus's majority
    ],
)
def test_detects_the_language_from_its_stop_words(text, language):
    assert DETECTOR.detect(text) == language


def test_elided_articles_count_as_words():
    # "l'" and "dell'" are stop words in French and Italian; "anno" only in Italian.
    assert DETECTOR.counts("dell'anno")[2] >= 2 and DETECTOR.counts("l'été")[1] >= 1


def reference_counts(text: str) -> np.ndarray:
    """Each word's votes added one by one, an elided article apart from its word."""
    total = np.zeros(3)
    for word in words(text):
        head, apostrophe, rest = word.partition("'")
        for part in (head + "'", rest) if apostrophe and head.isalpha() else (word,):
            total += DETECTOR._votes.get(part, 0)
    return total


_PIECES = st.sampled_from(["der", "Die", "le", "la", "il", "l'", "L’", "dell'", "anno", "été", "c'è", "un'altra",
                           "qu'il", "'", "’", "x", "AHV", "42", " ", ", ", ".", "\n", "aujourd'hui",
                           "d’abord"])  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(_PIECES, max_size=20).map("".join), max_size=5))
def test_counting_many_texts_at_once_counts_each_as_word_by_word(texts):
    counts = DETECTOR.counts_many(texts)
    assert counts.shape == (len(texts), 3)
    for text, row in zip(texts, counts):
        assert np.array_equal(row, reference_counts(text))
    assert DETECTOR.detect_many(texts) == [DETECTOR.detect(text) for text in texts]
