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

    def counts(self, text: str) -> np.ndarray:
        """Stop words of each language in `text` (an elided article such as l' counts as its own word)."""
        total = np.zeros(len(self.languages))
        for word in words(text):
            elided = _ELISION.match(word)
            # spaCy lists elided forms with their apostrophe ("l'", "dell'").
            for part in (elided.group(0)[:-1] + "'", word[elided.end() :]) if elided else (word,):
                vote = self._votes.get(part)
                if vote is not None:
                    total += vote
        return total

    def detect(self, text: str) -> str:
        """The language with the most stop words in `text`; ties go to the earlier language."""
        return self.languages[int(np.argmax(self.counts(text)))]

    def detect_many(self, texts: Iterable[str]) -> list[str]:
        return [self.detect(text or "") for text in texts]
