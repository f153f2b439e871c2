"""What a masked sentence says between and around its two objects, as tokens a linear model can weigh.

Comparative sentences put their verdict between the two objects ("objfirst is much faster than objsecond"), so
the words there, right before and right after, are kept apart from the rest (Panchenko et al., ArgMining 2019,
found the middle part the most telling). Each word also says whether it is a comparative or a superlative
(JJR, JJS, with its base form: "faster" → fast) by spaCy's lemma tables, which need no trained pipeline, and
whether a negation governs it; a question ("Is objfirst faster than objsecond?") asks, it does not judge.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import compress

import argrank.lazylibs as lazylibs
from argrank.text.cues import is_negation
from argrank.tracks.comparative.mentions import PLACEHOLDERS

TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?|[^\sa-z0-9]")
WINDOW = 3  # words kept before the first object and after the second
_MAX_GAP = 10  # middle lengths are told apart up to this many words
_MAX_LENGTH = 8  # sentence lengths in steps of five words, up to this many steps
_PLACEHOLDERS = frozenset(PLACEHOLDERS)
_QUESTION_WORDS = frozenset("is are does do did can could should would which what why how will".split())
_CLAUSE_ENDS = frozenset(", ; : but while whereas".split())
_IRREGULAR = {"better": ("JJR", "good"), "worse": ("JJR", "bad"), "best": ("JJS", "good"), "worst": ("JJS", "bad"),
              "more": ("JJR", "more"), "less": ("JJR", "less"), "most": ("JJS", "most"), "least": ("JJS", "least")}


def comparison_tokens(masked: str, words: list[str] | None = None) -> str:
    """The sentence's structure as space-separated tokens: the order of its objects, its length, the words before,
    between and after the closest pair of different objects (with bigrams between, and the words that open and
    close the middle), their degrees and negation, each comparative's base with whether a "than" follows it, and
    whether it is a question. `words`, where the caller has them already, are TOKEN's of the lowercased sentence."""
    words = TOKEN.findall(masked.lower()) if words is None else words
    before, middle, after, order = _segments(words)
    tokens = [f"ORDER_{order}", f"GAP_{min(len(middle), _MAX_GAP)}", f"LENGTH_{min(len(words) // 5, _MAX_LENGTH)}"]
    tokens += _tagged(before, "B_") + _tagged(middle, "M_") + _tagged(after, "A_")
    tokens += [f"M2_{a}_{b}" for a, b in zip(middle, middle[1:])]
    if middle:
        tokens += [f"M_OPENS_{middle[0]}", f"M_CLOSES_{middle[-1]}"]
    tokens += _scoped(middle)
    than = "than" in middle
    tokens += [f"M_{found[1]}_THAN_{than}" for found in filter(None, map(degree, middle))]
    tokens += [f"D_{tag}" for tag, _ in filter(None, map(degree, words))]
    if any(_marks(word)[1] for word in before):
        tokens.append("NEG_BEFORE")
    if masked.rstrip().endswith("?"):
        tokens.append("QUESTION")
    if words and words[0] in _QUESTION_WORDS:
        tokens.append(f"STARTS_{words[0]}")
    return " ".join(tokens)


def _segments(words: list[str]) -> tuple[list[str], list[str], list[str], str]:
    """The words before, between and after the closest mentions of two different objects, and their order; without
    both objects, all words count as before."""
    mentions = [(i, words[i]) for i in compress(range(len(words)), map(_PLACEHOLDERS.__contains__, words))]
    pairs = [(i, j) for (i, a), (j, b) in zip(mentions, mentions[1:]) if a != b]
    if not pairs:
        return words[-WINDOW:], [], [], "none"
    i, j = min(pairs, key=lambda pair: (pair[1] - pair[0], pair[0]))
    return words[max(0, i - WINDOW) : i], words[i + 1 : j], words[j + 1 : j + 1 + WINDOW], f"{words[i]}_{words[j]}"


def _tagged(words: list[str], prefix: str) -> list[str]:
    tokens = []
    for word in words:
        tokens.append(prefix + word)
        found, negates = _marks(word)
        if found:
            tokens += [f"{prefix}{found[0]}", f"{prefix}{found[0]}_{found[1]}"]
        if negates:
            tokens.append(f"{prefix}NEG")
    return tokens


def _scoped(middle: list[str]) -> list[str]:
    """The middle's words and degrees marked N_ after a negation, until the clause ends, P_ otherwise: "not
    better than" is not "better than"."""
    tokens, negated = [], False
    for word in middle:
        found, negates = _marks(word)
        if negates:
            negated = True
            continue
        if word in _CLAUSE_ENDS:
            negated = False
        prefix = "N_" if negated else "P_"
        tokens.append(prefix + word)
        if found:
            tokens.append(f"{prefix}{found[0]}_{found[1]}")
    return tokens


@lru_cache(maxsize=65536)
def _marks(word: str) -> tuple[tuple[str, str] | None, bool]:
    """The word's degree and whether it is a negation, looked up once per distinct word."""
    return degree(word), is_negation(word)


@lru_cache(maxsize=65536)
def degree(word: str) -> tuple[str, str] | None:
    """("JJR", base) for a comparative adjective or adverb, ("JJS", base) for a superlative, else None.

    By spaCy's English lemma tables: an irregular form from its exceptions ("better" → good), else a word ending in
    -er or -est whose stem, as spaCy's adjective rules undo it (-er, -er after e, a doubled consonant, y → i), is an
    adjective or adverb there ("faster" → fast, "bigger" → big, "easier" → easy).
    """
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    exceptions, known = _tables()
    for suffix, tag in (("er", "JJR"), ("est", "JJS")):
        if not word.endswith(suffix) or len(word) <= len(suffix) + 2:
            continue
        if word in exceptions:
            base = exceptions[word]
            return (tag, base) if base != word else None
        stem = word[: -len(suffix)]
        candidates = [stem, stem + "e"]
        if stem[-1] == stem[-2]:
            candidates.append(stem[:-1])
        if stem.endswith("i"):
            candidates.append(stem[:-1] + "y")
        base = next((c for c in candidates if c in known), None)
        if base:
            return tag, base
    return None


@lru_cache(maxsize=1)
def _tables() -> tuple[dict[str, str], frozenset[str]]:
    """spaCy's adjective and adverb lemma exceptions (form → base) and known bases, loaded on first use."""
    spacy_lookups = lazylibs.spacy("lookups")

    lookups = spacy_lookups.load_lookups("en", ["lemma_exc", "lemma_index"])
    exc, index = lookups.get_table("lemma_exc"), lookups.get_table("lemma_index")
    exceptions = {form: bases[0] for pos in ("adj", "adv") for form, bases in exc[pos].items()}
    return exceptions, frozenset(word for pos in ("adj", "adv") for word in index[pos])
