"""What a masked passage says about its two objects: counted cues, which object it names first and most, the
words around each object, and its comparative sentences one by one.

A passage (a Stack Exchange answer, a web page's paragraph) rarely states its verdict in one "A is better than B"
sentence; on the Touché stance set the object an answer names first is the one it favours in 67 of 91 FIRST
answers and 41 of 71 SECOND ones, and the words next to each object ("objfirst just works") carry the rest.
Features that point to one side come in pairs or as differences, so swapping the objects swaps or negates them.
"""

from __future__ import annotations

import bisect
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


def cue_matrix(texts: list[str]) -> sparse.csr_matrix:
    """CUE_FEATURES of each masked text, damped by log(1 + count) so a long passage does not swamp the n-grams."""
    counts = [list(cue_counts(text).values()) for text in texts]
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
    # of a text that has an apostrophe at all.
    distinct = set(tokens) if "'" in masked else ()
    possessives = {token: token[:-2] for token in distinct if token.endswith("'s")}
    if possessives:  # "objfirst's" is a mention of objfirst
        tokens = list(map(possessives.get, tokens, tokens))
    negations = [token for token in distinct if token.endswith("n't")]
    notable = _NOTABLE_OR_END.union(negations) if negations else _NOTABLE_OR_END
    marks = list(compress(range(len(tokens)), map(notable.__contains__, tokens)))
    ends = [at for at in marks if tokens[at] in _ENDS] + [len(tokens)]
    start, positions = 0, None  # the current sentence's first token, and where its words are once a cue needs them
    for at in marks:
        word = tokens[at]
        if word in _ENDS:
            start, positions = at + 1, None
        elif word == FIRST_TOKEN:
            counts["mentions_first"] += 1
        elif word == SECOND_TOKEN:
            counts["mentions_second"] += 1
        elif is_negation(word):
            counts["negations"] += 1
        elif word in _NEUTRAL:
            counts["neutral_cues"] += 1
        else:
            if positions is None:
                end = ends[bisect.bisect_left(ends, at)]
                positions = [j for j in range(start, end) if tokens[j][0] in _WORD_START]
                words = [tokens[j] for j in positions]
                before, after = _nearest_mentions(words)
            i = bisect.bisect_left(positions, at)
            if word == "than":
                if _follows_comparative(words, i) and before[i] and after[i] and before[i] != after[i]:
                    counts[f"comparative_{_SIDE[before[i]]}_than_{_SIDE[after[i]]}"] += 1
            elif subject := before[i] or after[i]:
                favoured = subject if word in _POSITIVE else _OTHER[subject]
                negated = any(map(is_negation, words[max(0, i - NEGATION_WINDOW) : i]))
                counts[f"{'negated_' if negated else ''}favours_{_SIDE[favoured]}"] += 1
    return counts


def _nearest_mentions(words: list[str]) -> tuple[list[str | None], list[str | None]]:
    """For each position, the nearest placeholder before it and the nearest after it (None where there is none)."""
    before, after = [], []
    last = None
    for word in words:
        before.append(last)
        last = word if word in _OTHER else last
    last = None
    for word in reversed(words):
        after.append(last)
        last = word if word in _OTHER else last
    return before, after[::-1]


def _follows_comparative(words: list[str], i: int) -> bool:
    """Whether the words before position `i` end in a comparative: "-er", "more", "less", "more x", "less x"."""
    last_two = words[max(0, i - 2) : i]
    return (i > 0 and words[i - 1].endswith("er")) or "more" in last_two or "less" in last_two


def context_tokens(masked: str, tokens: list[str] | None = None) -> str:
    """The words and punctuation within CONTEXT_WINDOW of each mention, marked by the object they describe (F_fast,
    S_slow), of a masked text whose `tokens` the caller may have already."""
    tokens = tokenize(masked) if tokens is None else tokens
    if FIRST_TOKEN not in tokens and SECOND_TOKEN not in tokens:
        return "NO_MENTION"
    words = [token for token in tokens if token != "\n"] if "\n" in tokens else tokens
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


def direction_row(masked: str, cues: dict[str, int], verdicts: np.ndarray) -> list[float]:
    """DIRECTION_FEATURES of a masked passage with these cue_counts, whose comparative sentences the sentence
    classifier scored `verdicts` (rows: sentences; columns: FIRST, SECOND, NONE, in the passage's own order)."""
    first, second = masked.count(FIRST_TOKEN), masked.count(SECOND_TOKEN)
    at_first, at_second = masked.find(FIRST_TOKEN), masked.find(SECOND_TOKEN)
    named_first = 0 if at_first < 0 and at_second < 0 else 1 if at_second < 0 or 0 <= at_first < at_second else -1
    row = [
        (first - second) / (first + second + 1),
        named_first,
        log1p(first) + log1p(second),
        float(first > 0 and second > 0),
        log1p(cues["favours_first"]) - log1p(cues["favours_second"]),
        log1p(cues["comparative_first_than_second"]) - log1p(cues["comparative_second_than_first"]),
        log1p(cues["neutral_cues"]),
        log1p(len(masked.split())) / 6,
    ]
    if len(verdicts) == 0:
        return row + [0.0] * 6
    votes = verdicts.argmax(axis=1).tolist()
    for_first, for_second = votes.count(0), votes.count(1)
    return row + [
        1.0,
        float(verdicts[:, 0].max() - verdicts[:, 1].max()),
        float(verdicts[:, 2].mean()),
        log1p(len(verdicts)),
        log1p(for_first) - log1p(for_second),
        log1p(for_first) + log1p(for_second),
    ]
