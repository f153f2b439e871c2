"""The analyzer: spaCy tokens, lowercased, lookup lemmas, stop words and punctuation dropped, one analysis for all."""

from __future__ import annotations

import logging

import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st

from argrank.text import analyzer as analyzer_module
from argrank.text.analyzer import SEPARATOR, Analyzer, lowercase


@pytest.fixture(scope="module")
def analyzer() -> Analyzer:
    return Analyzer("en")


def test_lowercases_lemmatizes_and_drops_stop_words_and_punctuation(analyzer):
    terms = analyzer.analyze("Teachers WERE running the Schools, isn't it?! E-cigarettes cost 3.5% — today.")
    assert terms == ["teacher", "run", "school", "e", "cigarette", "cost", "3.5", "today"]


def test_capitalised_forms_get_the_same_lemma(analyzer):
    # The lookup table is keyed by lowercase forms: "Children" must not stay "children".
    assert analyzer.analyze("Children") == analyzer.analyze("children") == ["child"]


def test_batch_analysis_equals_one_by_one(analyzer):
    texts = ["Should students wear uniforms?", "", "the and of", "Nuclear energy is cheap; nuclear waste is not."]
    batch = analyzer.analyze_many(texts)
    assert batch.type == pa.list_(pa.string())
    assert batch.to_pylist() == [analyzer.analyze(t) for t in texts]
    assert batch.to_pylist()[1:3] == [[], []]


def test_a_fresh_analyzer_gives_the_same_terms(analyzer):
    text = "Zoos protect endangered species, but animals suffer in captivity."
    assert Analyzer("en").analyze(text) == analyzer.analyze(text)


@given(st.lists(st.one_of(st.text(), st.text(alphabet="İΣσς AbC.\u00a0"))))
def test_lowercase_is_pythons_str_lower(texts):
    """Arrow lowercases ASCII texts; the others must still come out as str.lower has them (final sigma, İ)."""
    assert lowercase(pa.array(texts, type=pa.large_string())).to_pylist() == [text.lower() for text in texts]


def test_chunks_tokenized_in_one_call_split_as_tokenized_alone(analyzer):
    """Chunks joined by the separator for one spaCy call: special cases, affixes, a chunk holding the separator or
    whitespace at an end (tokenized alone) all give each chunk's own tokens."""
    chunks = ["e.g.", ":]", "[", "don't", "u.s.", "(hello),", f"a{SEPARATOR}b", "\u00a0x", "y\u00a0", "'s", "x:"]
    assert [list(o) for o in analyzer._chunk_orths(chunks)] == [list(analyzer._orths(c)) for c in chunks]


@pytest.mark.parametrize("language", ["en", "de", "fr", "it"])
def test_the_lexeme_attributes_left_out_change_no_term(language):
    """The analyzer's vocabulary computes only is_space and is_punct of a new surface form: an analyzer whose
    vocabulary computes all of spaCy's attributes gives the same terms."""
    import spacy

    texts = [
        "Ceci n'est pas une pipe, c'est l'art: 3,5 % du PIB!",
        "Die Renten-Reform (2024) kostet 12.000 € — zu viel?",
        "L'Italia è un paese... davvero? Sì, dell'anno 1990.",
        "Don't U.S. citizens pay $5.00 e-mail fees at http://x.org/a?b=1 #tag @you :) 1st 2nd",
    ]
    ours, full = Analyzer(language), Analyzer(language)
    full._vocab.lex_attr_getters = spacy.blank(language).vocab.lex_attr_getters
    assert len(ours._vocab.lex_attr_getters) == 2 and len(full._vocab.lex_attr_getters) > 2
    assert [ours.analyze(t) for t in texts] == [full.analyze(t) for t in texts]


def test_a_chunk_too_long_for_a_word_gives_no_term_and_a_warning(caplog):
    """A 100 MB "word" took many times its size in memory and became one index term: past MAX_WORD characters a
    chunk without white space is dropped, counted in a warning; one of MAX_WORD characters (twice as many bytes) is
    still a word."""
    analyzer = Analyzer("en")
    longest = "é" * analyzer_module.MAX_WORD
    with caplog.at_level(logging.WARNING, logger="argrank.text.analyzer"):
        assert analyzer.analyze(f"trains {'x' * (analyzer_module.MAX_WORD + 1)} planes") == ["train", "plane"]
        assert analyzer.analyze(f"trains {longest}") == ["train", longest]
    assert [r.getMessage() for r in caplog.records] == [
        "analysis: 1 chunk(s) of more than 10,000 characters without white space dropped (not words)"
    ]


def test_a_text_too_long_is_cut_with_a_warning(monkeypatch, caplog):
    monkeypatch.setattr(analyzer_module, "MAX_TEXT", 19)
    analyzer = Analyzer("en")
    with caplog.at_level(logging.WARNING, logger="argrank.text.analyzer"):
        codes, lengths = analyzer.analyze_codes(["trains are cheaper than planes", "short bikes"])
    assert [analyzer.terms[c] for c in codes] == ["train", "cheap", "short", "bike"] and lengths.tolist() == [2, 2]
    assert "analysis: 1 text(s) cut after 19 characters" in caplog.messages
