"""Analyzers for a `language` setting: one language, or several with each text analysed by its own language."""

from __future__ import annotations

import pytest

from argrank.text.analyzer import Analyzer
from argrank.text.multilingual import MultilingualAnalyzer, make_analyzer, shared_analyzer


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


def test_one_language_is_one_analyzer_shared_by_the_process():
    assert make_analyzer("en") is make_analyzer(" en ") is shared_analyzer("en")
    assert make_analyzer("de,") is shared_analyzer("de")  # one language named: no multilingual analyzer


def test_several_languages_keep_their_order_and_share_the_analyzers():
    analyzer = make_analyzer("it, de ,fr")
    assert isinstance(analyzer, MultilingualAnalyzer) and list(analyzer.detector.languages) == ["it", "de", "fr"]
    assert analyzer.analyzer("de") is shared_analyzer("de")


def test_no_text_is_an_empty_list_array():
    analyzer = MultilingualAnalyzer(["de", "fr"])
    assert analyzer.analyze_many([]).to_pylist() == []
    assert analyzer.analyze_many([None, ""], ["de", "fr"]).to_pylist() == [[], []]
