"""What a masked passage says about its two objects: counted cues, which object it names first and most, the
words around each object, and its comparative sentences one by one.

A passage (a Stack Exchange answer, a web page's paragraph) rarely states its verdict in one "A is better than B"
sentence; on the Touché stance set the object an answer names first is the one it favours in 67 of 91 FIRST
answers and 41 of 71 SECOND ones, and the words next to each object ("objfirst just works") carry the rest.
Features that point to one side come in pairs or as differences, so swapping the objects swaps or negates them.
"""

from __future__ import annotations

import re
from itertools import compress
from math import log1p

import numpy as np
from scipy import sparse

from argrank.text.cues import NEGATION_WINDOW, NEGATIONS, SENTENCE_ENDS, is_negation
from argrank.tracks.comparative.comparison_features import TOKEN
from argrank.tracks.comparative.mentions import FIRST_TOKEN, SECOND_TOKEN

_OTHER = {FIRST_TOKEN: SECOND_TOKEN, SECOND_TOKEN: FIRST_TOKEN}
_SIDE = {FIRST_TOKEN: "first", SECOND_TOKEN: "second"}
_SWAP = re.compile(f"{FIRST_TOKEN}|{SECOND_TOKEN}")

# Sentences end at white space after ".", "!" or "?" (not at a version's dot), at line breaks, and at runs of three
# or more spaces (the Touché answers' paragraph breaks). Written to start with the white space it splits at, so the
# regex engine jumps between white space rather than trying every character: three times faster than the plain
# alternation (?<=[.!?])\s+|\n+|\s{3,}, which tests/unit/tracks/comparative/test_passage_features.py checks it against.
SENTENCES = re.compile(r"\s(?:(?<=[.!?]\s)\s*|(?<=\n)\n*|\s\s+)")
CONTEXT_WINDOW = 3  # words either side of a mention that describe it

# Comparative cues by the side they take: a positive cue favours the object named before it ("A beats B",
# "A is better than B"), or the one right after it when none comes before ("prefer A over B"); a negative cue
# favours the other one.
_POSITIVE = frozenset(
    "better best superior prefer prefers preferred preferable favour favor over beats beat outperforms outperform "
    "wins win surpasses exceeds faster quicker cheaper easier safer stronger healthier simpler smarter".split()
)
_NEGATIVE = frozenset(
    "worse worst inferior loses lose lags trails underperforms slower pricier costlier weaker riskier".split()
)
_NEUTRAL = frozenset("both equally equal same similar comparable alike depends either tie tied".split())

_NOTABLE = _POSITIVE | _NEGATIVE | _NEUTRAL | NEGATIONS | {"than", FIRST_TOKEN, SECOND_TOKEN}
_ENDS = frozenset(SENTENCE_ENDS)
_NOTABLE_OR_END = _NOTABLE | _ENDS
_WORD_START = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")  # a token that starts so is a word (cues.WORD)
_TOKEN = re.compile(f"{TOKEN.pattern}|\n")  # the sentence features' tokens, and line breaks (a sentence's end)

CUE_FEATURES = (
    "favours_first",
    "favours_second",
    "negated_favours_first",
    "negated_favours_second",
    "comparative_first_than_second",
    "comparative_second_than_first",
    "neutral_cues",
    "negations",
    "mentions_first",
    "mentions_second",
)


def swap_objects(masked: str) -> str:
    """The masked text with the two placeholders exchanged: the same passage, asked the other way round."""
    return _SWAP.sub(lambda match: _OTHER[match.group()], masked)


def comparative_sentences(masked: str) -> list[str]:
    """The passage's sentences that mention both objects, each with the object it names first as FIRST_TOKEN:
    a sentence classifier trained where the first-named object is always the first ("A is better than B",
    CompSent-19) then reads every sentence the way it learned, and its verdict is swapped back by the caller."""
    if FIRST_TOKEN not in masked or SECOND_TOKEN not in masked:
        return []
    return [sentence for sentence in SENTENCES.split(masked) if FIRST_TOKEN in sentence and SECOND_TOKEN in sentence]


def names_second_first(sentence: str) -> bool:
    return sentence.find(SECOND_TOKEN) < sentence.find(FIRST_TOKEN)


def cue_matrix(texts: list[str], tokens: list[list[str]] | None = None) -> sparse.csr_matrix:
    """CUE_FEATURES of each masked text (whose `tokens` the caller may have already), damped by log(1 + count) so a
    long passage does not swamp the n-grams."""
    tokens = [None] * len(texts) if tokens is None else tokens
    counts = [list(cue_counts(text, words).values()) for text, words in zip(texts, tokens, strict=True)]
    return sparse.csr_matrix(np.log1p(np.array(counts, dtype=float).reshape(len(texts), len(CUE_FEATURES))))


def tokenize(masked: str) -> list[str]:
    """The masked text's words, punctuation marks and line breaks, in lowercase: what cue_counts and
    context_tokens both read, so that a passage is tokenized once."""
    return _TOKEN.findall(masked.lower())


def cue_counts(masked: str, tokens: list[str] | None = None) -> dict[str, int]:
    """How often each of CUE_FEATURES occurs in a masked text (whose `tokens` the caller may have already), one
    sentence at a time.

    A comparative cue favours an object as described at _POSITIVE; it counts as negated where one of the
    NEGATION_WINDOW words before it is a negation. A "than" after a comparative ("-er", "more x", "less x") counts
    by the order of the mentions around it, whatever the comparative says. Punctuation other than a sentence's
    end is not a word here.
    """
    tokens = tokenize(masked) if tokens is None else tokens
    counts = dict.fromkeys(CUE_FEATURES, 0)
    # Only the positions of notable words, negations by "n't" and sentence ends are looked at one by one: the passes
    # over all tokens stay in C (map, compress), and words ending in "'s" or "n't" are sought among the distinct ones
    # with an apostrophe, of a text that has one at all.
    apostrophed = [token for token in set(tokens) if "'" in token] if "'" in masked else ()
    possessives = {token: token[:-2] for token in apostrophed if token.endswith("'s")}
    if possessives:  # "objfirst's" is a mention of objfirst
        tokens = list(map(possessives.get, tokens, tokens))
    negations = [token for token in apostrophed if token.endswith("n't")]
    notable = _NOTABLE_OR_END.union(negations) if negations else _NOTABLE_OR_END
    marks = list(compress(range(len(tokens)), map(notable.__contains__, tokens)))
    start, before = 0, None  # the current sentence's first token, and its last mention so far
    for at, after in zip(marks, _mentions_after(tokens, marks)):
        word = tokens[at]
        if word in _ENDS:
            start, before = at + 1, None
        elif word == FIRST_TOKEN:
            counts["mentions_first"] += 1
            before = word
        elif word == SECOND_TOKEN:
            counts["mentions_second"] += 1
            before = word
        elif is_negation(word):
            counts["negations"] += 1
        elif word in _NEUTRAL:
            counts["neutral_cues"] += 1
        elif word == "than":
            if before and after and before != after and _follows_comparative(_words_before(tokens, start, at, 2)):
                counts[f"comparative_{_SIDE[before]}_than_{_SIDE[after]}"] += 1
        elif subject := before or after:
            favoured = subject if word in _POSITIVE else _OTHER[subject]
            negated = any(map(is_negation, _words_before(tokens, start, at, NEGATION_WINDOW)))
            counts[f"{'negated_' if negated else ''}favours_{_SIDE[favoured]}"] += 1
    return counts


def _mentions_after(tokens: list[str], marks: list[int]) -> list[str | None]:
    """For each of the notable positions `marks`, the nearest mention after it in its sentence (None if none)."""
    after, nearest = [], None
    for at in reversed(marks):
        after.append(nearest)
        word = tokens[at]
        nearest = None if word in _ENDS else word if word in _OTHER else nearest
    return after[::-1]


def _words_before(tokens: list[str], start: int, at: int, count: int) -> list[str]:
    """Up to `count` words right before position `at` and not before `start`, in order: punctuation is skipped."""
    words, j = [], at - 1
    while j >= start and len(words) < count:
        if tokens[j][0] in _WORD_START:
            words.append(tokens[j])
        j -= 1
    return words[::-1]


def _follows_comparative(last_two: list[str]) -> bool:
    """Whether the two words before a position end in a comparative: "-er", "more", "less", "more x", "less x"."""
    return (len(last_two) > 0 and last_two[-1].endswith("er")) or "more" in last_two or "less" in last_two


def context_tokens(masked: str, tokens: list[str] | None = None) -> str:
    """The words and punctuation within CONTEXT_WINDOW of each mention, marked by the object they describe (F_fast,
    S_slow), of a masked text whose `tokens` the caller may have already."""
    tokens = tokenize(masked) if tokens is None else tokens
    if FIRST_TOKEN not in tokens and SECOND_TOKEN not in tokens:
        return "NO_MENTION"
    words = list(filter("\n".__ne__, tokens)) if "\n" in tokens else tokens
    context = []
    for i in compress(range(len(words)), map(_OTHER.__contains__, words)):
        mark = "F_" if words[i] == FIRST_TOKEN else "S_"
        near = words[max(0, i - CONTEXT_WINDOW) : i] + words[i + 1 : i + 1 + CONTEXT_WINDOW]
        context += [mark + other for other in near if other not in _OTHER]
    return " ".join(context) or "NO_MENTION"


DIRECTION_FEATURES = (
    "mention_balance",  # (first - second) / (first + second + 1) mentions
    "named_first",  # +1 the first object is named before the second, -1 after, 0 neither named
    "mentions",  # log(1 + first) + log(1 + second)
    "names_both",
    "cue_balance",  # damped favours_first - favours_second
    "than_balance",  # damped comparative_first_than_second - comparative_second_than_first
    "neutral_cues",
    "length",  # log(1 + words) / 6: about 1 for a 400-word passage
    "has_comparative_sentence",
    "sentence_balance",  # the sentence classifier's strongest FIRST minus strongest SECOND
    "sentence_none",  # its mean NONE score
    "comparative_sentences",  # log(1 + count)
    "sentence_votes_balance",  # damped count voted FIRST - count voted SECOND
    "sentence_votes",  # damped count voted either
)


def direction_row(masked: str, cues: dict[str, int]) -> list[float]:
    """The DIRECTION_FEATURES up to "length" of a masked passage with these cue_counts."""
    first, second = masked.count(FIRST_TOKEN), masked.count(SECOND_TOKEN)
    at_first, at_second = masked.find(FIRST_TOKEN), masked.find(SECOND_TOKEN)
    named_first = 0 if at_first < 0 and at_second < 0 else 1 if at_second < 0 or 0 <= at_first < at_second else -1
    return [
        (first - second) / (first + second + 1),
        named_first,
        log1p(first) + log1p(second),
        float(first > 0 and second > 0),
        log1p(cues["favours_first"]) - log1p(cues["favours_second"]),
        log1p(cues["comparative_first_than_second"]) - log1p(cues["comparative_second_than_first"]),
        log1p(cues["neutral_cues"]),
        log1p(len(masked.split())) / 6,
    ]


def sentence_evidence(verdicts: np.ndarray, counts: list[int]) -> np.ndarray:
    """The DIRECTION_FEATURES from "has_comparative_sentence" on, one row per passage, of passages whose comparative
    sentences the sentence classifier scored `verdicts` (rows: sentences, passage by passage, `counts[k]` of passage
    k's; columns: FIRST, SECOND, NONE, in the sentence's own order); zeros where a passage has none. All passages at
    once: numpy's calls on one passage's few sentences cost more than their arithmetic."""
    counts = np.asarray(counts, dtype=np.intp)
    evidence = np.zeros((len(counts), 6))
    scored = counts > 0
    if not scored.any():
        return evidence
    sizes = counts[scored]
    starts = np.cumsum(sizes) - sizes
    strongest = np.maximum.reduceat(verdicts[:, :2], starts, axis=0)
    votes = verdicts.argmax(axis=1)
    passage = np.repeat(np.arange(len(sizes)), sizes)
    for_first = np.log1p(np.bincount(passage[votes == 0], minlength=len(sizes)))
    for_second = np.log1p(np.bincount(passage[votes == 1], minlength=len(sizes)))
    evidence[scored] = np.column_stack([
        np.ones(len(sizes)),
        strongest[:, 0] - strongest[:, 1],
        np.add.reduceat(verdicts[:, 2], starts) / sizes,
        np.log1p(sizes),
        for_first - for_second,
        for_first + for_second,
    ])  # fmt: skip
    return evidence
