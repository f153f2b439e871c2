"""Which language a text is in, cheaply: the share of its words that are one language's stop words.

The perspective corpus mixes German, French and Italian with no language field, and each language needs its own
tokenizer rules, lemma table and stop words. Function words are the most frequent words of any text and differ
between these languages (spaCy's lists share 5 to 31 of their 500-600 words), so counting them decides even a
one-sentence argument; words in more than one list count for each. A text with no stop word at all gets the
first of the languages, the corpus's majority.
"""

from __future__ import annotations

import re
from functools import cached_property
from itertools import repeat
from typing import Iterable, Sequence

import numpy as np

import argrank.lazylibs as lazylibs

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?", re.UNICODE)
_ELISION = re.compile(r"^[^\W\d_]+['’]")  # French and Italian elided articles: l', d', dell', c'…


def words(text: str) -> list[str]:
    """The lowercased words of `text`, as the detector counts them."""
    return _WORD.findall(text.lower().replace("’", "'"))


class LanguageDetector:
    """Detects one of `languages` (spaCy codes), the first being the fallback."""

    def __init__(self, languages: Sequence[str]):
        if not languages:
            raise ValueError("no languages to choose from")
        self.languages = tuple(languages)

    @cached_property
    def _votes(self) -> dict[str, np.ndarray]:
        """word → which languages list it as a stop word (a 0/1 vector over self.languages)."""
        spacy = lazylibs.spacy()
        votes: dict[str, np.ndarray] = {}
        for column, language in enumerate(self.languages):
            for word in spacy.blank(language).Defaults.stop_words:
                votes.setdefault(word.lower(), np.zeros(len(self.languages)))[column] = 1.0
        return votes

    @cached_property
    def _rows(self) -> tuple[dict[str, int], np.ndarray]:
        """Each stop word's row of a matrix of its votes (rows: stop words; columns: self.languages)."""
        votes = self._votes
        matrix = np.array(list(votes.values())).reshape(len(votes), len(self.languages))
        return {word: row for row, word in enumerate(votes)}, matrix

    def counts(self, text: str) -> np.ndarray:
        """Stop words of each language in `text` (an elided article such as l' counts as its own word)."""
        return self.counts_many([text])[0]

    def counts_many(self, texts: Sequence[str]) -> np.ndarray:
        """counts of each text, one row per text: every word looked up in one pass, summed per text by numpy."""
        rows, votes = self._rows
        found: list[int] = []
        lengths = np.zeros(len(texts), dtype=np.intp)
        for at, text in enumerate(texts):
            parts = _parts(text)
            found += map(rows.get, parts, repeat(-1))
            lengths[at] = len(parts)
        stop_words = np.fromiter(found, dtype=np.intp, count=len(found))
        text_of = np.repeat(np.arange(len(texts)), lengths)
        counted = stop_words >= 0
        total = np.zeros((len(texts), len(self.languages)))
        np.add.at(total, text_of[counted], votes[stop_words[counted]])  # sums of ones: exact in any order
        return total

    def detect(self, text: str) -> str:
        """The language with the most stop words in `text`; ties go to the earlier language."""
        return self.detect_many([text])[0]

    def detect_many(self, texts: Iterable[str]) -> list[str]:
        counts = self.counts_many([text or "" for text in texts])
        return [self.languages[column] for column in np.argmax(counts, axis=1).tolist()]


def _parts(text: str) -> list[str]:
    """The words the detector looks up in `text`: an elided article ("l'", "dell'") apart from its word, with the
    apostrophe, as spaCy lists it."""
    found = words(text)
    if "'" not in text and "’" not in text:
        return found
    parts = []
    for word in found:
        elided = _ELISION.match(word) if "'" in word else None
        parts += (elided.group(0)[:-1] + "'", word[elided.end() :]) if elided else (word,)
    return parts
