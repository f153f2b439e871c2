"""Where a passage mentions a comparative question's two objects, and the passage with those mentions masked.

The stance model reads placeholders, not names, so it learns "objfirst is better than objsecond" rather than
which brands tend to win. Real answers rarely repeat the question's object verbatim ("simple but more
expensive", "IntelliJ IDEA" for "IntelliJ"), so a mention is any of, in case-insensitive whole words:

- the name, with any white space or a hyphen between its words, or none ("e-books", "ebooks"), and its plural;
- the name's initials, for names of two or more words ("VS Code" for "Visual Studio Code": "vsc", "vs");
- a distinctive word of the name: one of at least three letters, no stop word, and not in the other object's
  name ("RDBMS" for "offload work to the RDBMS", "SDET" for "Microsoft SDET Interview").

Where a training set marks the mentions itself (the Touché set's character spans), those spans are masked too,
widened to whole words. Where both objects could claim a stretch, the longer match wins.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

import argrank.lazylibs as lazylibs

FIRST_TOKEN = "objfirst"  # plain lowercase letters: every tokenizer keeps each one a single word
SECOND_TOKEN = "objsecond"
PLACEHOLDERS = (FIRST_TOKEN, SECOND_TOKEN)

Span = tuple[int, int]

_ES_PLURAL = ("s", "x", "z", "ch", "sh", "o")
_NAME_WORD = re.compile(r"[^\W_]+(?:[+#]+|\.\w+)*", re.UNICODE)  # "C++", "C#", "Node.js" stay whole
_MIN_DISTINCTIVE = 3


def mask_mentions(
    text: str, first: str, second: str, first_spans: Sequence[Span] = (), second_spans: Sequence[Span] = ()
) -> str:
    """`text` with each mention of `first` replaced by FIRST_TOKEN and of `second` by SECOND_TOKEN.

    Raises ValueError where an object name is blank. Spans outside the text are the reader's to refuse; here they
    are clipped to it.
    """
    given = _given(text, first_spans, FIRST_TOKEN) + _given(text, second_spans, SECOND_TOKEN)
    found = _mentions(text, first, second)  # in text order, never overlapping: chosen as they are without spans
    chosen = _without_overlaps(given + found) if given else found
    pieces, at = [], 0
    for start, end, token in chosen:
        pieces += [text[at:start], token]
        at = end
    pieces.append(text[at:])
    return "".join(pieces)


def _without_overlaps(marked: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """The marked spans, longest first, then leftmost, each kept where it overlaps none kept before: in text order."""
    chosen: list[tuple[int, int, str]] = []
    for start, end, token in sorted(marked, key=lambda m: (m[0] - m[1], m[0])):
        at = bisect.bisect_left(chosen, (start,))
        if (at == 0 or chosen[at - 1][1] <= start) and (at == len(chosen) or chosen[at][0] >= end):
            chosen.insert(at, (start, end, token))
    return chosen


def _given(text: str, spans: Sequence[Span], token: str) -> list[tuple[int, int, str]]:
    """A training set's own mention spans, widened to whole words (annotators' spans may cut a word)."""
    found = []
    for start, end in spans:
        start, end = max(0, min(start, len(text))), max(0, min(end, len(text)))
        while start > 0 and text[start - 1].isalnum():
            start -= 1
        while end < len(text) and text[end].isalnum():
            end += 1
        while start < end and text[start].isspace():
            start += 1
        if start < end:
            found.append((start, end, token))
    return found


@dataclass(frozen=True)
class _Variant:
    """One way a text may name an object: its words (lowercase), any run of white space and hyphens allowed between
    them, then one of `endings` (the plural's, longest first, then none)."""

    token: str
    words: tuple[str, ...]
    endings: tuple[str, ...]


@lru_cache(maxsize=4096)
def _variants(first: str, second: str) -> tuple[_Variant, ...]:
    """Both objects' variants in the order they are tried at a position: the object with the longer name first,
    each object's full name, then its words run together, its initials and its distinctive words."""
    words = {FIRST_TOKEN: _name_words(first), SECOND_TOKEN: _name_words(second)}
    if not all(words.values()):
        raise ValueError("an object name is blank")
    by_token: dict[str, list[_Variant]] = {}
    for token, other in ((FIRST_TOKEN, SECOND_TOKEN), (SECOND_TOKEN, FIRST_TOKEN)):
        own, theirs = [_lower(w) for w in words[token]], {w.casefold() for w in words[other]}
        variants = [_Variant(token, tuple(own), _endings(own[-1]))]
        if len(own) > 1:
            variants.append(_Variant(token, ("".join(own),), _endings(own[-1])))  # "e-book" written "ebook"
            initials = "".join(w[0] for w in own)
            if initials.casefold() not in theirs:
                variants.append(_Variant(token, (initials,), _endings(initials)))
            variants += [
                _Variant(token, (w,), _endings(w)) for w in own if _is_distinctive(w) and w.casefold() not in theirs
            ]
        by_token[token] = list(dict.fromkeys(variants))
    longer_first = sorted(by_token, key=lambda t: -len(" ".join(words[t])))  # stable: the first object on a tie
    return tuple(v for token in longer_first for v in by_token[token])


def _mentions(text: str, first: str, second: str) -> list[tuple[int, int, str]]:
    """Each mention's (start, end, placeholder), left to right and never overlapping: at each position where a word
    starts, the first variant (in _variants' order) that matches and ends where a word ends."""
    by_first_word = _by_first_word(first, second)
    lowered = _lower(text)
    # Every variant starts with its first word: only where that occurs, and starts a word, is the variant tried.
    tried: dict[int, tuple[tuple[int, _Variant], ...]] = {}
    for word, variants in by_first_word.items():
        at = lowered.find(word)
        while at >= 0:
            if at == 0 or not _in_word(lowered[at - 1]):
                known = tried.get(at)
                tried[at] = variants if known is None else tuple(sorted(known + variants))
            at = lowered.find(word, at + 1)
    found, after = [], 0
    for start in sorted(tried):
        if start < after:
            continue
        for _, variant in tried[start]:
            end = _match(lowered, start + len(variant.words[0]), variant)
            if end is not None:
                found.append((start, end, variant.token))
                after = end
                break
    return found


@lru_cache(maxsize=4096)
def _by_first_word(first: str, second: str) -> dict[str, tuple[tuple[int, _Variant], ...]]:
    """Each first word of the pair's variants, and the variants that start with it, each with its place in
    _variants' order."""
    grouped: dict[str, list[tuple[int, _Variant]]] = {}
    for order, variant in enumerate(_variants(first, second)):
        grouped.setdefault(variant.words[0], []).append((order, variant))
    return {word: tuple(variants) for word, variants in grouped.items()}


def _match(lowered: str, at: int, variant: _Variant) -> int | None:
    """Where `variant`, whose first word ends at position `at`, ends, if its other words follow and it ends at a
    word's end; else None."""
    for word in variant.words[1:]:
        while at < len(lowered) and (lowered[at].isspace() or lowered[at] == "-"):
            at += 1
        if not lowered.startswith(word, at):
            return None
        at += len(word)
    for ending in variant.endings:
        end = at + len(ending)
        if lowered.startswith(ending, at) and (end == len(lowered) or not _in_word(lowered[end])):
            return end
    return None


def _in_word(char: str) -> bool:
    """Whether `char` may continue a name's word: a letter, digit, "_", "+" or "#" ("C++", "C#")."""
    return char.isalnum() or char in "_+#"


def _lower(text: str) -> str:
    """`text` in lowercase, each character for itself, so positions stay those of `text` ("İ" lowercases to two)."""
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


def _endings(last_word: str) -> tuple[str, ...]:
    """The plural's endings: +s, or +es after s, x, z, ch, sh, o ("boxes", never "cares"); or none."""
    return ("es", "s", "") if last_word.casefold().endswith(_ES_PLURAL) else ("s", "")


def _name_words(name: str) -> list[str]:
    return _NAME_WORD.findall(name)


def _is_distinctive(word: str) -> bool:
    stop_words = lazylibs.spacy("lang.en.stop_words")

    return len(word) >= _MIN_DISTINCTIVE and word.casefold() not in stop_words.STOP_WORDS and not word.isdigit()
