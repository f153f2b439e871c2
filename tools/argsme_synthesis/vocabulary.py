"""The synthetic corpus's English vocabulary: spaCy's stop words, then the lemma table's content words, each group
ordered by real word frequency plus seeded jitter, and samplers that draw word ids Zipf-style by that rank.
tools/synthetic_argsme.py's docstring says which words and why.
"""

from __future__ import annotations

import gzip
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import spacy_lookups_data

from tools.argsme_synthesis import streams

ZIPF_EXPONENT = 1.0
VOCAB_JITTER = 0.5
_LEFT_OUT = frozenset({"deleted"})  # the frequency table's "[deleted]" placeholder makes it the top content word
_PROFANE = re.compile(  # prefixes, then whole words
    r"(fuck|shit|cunt|bitch|nigg|whore|slut|retard|twat|wank|piss).*|(ass(es|holes?)?|dicks?|cocks?|fag(s|gots?)?)"
)


@lru_cache(maxsize=1)
def english_words() -> tuple[tuple[str, ...], np.ndarray, tuple[str, ...], np.ndarray]:
    """(stop words, their log-probabilities, content words, theirs), each group sorted alphabetically."""
    # Imported here, as everywhere in argrank: spaCy is slow to import, and only building the vocabulary needs it.
    from spacy.lang.en.stop_words import STOP_WORDS

    data = Path(spacy_lookups_data.__file__).parent / "data"
    with gzip.open(data / "en_lemma_lookup.json.gz", "rt", encoding="utf-8") as handle:
        lemmas = json.load(handle)
    alphabetic = re.compile(r"[a-z]+")
    stop = sorted(word for word in STOP_WORDS if alphabetic.fullmatch(word))
    stop_set = set(stop)
    content = sorted(
        word
        for word in {*lemmas, *(value for value in lemmas.values() if isinstance(value, str))}
        if alphabetic.fullmatch(word)
        and len(word) >= 3
        and word not in stop_set
        and lemmas.get(word, word) not in stop_set  # "hundreds" -> "hundred", a stop word: no index term
        and word not in _LEFT_OUT
        and not _PROFANE.fullmatch(word)
    )
    # The table has a million entries; a dict of them all would cost ~200 MB, so scan the text for ours.
    with gzip.open(data / "en_lexeme_prob.json.gz", "rt", encoding="utf-8") as handle:
        text = handle.read()
    wanted = {*stop, *content}
    probabilities = {
        match[1]: float(match[2])
        for match in re.finditer(r'^\s*"([a-z]+)"\s*:\s*(-?[0-9.eE+-]+)', text, re.MULTILINE)
        if match[1] in wanted
    }
    del text
    floor = min(probabilities.values()) - 1.0

    def logprob(words: list[str]) -> np.ndarray:
        return np.array([probabilities.get(word, floor) for word in words], dtype=np.float64)

    return tuple(stop), logprob(stop), tuple(content), logprob(content)


@dataclass(frozen=True)
class Vocabulary:
    """Words by Zipf rank (stop words first), their lower-case and capitalised forms, and rank samplers."""

    words: tuple[str, ...]
    forms: np.ndarray  # object: lower-case forms (ranks 0..V-1), then capitalised ones (V..2V-1)
    stop_count: int
    cdf: np.ndarray  # over all ranks
    content_cdf: np.ndarray  # over content ranks only (offset stop_count)

    @classmethod
    def build(cls, seed: int) -> Vocabulary:
        stop, stop_logprob, content, content_logprob = english_words()
        rng = streams.rng_for(seed, streams.VOCAB)
        ordered: list[str] = []
        for words, logprob in ((stop, stop_logprob), (content, content_logprob)):
            key = logprob + rng.normal(0.0, VOCAB_JITTER, len(words))
            ordered.extend(words[i] for i in np.argsort(-key, kind="stable"))
        lower = ["I" if word == "i" else word for word in ordered]
        forms = np.array(lower + [word[0].upper() + word[1:] for word in ordered], dtype=object)
        return cls(tuple(ordered), forms, len(stop), zipf_cdf(len(ordered)), zipf_cdf(len(content)))

    @property
    def size(self) -> int:
        return len(self.words)

    def draw(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """`n` word ids, Zipf over all ranks."""
        return np.minimum(np.searchsorted(self.cdf, rng.random(n), side="right"), self.size - 1)

    def draw_content(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """`n` content-word ids, Zipf over content ranks."""
        ranks = np.searchsorted(self.content_cdf, rng.random(n), side="right")
        return self.stop_count + np.minimum(ranks, self.size - self.stop_count - 1)


def zipf_cdf(size: int) -> np.ndarray:
    weights = np.arange(1, size + 1, dtype=np.float64) ** -ZIPF_EXPONENT
    cdf = np.cumsum(weights)
    return cdf / cdf[-1]
