"""Finding the objects' mentions: the matcher against the same rules written as one case-insensitive regex (the
way they were first implemented, and the simplest statement of them), on generated texts and names."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from argrank.tracks.comparative.mentions import (
    _ES_PLURAL,
    FIRST_TOKEN,
    SECOND_TOKEN,
    _is_distinctive,
    _mentions,
    _name_words,
    mask_mentions,
)


def _optional_plural(pattern: str, last_word: str) -> str:
    return pattern + (r"(?:es|s)?" if last_word.casefold().endswith(_ES_PLURAL) else r"s?")


def reference_pattern(first: str, second: str) -> re.Pattern:
    """Each object's alternatives in one named group (full name with white space or hyphens between its words,
    the words run together, the initials, the distinctive words), the object with the longer name first."""
    words = {FIRST_TOKEN: _name_words(first), SECOND_TOKEN: _name_words(second)}
    groups = {}
    for token, other in ((FIRST_TOKEN, SECOND_TOKEN), (SECOND_TOKEN, FIRST_TOKEN)):
        own, theirs = words[token], {w.casefold() for w in words[other]}
        alternatives = [_optional_plural(r"[\s\-]*".join(map(re.escape, own)), own[-1])]
        if len(own) > 1:
            alternatives.append(_optional_plural("".join(map(re.escape, own)), own[-1]))
            initials = "".join(w[0] for w in own)
            if initials.casefold() not in theirs:
                alternatives.append(_optional_plural(re.escape(initials), initials))
            alternatives += [
                _optional_plural(re.escape(w), w) for w in own if _is_distinctive(w) and w.casefold() not in theirs
            ]
        groups[token] = f"(?P<{token}>" + "|".join(dict.fromkeys(alternatives)) + ")"
    order = sorted(groups, key=lambda t: -len(" ".join(words[t])))
    return re.compile(r"(?<![\w+#])(?:" + "|".join(groups[t] for t in order) + r")(?![\w+#])", re.IGNORECASE)


NAMES = st.one_of(
    st.sampled_from(["e book", "Visual Studio Code", "tea", "box", "c++", "C#", "node.js", "ab sh", "is tea"]),
    st.lists(st.sampled_from(["tea", "Tea", "coffee", "box", "c++", "c#", "node.js", "e", "book", "is", "Visual",
                              "Studio", "code", "ab", "sh"]), min_size=1, max_size=3).map(" ".join),
)  # fmt: skip
TEXT_PIECES = st.sampled_from(["tea", "TEA", "teas", "coffee", "coffees", "boxes", "boxs", "c++", "C#", "node.js",
                               "e-book", "ebooks", "e book", "vsc", "vs", "VS Code", "studio", "code", " ", "-",
                               "  ", "\n", ".", ",", "x", "_", "+", "#", "'s", "books", "is", "abs", "shes"])  # fmt: skip


@settings(max_examples=4000, deadline=None)
@given(st.lists(TEXT_PIECES, max_size=25).map("".join), NAMES, NAMES)
def test_the_matcher_finds_what_the_regex_finds(text, first, second):
    expected = [(m.start(), m.end(), m.lastgroup) for m in reference_pattern(first, second).finditer(text)]
    assert _mentions(text, first, second) == expected


def test_masking_names_plurals_initials_and_distinctive_words():
    text = "I moved from Visual Studio Code (VSC) to visual-studio-codes, then to Emacs; studio is fine."
    assert mask_mentions(text, "Visual Studio Code", "emacs") == (
        "I moved from objfirst (objfirst) to objfirst, then to objsecond; objfirst is fine."
    )


def test_positions_hold_where_lowercasing_changes_a_length():
    # "İ" lowercases to two characters; the mention after it is still masked at its own place.
    assert mask_mentions("İ like tea more than coffee", "tea", "coffee") == "İ like objfirst more than objsecond"
