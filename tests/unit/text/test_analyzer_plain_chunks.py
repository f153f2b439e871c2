"""The analyzer's shortcut for plain chunks (a lowercase ASCII word, maybe with a closing mark): the tokens it gives
without spaCy's tokenizer must be the tokenizer's, in every language we analyse."""

from __future__ import annotations

import re

import numpy as np
import pyarrow as pa
import pytest
import spacy_lookups_data
import srsly
from hypothesis import given, settings
from hypothesis import strategies as st

from argrank.text.analyzer import MARKS, PLAIN, Analyzer

LANGUAGES = ["en", "de", "fr", "it"]
# English's every word, each eighth of the others' (15,000 to 42,000 each). All of them, 5.5 M chunks with the marks,
# were checked once and split alike; that takes four minutes.
STRIDE = {"en": 1, "de": 8, "fr": 8, "it": 8}


@pytest.fixture(scope="module", params=LANGUAGES)
def analyzer(request) -> Analyzer:
    return Analyzer(request.param)


def _spacy_orths(analyzer: Analyzer, chunks: list[str]) -> list[list[int]]:
    return [list(orths) for orths in analyzer._chunk_orths(chunks)]


def _plain_orths(analyzer: Analyzer, chunks: list[str]) -> list[list[int]]:
    """Each chunk's orths as the analyzer learns them, by the shortcut where it applies."""
    assert all(re.fullmatch(PLAIN, chunk) for chunk in chunks)
    orths, counts, _ = analyzer._token_orths(pa.array(chunks, type=pa.large_string()))
    return [list(o) for o in np.split(orths, np.cumsum(counts)[:-1])] if chunks else []


@pytest.mark.slow
def test_every_lemma_table_word_with_every_mark_splits_as_spacy_splits_it(analyzer):
    table = srsly.read_gzip_json(spacy_lookups_data.get_file(f"{analyzer.language}_lemma_lookup.json.gz"))
    forms = {word.lower() for pair in table.items() for word in pair if isinstance(word, str)}
    words = sorted(word for word in forms if re.fullmatch("[a-z]+", word))[:: STRIDE[analyzer.language]]
    assert len(words) > 15_000
    chunks = [word + mark for word in words for mark in ("", *MARKS)]
    assert analyzer._plain(pa.array(chunks)).mean() > 0.99  # the shortcut is taken, but for special cases
    assert _plain_orths(analyzer, chunks) == _spacy_orths(analyzer, chunks)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.from_regex(PLAIN, fullmatch=True), max_size=20))
def test_plain_chunks_split_as_spacy_splits_them(chunks):
    for analyzer in _analyzers():
        assert _plain_orths(analyzer, chunks) == _spacy_orths(analyzer, chunks)


_cache: list[Analyzer] = []


def _analyzers() -> list[Analyzer]:
    if not _cache:
        _cache.extend(Analyzer(language) for language in LANGUAGES)
    return _cache


@pytest.mark.parametrize(
    "chunk",
    ["cannot", "cannot.", "gonna,", "etc.", "a.", "mr.", "dr.", "jan.", "st.", "i.", "p.", "aujourd", "c.", "ecc."],
)
def test_special_cases_are_left_to_the_tokenizer(analyzer, chunk):
    """Chunks a special case rewrites (English "cannot" → can, not; abbreviations keep their full stop)."""
    assert _plain_orths(analyzer, [chunk]) == _spacy_orths(analyzer, [chunk])


def test_only_chunks_that_are_not_plain_reach_the_tokenizer(monkeypatch):
    analyzer = Analyzer("en")
    sent: list[str] = []
    tokenize = analyzer._chunk_orths
    monkeypatch.setattr(analyzer, "_chunk_orths", lambda chunks: sent.extend(chunks) or tokenize(chunks))
    text = "Running dogs, cannot stop. (They) barked!"
    terms = analyzer.analyze(text)
    assert sent == ["cannot", "(they)"]  # a special case, and a chunk that is not plain
    assert terms == ["run", "dog", "stop", "bark"]
    whole = Analyzer("en")
    orths = whole._orths(text.lower())
    assert [whole.terms[c] for c in whole._kept_terms(orths, [len(orths)])[0]] == terms
