"""What a masked sentence says between and around its two objects, as tokens a linear model can weigh.

Comparative sentences put their verdict between the two objects ("objfirst is much faster than objsecond"), so
the words there, right before and right after, are kept apart from the rest (Panchenko et al., ArgMining 2019,
found the middle part the most telling). Each word also says whether it is a comparative or a superlative
(JJR, JJS, with its base form: "faster" → fast) by spaCy's lemma tables, which need no trained pipeline, and
whether a negation governs it; a question ("Is objfirst faster than objsecond?") asks, it does not judge.

pattern_tokens reads the whole sentence as an abstract sequence (objects, comparatives by polarity, "than",
negations, clause breaks: "NEG F CP THAN S" for "No way is objfirst faster than objsecond") and gives its n-grams,
with each comparative's place relative to the two objects, flipped where a negation earlier in its clause governs it,
and how far it stands from each object.
"""

from __future__ import annotations

import re
from functools import lru_cache

import argrank.lazylibs as lazylibs
from argrank.text.cues import is_negation
from argrank.tracks.comparative.mentions import PLACEHOLDERS

TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?|[^\sa-z0-9]")
WINDOW = 3  # words kept before the first object and after the second
_MAX_GAP = 10  # middle lengths are told apart up to this many words
_MAX_LENGTH = 8  # sentence lengths in steps of five words, up to this many steps
_QUESTION_WORDS = frozenset("is are does do did can could should would which what why how will".split())
_CLAUSE_ENDS = frozenset(", ; : but while whereas".split())
_IRREGULAR = {"better": ("JJR", "good"), "worse": ("JJR", "bad"), "best": ("JJS", "good"), "worst": ("JJS", "bad"),
              "more": ("JJR", "more"), "less": ("JJR", "less"), "most": ("JJS", "most"), "least": ("JJS", "least")}


def comparison_tokens(masked: str) -> str:
    """The sentence's structure as space-separated tokens: the order of its objects, its length, the words before,
    between and after the closest pair of different objects (with bigrams between, and the words that open and
    close the middle), their degrees and negation, each comparative's base with whether a "than" follows it, and
    whether it is a question."""
    words = TOKEN.findall(masked.lower())
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
    if any(map(is_negation, before)):
        tokens.append("NEG_BEFORE")
    if masked.rstrip().endswith("?"):
        tokens.append("QUESTION")
    if words and words[0] in _QUESTION_WORDS:
        tokens.append(f"STARTS_{words[0]}")
    return " ".join(tokens)


def _segments(words: list[str]) -> tuple[list[str], list[str], list[str], str]:
    """The words before, between and after the closest mentions of two different objects, and their order; without
    both objects, all words count as before."""
    mentions = [(i, w) for i, w in enumerate(words) if w in PLACEHOLDERS]
    pairs = [(i, j) for (i, a), (j, b) in zip(mentions, mentions[1:]) if a != b]
    if not pairs:
        return words[-WINDOW:], [], [], "none"
    i, j = min(pairs, key=lambda pair: (pair[1] - pair[0], pair[0]))
    return words[max(0, i - WINDOW) : i], words[i + 1 : j], words[j + 1 : j + 1 + WINDOW], f"{words[i]}_{words[j]}"


def _tagged(words: list[str], prefix: str) -> list[str]:
    tokens = []
    for word in words:
        tokens.append(prefix + word)
        found = degree(word)
        if found:
            tokens += [f"{prefix}{found[0]}", f"{prefix}{found[0]}_{found[1]}"]
        if is_negation(word):
            tokens.append(f"{prefix}NEG")
    return tokens


def _scoped(middle: list[str]) -> list[str]:
    """The middle's words and degrees marked N_ after a negation, until the clause ends, P_ otherwise: "not
    better than" is not "better than"."""
    tokens, negated = [], False
    for word in middle:
        if is_negation(word):
            negated = True
            continue
        if word in _CLAUSE_ENDS:
            negated = False
        prefix = "N_" if negated else "P_"
        tokens.append(prefix + word)
        found = degree(word)
        if found:
            tokens.append(f"{prefix}{found[0]}_{found[1]}")
    return tokens


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


# Comparatives that speak against what precedes them: their own words, and the bases whose -er form does so.
_NEGATIVE_BASES = frozenset(
    "bad slow weak poor low ugly costly pricey heavy hard difficult expensive dumb stupid small old little few "
    "short".split()
)
_NEGATIVE_WORDS = frozenset("worse worst inferior slower weaker poorer lower uglier costlier pricier heavier harder "
                            "loses lose lags trails underperforms behind".split())
_POSITIVE_WORDS = frozenset("better best superior prefer prefers preferred preferable favour favor beats beat "
                            "outperforms outperform wins win surpasses exceeds ahead dominates dominate".split())
_BREAKS = frozenset(", ; : but while whereas although though however yet".split())
_COMPARE = frozenset("compared comparison vs versus against unlike".split())
_EQUAL = frozenset("like same equal equally similar".split())
_PATTERN_N = 4  # the longest n-gram of the abstract sequence
_FLIPPED = {"CP": "CN", "CN": "CP", "SP": "SN", "SN": "SP"}


def _symbol(word: str) -> str | None:
    """A word's class in the abstract sequence, None for a word that says nothing of the comparison."""
    if word in PLACEHOLDERS:
        return "F" if word == PLACEHOLDERS[0] else "S"
    if is_negation(word):
        return "NEG"
    fixed = {"than": "THAN", "more": "MORE", "less": "LESS", "and": "AND", "as": "AS", "?": "Q"}
    if word in fixed:
        return fixed[word]
    if word in _BREAKS:
        return "BR"
    if word in _COMPARE:
        return "CMP"
    if word in _EQUAL:
        return "EQ"
    if word in _NEGATIVE_WORDS:
        return "CN"
    if word in _POSITIVE_WORDS:
        return "CP"
    found = degree(word)
    if not found:
        return None
    negative = found[1] in _NEGATIVE_BASES
    return ("CN" if negative else "CP") if found[0] == "JJR" else ("SN" if negative else "SP")


def _symbols(masked: str) -> list[str]:
    """The sentence's abstract sequence, runs of one class (other than the objects) kept once; "less X" counts as
    X's opposite, "more X" as X."""
    symbols: list[str] = []
    for word in TOKEN.findall(masked.lower()):
        symbol = _symbol(word)
        if symbol is None or (symbols and symbols[-1] == symbol and symbol not in ("F", "S")):
            continue
        if symbols and symbols[-1] in ("MORE", "LESS") and symbol in ("CP", "CN"):
            symbols[-1] = _FLIPPED[symbol] if symbols[-1] == "LESS" else symbol
            continue
        symbols.append(symbol)
    return symbols


def pattern_tokens(masked: str) -> str:
    """The abstract sequence's n-grams (1 to _PATTERN_N, from its start ^ to its end $), and for each comparative
    or superlative, its polarity (flipped where a negation earlier in the clause governs it) with which objects come
    before and after it and whether "than" follows."""
    sequence = ["^", *_symbols(masked), "$"]
    tokens = [
        "P" + "_".join(sequence[i : i + n]) for n in range(1, _PATTERN_N + 1) for i in range(len(sequence) - n + 1)
    ]
    negated = False
    for i, symbol in enumerate(sequence):
        if symbol == "BR":
            negated = False
        elif symbol == "NEG":
            negated = True
        elif symbol in _FLIPPED:
            before = ("F" in sequence[:i]) + 2 * ("S" in sequence[:i])
            after = ("F" in sequence[i + 1 :]) + 2 * ("S" in sequence[i + 1 :])
            than = int("THAN" in sequence[i + 1 : i + 3])
            polarity = _FLIPPED[symbol] if negated else symbol
            tokens += [f"R_{polarity}_{before}_{after}_{than}", f"R_{symbol}_{before}_{after}_{than}_neg{int(negated)}"]
    return " ".join(tokens + _distance_tokens(masked))


def _distance_tokens(masked: str) -> list[str]:
    """For each comparative or superlative, its class with how many words away each object's nearest mention is
    (bucketed), and which object is nearer with whether it stands only before the comparative (L) or after (R)."""
    words = TOKEN.findall(masked.lower())
    at = {token: [i for i, word in enumerate(words) if word == token] for token in PLACEHOLDERS}
    tokens = []
    for i, word in enumerate(words):
        symbol = _symbol(word)
        if symbol not in _FLIPPED:
            continue
        near = {token: min((abs(i - j) for j in found), default=None) for token, found in at.items()}
        first, second = near[PLACEHOLDERS[0]], near[PLACEHOLDERS[1]]
        nearer = PLACEHOLDERS[0] if second is None or (first is not None and first < second) else PLACEHOLDERS[1]
        left = any(j < i for j in at[nearer]) and not any(j > i for j in at[nearer])
        tokens += [f"D_{symbol}_F{_bucket(first)}_S{_bucket(second)}",
                   f"D_{symbol}_near{'F' if nearer == PLACEHOLDERS[0] else 'S'}_{'L' if left else 'R'}"]  # fmt: skip
    return tokens


def _bucket(distance: int | None) -> str:
    if distance is None:
        return "n"
    return "1" if distance <= 1 else "3" if distance <= 3 else "6" if distance <= 6 else "far"
