"""Touché topics: both real years parse as published, extra elements are kept, and each malformed file is named."""

from __future__ import annotations

from pathlib import Path

import pytest

from argrank.errors import InputError
from argrank.topics import Topic, read_topics


def test_topics_2020_full(shared_data):
    topics = read_topics(shared_data / "touche-task1/topics-task-1-2020.xml")
    assert len(topics) == 49
    assert [t.number for t in topics] == [str(n) for n in range(1, 51) if n != 25]
    assert topics[0].title == "Should teachers get tenure?"
    assert topics[0].description.startswith("A user has heard that some countries do give teachers tenure")
    assert topics[0].narrative.startswith("Highly relevant arguments make a clear statement about tenure")
    for topic in topics:
        for text in (topic.title, topic.description, topic.narrative):
            assert text and text == text.strip()
        assert topic.fields == {}


def test_topics_2021_titles_only(shared_data):
    topics = read_topics(shared_data / "touche-task1/topics-task-1-2021.xml")
    assert [t.number for t in topics] == [str(n) for n in range(51, 101)]
    assert topics[0] == Topic("51", "Do we need sex education in schools?", None, None)
    assert topics[-1].title == "Do we need cash?"
    assert all(t.description is None and t.narrative is None for t in topics)


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "topics.xml"
    path.write_text(text, encoding="utf-8")
    return path


def test_extra_elements_are_kept_and_numbers_canonical(tmp_path):
    path = write(
        tmp_path,
        "<topics>\n<topic>\n<number> 07 </number>\n<title>\nWhich is better, a Mac or a PC?\n</title>\n"
        "<objects>Mac, PC</objects>\n<description></description>\n</topic>\n</topics>\n",
    )
    (topic,) = read_topics(path)
    assert topic == Topic("7", "Which is better, a Mac or a PC?", None, None, {"objects": "Mac, PC"})
    assert hash(topic) == hash(Topic("7", "Which is better, a Mac or a PC?"))


def topic(number: str, title: str = "A title?") -> str:
    return f"<topic><number>{number}</number><title>{title}</title></topic>"


@pytest.mark.parametrize(
    ("text", "where", "problem"),
    [
        (f"<topics>\n{topic('1')}\n<topic><number>2</number>\n</topics>", "line 4, column 3", "mismatched tag"),
        ("", "line 1, column 1", "no element found"),
        (f"<topic>{topic('1')}</topic>", "root", "expected <topics>, found <topic>"),
        ("<topics>\n\t\n</topics>", "", "no <topic> elements"),
        (f"<topics>{topic('1')}{topic('2')}<topic><title>T</title></topic></topics>", "topic #3", "<number>"),
        (f"<topics>{topic('1')}{topic('2')}{topic('3', '  ')}</topics>", "topic #3", "<title>"),
        (f"<topics>{topic('1')}<topic><number>2</number></topic></topics>", "topic #2", "<title>"),
        (f"<topics>{topic('1')}{topic('2')}{topic('01')}</topics>", "topic #3", "number 1 repeats topic #1"),
        (f"<topics>{topic('1')}{topic('two')}</topics>", "topic #2", "'two' is not an integer"),
        (f"<topics>{topic('1')}{topic('-2')}</topics>", "topic #2", "'-2' is not an integer"),
        (f"<topics>{topic('1')}<query>x</query></topics>", "topic #2", "expected <topic>, found <query>"),
        (
            "<topics><topic><number>1</number><title>a</title><title>b</title></topic></topics>",
            "topic #1",
            "more than one <title>",
        ),
        ("<topics><topic><number>1</number><title>a <b>c</b></title></topic></topics>", "topic #1", "holds elements"),
    ],
    ids=[
        "invalid-xml", "empty-file", "root-not-topics", "no-topics", "no-number", "blank-title", "no-title",
        "duplicate-number", "non-integer", "negative", "other-element", "repeated-child", "nested-child",
    ],
)
def test_bad_topics_file_names_file_and_place(tmp_path, text, where, problem):
    path = write(tmp_path, text)
    with pytest.raises(InputError) as caught:
        read_topics(path)
    assert caught.value.path == str(path)
    assert caught.value.where == where
    assert problem in caught.value.problem


def test_missing_file(tmp_path):
    with pytest.raises(InputError, match="topics.xml: cannot read"):
        read_topics(tmp_path / "topics.xml")
