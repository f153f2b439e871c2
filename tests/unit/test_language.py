"""Language detection by stop words, and analysis of a corpus that mixes German, French and Italian."""

from __future__ import annotations

import pytest

from argrank.text.analyzer import Analyzer
from argrank.text.language import LanguageDetector
from argrank.text.multilingual import MultilingualAnalyzer, make_analyzer

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


def test_each_text_is_analysed_by_its_language():
    analyzer = make_analyzer("de,fr,it")
    assert isinstance(analyzer, MultilingualAnalyzer) and isinstance(make_analyzer("en"), Analyzer)
    tokens = analyzer.analyze_many(["Die Renten sind sicher.", "Les retraites sont sûres.", "Le pensioni sono sicure."])
    # German nouns are looked up capitalised and lowercased; French lemma lists give their first entry.
    assert tokens.to_pylist() == [["rente", "sichern"], ["retraite", "sûr"], ["pensione", "sicuro"]]
    # A given language wins over detection, and the output keeps the input order.
    assert analyzer.analyze_many(["sono", "sind"], ["de", "it"]).to_pylist() == [["sono"], ["sind"]]
    with pytest.raises(ValueError, match="not one of de, fr, it"):
        analyzer.analyze("x", "en")


@pytest.mark.parametrize(
    "text, language",
    [
        # "i" is a French stop word too and "essere" the only Italian one: tied, the Italian lemma table decides.
        ("I coniugi dovrebbero essere tassati separatamente (tassazione individuale)?", "it"),
        ("Si dovrebbe promuovere l'energia rinnovabile?", "it"),
        ("Si la Confédération doit-elle promouvoir l'énergie?", "fr"),  # more French stop words: no tie
        ("Cannabis!", "de"),  # nothing known anywhere: the first language
    ],
)
def test_a_question_with_tied_stop_words_goes_to_the_language_that_knows_its_words(text, language):
    analyzer = MultilingualAnalyzer(["de", "fr", "it"])
    assert analyzer.detect(text) == language
    assert analyzer.analyze(text) == analyzer.analyzer(language).analyze(text)
