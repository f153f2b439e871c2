"""retrieval/formulations.py: the text each shared query formulation takes from a topic, by the names a runs file
gives them: the title alone, or the title then the description, where a missing description adds no word and the
narrative (the assessors' guidance) never enters a query."""

from __future__ import annotations

import pytest

from argrank.formats.topics import Topic
from argrank.retrieval.formulations import SHARED_QUERIES, title, title_and_description

TOPIC = Topic(
    number="7",
    title="Should teachers get tenure?",
    description="A user wonders whether tenure protects good teaching.",
    narrative="Highly relevant arguments weigh job security against accountability.",
    fields={"category": "education"},
)


def _words(text: str) -> list[str]:
    return text.split()


def test_title_is_the_topics_title_alone():
    assert title(TOPIC) == TOPIC.title == title(Topic(number="7", title=TOPIC.title))


def test_title_and_description_is_the_title_then_the_description():
    text = title_and_description(TOPIC)
    assert _words(text) == _words(TOPIC.title) + _words(TOPIC.description)
    assert "accountability" not in text and "education" not in text  # neither the narrative nor other fields


@pytest.mark.parametrize("description", [None, ""])
def test_a_missing_description_adds_no_word(description):
    topic = Topic(number="3", title="Ban zoos", description=description)
    text = title_and_description(topic)
    assert _words(text) == ["Ban", "zoos"]
    assert "None" not in text


def test_the_shared_formulations_are_named_as_runs_files_name_them():
    assert SHARED_QUERIES == {"title": title, "title+description": title_and_description}
