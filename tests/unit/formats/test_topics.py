"""Touché topics: both real years parse as published, extra elements are kept, and each malformed file is named."""

from __future__ import annotations

from pathlib import Path

import pytest

from argrank.core.errors import InputError
from argrank.formats import topics as topics_module
from argrank.formats.topics import Topic, read_topics


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


def test_image_track_queries_jsonl(shared_data):
    topics = read_topics(shared_data / "image-retrieval/sample-collection/queries.jsonl")
    assert topics == [
        Topic("34", "Are social networking sites good for our society?"),
        Topic("48", "Should the voting age be lowered?"),
    ]


def test_queries_jsonl_canonical_numbers_and_blank_lines(tmp_path):
    path = tmp_path / "queries.jsonl"
    text = '\ufeff{"qid": "007", "query": "  Is it?  "}\n\n{"qid": 12, "query": "And this?"}\n'
    path.write_text(text, encoding="utf-8")
    assert read_topics(path) == [Topic("7", "Is it?"), Topic("12", "And this?")]


@pytest.mark.parametrize(
    ("lines", "where", "problem"),
    [
        (['{"qid": "1", "query": "q"', ""], "line 1, column 26", "malformed JSON"),
        (['{"qid": "1", "query": "q"}', '["2", "q"]'], "line 2", "not a JSON object"),
        (['{"qid": "1"}'], "line 1", "missing 'query'"),
        (['{"query": "q"}'], "line 1", "missing 'qid'"),
        (['{"qid": "x1", "query": "q"}'], "line 1", "qid 'x1' is not a non-negative integer"),
        (['{"qid": -3, "query": "q"}'], "line 1", "qid '-3' is not a non-negative integer"),
        (['{"qid": true, "query": "q"}'], "line 1", "qid True is not a non-negative integer"),
        (['{"qid": "1", "query": " "}'], "line 1", "query ' ' is empty or not a string"),
        (['{"qid": "34", "query": "a"}', "", '{"qid": 34, "query": "b"}'], "line 3", "qid 34 repeats line 1"),
        (["", "  "], "", "no topics"),
    ],
    ids=[
        "bad-json", "array", "no-query", "no-qid", "qid-text", "qid-negative", "qid-bool", "blank-query", "repeat",
        "empty",
    ],
)
def test_bad_queries_jsonl_names_file_and_line(tmp_path, lines, where, problem):
    path = tmp_path / "queries.jsonl"
    path.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_topics(path)
    assert (caught.value.path, caught.value.where) == (str(path), where)
    assert caught.value.problem.startswith(problem)


def test_queries_jsonl_bad_bytes_and_missing_file(tmp_path):
    path = tmp_path / "queries.jsonl"
    path.write_bytes(b'{"qid": "1", "query": "q"}\n{"qid": "2", "query": "caf\xe9"}\n')
    with pytest.raises(InputError, match=r"queries.jsonl: line 2: not valid UTF-8"):
        read_topics(path)
    with pytest.raises(InputError, match="missing.jsonl: cannot read"):
        read_topics(tmp_path / "missing.jsonl")


def test_a_topics_file_past_the_bound_is_refused_before_any_topic_is_analysed(tmp_path, monkeypatch):
    monkeypatch.setattr(topics_module, "MAX_TOPICS", 3)
    xml = tmp_path / "topics.xml"
    xml.write_text("<topics>" + "".join(f"<topic><number>{i}</number><title>t{i}</title></topic>" for i in range(4))
                   + "</topics>")  # fmt: skip
    with pytest.raises(InputError, match="root: 4 topics; a topics file holds at most 3: split it"):
        read_topics(xml)
    lines = tmp_path / "topics.jsonl"
    lines.write_text("".join(f'{{"qid": "{i}", "query": "q{i}"}}\n' for i in range(5)))
    with pytest.raises(InputError, match="line 4: at least 4 topics; a topics file holds at most 3"):
        read_topics(lines)
    lines.write_text("".join(f'{{"qid": "{i}", "query": "q{i}"}}\n' for i in range(3)))
    assert len(read_topics(lines)) == 3
