"""Every JSON reader of input files: a value nested thousands of levels deep, or a number of thousands of digits,
is one InputError naming the file and line (Python's reader raised RecursionError and ValueError)."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from argrank.core.errors import InputError
from argrank.formats.beir import read_corpus
from argrank.formats.json_value import parse_json
from argrank.formats.topics import read_topics, topic_order
from argrank.tracks.comparative.passages import ingest_passages
from argrank.tracks.perspective.data import read_predictions, read_queries, write_predictions

DEEP = "[" * 100_000 + "]" * 100_000
LONG = "9" * 5000
NESTED, DIGITS = "JSON nested deeper than Python's reader goes", "a JSON number of more than 4,300 digits"


@pytest.mark.parametrize(
    ("text", "where", "problem"),
    [
        (DEEP, "line 3", NESTED),
        ('{"a": ' + LONG + "}", "line 3", DIGITS),
        ('{"a": 1,', "line 3, column 9", "malformed JSON"),
        (b'{"a": "caf\xe9"}', "line 3, byte 11", "invalid UTF-8"),
    ],
)
def test_parse_json_names_what_is_wrong(text, where, problem):
    with pytest.raises(InputError) as error:
        parse_json(text, "f.jsonl", "line 3")
    assert error.value.where == where and error.value.problem.startswith(problem)


def test_parse_json_reads_values():
    assert parse_json(b'{"a": [1, 2.5, "x"]}\n', "f", "line 1") == {"a": [1, 2.5, "x"]}


def _lines(path: Path, *lines: str) -> Path:
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return path


def _beir(path: Path, *lines: str) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("set/corpus.jsonl", "".join(f"{line}\n" for line in lines))
    return path


def _read(kind: str, tmp_path: Path, bad: str) -> None:
    if kind == "topics":
        read_topics(_lines(tmp_path / "topics.jsonl", '{"qid": "1", "query": "q"}', bad))
    elif kind == "beir":
        list(read_corpus(_beir(tmp_path / "corpus.zip", '{"_id": "d1", "text": "t"}', bad)))
    elif kind == "passages":
        ingest_passages(_lines(tmp_path / "passages.jsonl", '{"id": "p1", "contents": "t"}', bad), tmp_path / "o")
    elif kind == "queries":
        read_queries(_lines(tmp_path / "queries.jsonl", '{"query_id": 1, "text": "t"}', bad))
    else:
        read_predictions(_lines(tmp_path / "predictions.jsonl", '{"query_id": 1, "relevant_candidates": [1]}', bad))


@pytest.mark.parametrize("kind", ["topics", "beir", "passages", "queries", "predictions"])
@pytest.mark.parametrize(("bad", "problem"), [(DEEP, NESTED), ('{"_id": ' + LONG + "}", DIGITS)])
def test_every_json_lines_reader_names_the_line(tmp_path, kind, bad, problem):
    with pytest.raises(InputError) as error:
        _read(kind, tmp_path, bad)
    assert error.value.where.endswith("line 2") and error.value.problem.startswith(problem)


def test_topic_numbers_of_thousands_of_digits_are_read_and_ordered(tmp_path):
    path = _lines(tmp_path / "topics.jsonl", json.dumps({"qid": "0" + LONG, "query": "q"}), '{"qid": 7, "query": "r"}')
    assert [topic.number for topic in read_topics(path)] == [LONG, "7"]
    assert topic_order([LONG, "7", "10"]) == ["7", "10", LONG]


def test_a_query_id_of_thousands_of_digits_is_written_back_as_given(tmp_path):
    path = tmp_path / "predictions.jsonl"
    write_predictions(path, {LONG: [3, 1], "12": [2]})
    assert read_predictions(path) == {LONG: [3, 1], "12": [2]}
    assert '"query_id":12,' in path.read_text()
