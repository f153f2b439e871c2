"""The two objects a comparative topic compares, which the query and the stance classifier both need.

Touché 2022 topics name them (`<objects>laptop, desktop</objects>`); the 2020 and 2021 topics do not, so
they are read off the title: the words either side of "or", "vs", "versus", "over", "than" or "between … and",
each side running until a function word ("Which is better, a laptop or a desktop?" → laptop, desktop), and a
head noun shared across "or" going to both ("steel or ceramic knives" → steel knives, ceramic knives). On the
2022 titles this finds the organisers' objects for most topics (a test holds the count); titles that compare
nothing ("What are the best rice cookers?") have no objects.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import argrank.lazylibs as lazylibs
from argrank.core.errors import InputError
from argrank.formats.topics import Topic, read_topics

_FRAMING = {"prefer", "buy", "take", "learn", "choose", "use", "better", "worse", "best", "worst"}


@lru_cache(maxsize=1)
def _boundary() -> frozenset[str]:
    """Where an object ends: function words, plus the verbs and comparatives that frame comparative questions.
    (spaCy's stop words are imported on first use: importing spaCy takes most of a second.)"""
    stop_words = lazylibs.spacy("lang.en.stop_words")

    return frozenset(stop_words.STOP_WORDS) | _FRAMING

_CLAUSES = re.compile(r"[,:;?!]")
_CONNECTORS = ("or", "vs", "vs.", "versus", "over", "than")
_MAX_WORDS = 4


def topic_objects(topic: Topic) -> tuple[str, str] | None:
    """(first, second) from the topic's <objects>, else from its title; None when the title compares nothing."""
    named = topic.fields.get("objects")
    if named is None:
        return objects_from_title(topic.title)
    parts = [part.strip() for part in named.split(",")]
    if len(parts) != 2 or not all(parts):
        raise ValueError(f"topic {topic.number}: <objects> must name two objects as 'first, second', got {named!r}")
    return parts[0], parts[1]


def objects_by_topic(path: str | Path) -> dict[str, tuple[str, str] | None]:
    """Topic number → its objects, for every topic of a topics file; malformed <objects> name the file."""
    found = {}
    for topic in read_topics(path):
        try:
            found[topic.number] = topic_objects(topic)
        except ValueError as error:
            raise InputError(path, f"topic {topic.number}", str(error).split(": ", 1)[1]) from None
    return found


def objects_from_title(title: str) -> tuple[str, str] | None:
    """The first clause of the title that compares two things, as (first, second)."""
    for clause in _CLAUSES.split(title):
        words = clause.split()
        lowered = [word.lower() for word in words]
        if "between" in lowered and "and" in lowered[lowered.index("between") :]:
            start = lowered.index("between")
            found = _around(words, lowered.index("and", start), skip_before=0)
        else:
            at = next((i for i, word in enumerate(lowered) if word in _CONNECTORS), None)
            # "healthier than": the comparative before "than" belongs to neither object.
            found = None if at is None else _around(words, at, skip_before=_comparative_length(lowered, at))
        if found:
            return found
    return None


def _comparative_length(lowered: list[str], at: int) -> int:
    """How many words before a "than" at `at` form the comparative ("healthier", "more readable"); 0 elsewhere."""
    if lowered[at] != "than" or at == 0:
        return 0
    if at >= 2 and lowered[at - 2] in ("more", "less"):
        return 2
    return int(lowered[at - 1] in ("better", "worse") or lowered[at - 1].endswith("er"))


def _around(words: list[str], at: int, skip_before: int) -> tuple[str, str] | None:
    """The object ending just before words[at - skip_before] and the one starting after words[at]."""
    left: list[str] = []
    for word in reversed(words[: at - skip_before]):
        if word.lower() in _boundary() or len(left) == _MAX_WORDS:
            break
        left.insert(0, word)
    right: list[str] = []
    for word in words[at + 1 :]:
        if word.lower() in _boundary() and not (word == "The" and not right):  # "The Simpsons" is a name
            if right:
                break
            continue  # leading articles and particles: "or a desktop", "than to fry food"
        if len(right) == _MAX_WORDS:
            break
        right.append(word)
    if not (left and right):
        return None
    if len(left) == 1 and len(right) > 1 and words[at].lower() not in ("than", "over"):
        left += right[1:]  # the head noun is written once: "steel or ceramic knives"
    return " ".join(left), " ".join(right)


def title_and_objects(topic: Topic) -> str:
    """The `title+objects` query: a topic's title and its two objects, so each object weighs twice as much as the
    question's other words and a passage about only one of them ranks below one that compares both."""
    return " ".join((topic.title, *(topic_objects(topic) or ())))
