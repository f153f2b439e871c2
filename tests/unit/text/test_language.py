"""Language detection by stop words, and analysis of a corpus that mixes German, French and Italian."""

from __future__ import annotations

import pytest

from argrank.text.language import LanguageDetector

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
