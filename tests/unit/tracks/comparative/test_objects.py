"""A comparative topic's two objects: from <objects>, else read off the title; checked on the real 2022 topics."""

from __future__ import annotations

import pytest

from argrank.core.errors import InputError
from argrank.formats.topics import Topic, read_topics
from argrank.tracks.comparative.objects import objects_by_topic, objects_from_title, title_and_objects, topic_objects


@pytest.mark.parametrize(
    "title, objects",
    [
        ("Which is better, a laptop or a desktop?", ("laptop", "desktop")),
        ("What is the difference between sex and love?", ("sex", "love")),
        ("Why is Linux better than Windows?", ("Linux", "Windows")),
        ("Is Java code more readable than code written in Scala?", ("Java code", "code written")),
        ("Is it healthier to bake than to fry food?", ("bake", "fry food")),
        ("What are the advantages and disadvantages of PHP over Python and vice versa?", ("PHP", "Python")),
        ("Should I buy steel or ceramic knives?", ("steel knives", "ceramic knives")),
        ("Which is better, Family Guy or The Simpsons?", ("Family Guy", "The Simpsons")),
        ("Psoriasis vs Eczema: What is the difference?", ("Psoriasis", "Eczema")),
        ("Train or plane? Which is the better choice?", ("Train", "plane")),
        ("What are the best rice cookers?", None),
        ("Should I buy or rent?", None),
    ],
)
def test_objects_from_title(title, objects):
    assert objects_from_title(title) == objects


def test_named_objects_win_over_the_title():
    topic = Topic("3", "Which is better, Canon or Nikon?", fields={"objects": " Canon cameras ,Nikon "})
    assert topic_objects(topic) == ("Canon cameras", "Nikon")
    assert title_and_objects(topic) == "Which is better, Canon or Nikon? Canon cameras Nikon"
    assert title_and_objects(Topic("4", "What are the best rice cookers?")) == "What are the best rice cookers?"


@pytest.mark.parametrize("objects", ["Canon", "Canon, Nikon, Sony", "Canon, "])
def test_malformed_objects_name_the_file_and_topic(tmp_path, objects):
    path = tmp_path / "topics.xml"
    path.write_text(f"<topics><topic><number>7</number><title>t</title><objects>{objects}</objects></topic></topics>")
    with pytest.raises(InputError) as error:
        objects_by_topic(path)
    assert (error.value.path, error.value.where) == (str(path), "topic 7")
    assert "two objects" in error.value.problem


def test_titles_give_the_organisers_objects_for_most_2022_topics(shared_data):
    """The 2022 topics name their objects; reading them off the titles instead finds 48 of the 50 pairs."""
    topics = read_topics(shared_data / "touche-task2" / "topics-task2-2022.xml")
    named = objects_by_topic(shared_data / "touche-task2" / "topics-task2-2022.xml")
    assert len(named) == 50 and all(named.values())
    agree = [
        topic.number
        for topic in topics
        if tuple(o.lower() for o in objects_from_title(topic.title) or ()) == tuple(o.lower() for o in named[topic.number])
    ]
    assert len(agree) == 48


@pytest.mark.parametrize(("name", "with_objects"), [("topics-task-2-2020.xml", 43), ("topics-task-2-2021-titles.xml", 40)])
def test_older_topics_without_objects_still_load(shared_data, name, with_objects):
    found = objects_by_topic(shared_data / "touche-task2" / name)
    assert len(found) == 50
    assert sum(objects is not None for objects in found.values()) == with_objects
