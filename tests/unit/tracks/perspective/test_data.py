"""The perspective release's readers: corpus columns, query ids kept as text, property keys, prediction files, and
errors that name the file and line."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import numpy as np
import pytest

from argrank.core.errors import InputError
from argrank.tracks.perspective.data import (
    PROFILE_COLUMNS,
    QUERY_PROPERTY_TO_CORPUS,
    has_property,
    query_file,
    read_corpus,
    read_predictions,
    read_queries,
    write_predictions,
)


def profile(**values) -> dict:
    base = {
        "gender": "Frau", "age": "18-34", "residence": "Stadt", "civil_status": "Ledig", "denomination": "Keine",
        "education": "Universität", "political_spectrum": "Links", "important_political_issues": ["Law & Order"],
    }  # fmt: skip
    return {**base, **values}


def argument(argument_id, text="Ja.", stance="FAVOR", **values) -> dict:
    return {"argument_id": argument_id, "argument": text, "stance": stance, "topic": "Umwelt",
            "demographic_profile": profile(**values)}  # fmt: skip


def write_jsonl(path: Path, lines: list) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(line if isinstance(line, str) else json.dumps(line) + "\n" for line in lines), "utf-8")
    return path


ARGUMENTS = [
    argument(7, "Oui, car…", "AGAINST", gender="Mann", age="65+", important_political_issues=[]),
    argument(3, "Ja, weil…"),
    argument(12, "Sì, perché…", residence="Land", important_political_issues=["Law & Order", "Offene Aussenpolitik"]),
]


@pytest.fixture
def corpus_path(tmp_path) -> Path:
    return write_jsonl(tmp_path / "corpus.jsonl", ARGUMENTS)


def test_corpus_columns_in_file_order(corpus_path):
    corpus = read_corpus(corpus_path.parent)  # the release directory or the file itself
    assert len(corpus) == 3 and corpus.ids.dtype == np.int64 and corpus.ids.tolist() == [7, 3, 12]
    assert corpus.texts == ["Oui, car…", "Ja, weil…", "Sì, perché…"]
    assert corpus.stance.tolist() == ["AGAINST", "FAVOR", "FAVOR"] and corpus.topic.tolist() == ["Umwelt"] * 3
    assert set(corpus.profiles) == set(PROFILE_COLUMNS)
    assert corpus.profiles["gender"].tolist() == ["Mann", "Frau", "Frau"]
    issues = corpus.profiles["important_political_issues"]
    assert issues == [[], ["Law & Order"], ["Law & Order", "Offene Aussenpolitik"]]
    assert corpus.positions([12, 7, 99, 3]).tolist() == [2, 0, -1, 1]
    assert read_corpus(corpus_path).ids.tolist() == [7, 3, 12]


def test_has_property_maps_query_keys_to_corpus_columns(corpus_path):
    corpus = read_corpus(corpus_path)
    assert QUERY_PROPERTY_TO_CORPUS["age_bin"] == "age"
    assert has_property(corpus, "age_bin", "65+").tolist() == [True, False, False]
    assert has_property(corpus, "residence", "Stadt").tolist() == [True, True, False]
    assert has_property(corpus, "important_political_issue", "Law & Order").tolist() == [False, True, True]


@pytest.mark.parametrize(
    ("line", "where", "problem"),
    [
        ('{"argument_id": 1,', "line 2, column 19", "malformed JSON"),
        ("[1, 2]", "line 2", "not a JSON object"),
        ({**argument(1), "argument_id": "1"}, "line 2", '"argument_id" missing or not an integer'),
        ({**argument(1), "argument_id": True}, "line 2", '"argument_id" missing or not an integer'),
        ({**argument(1), "argument_id": 1.0}, "line 2", '"argument_id" missing or not an integer'),
        (argument(1, text=None), "line 2 (argument 1)", '"argument" missing or not a string'),
        (argument(1, stance="NONE"), "line 2 (argument 1)", '"stance" missing or not FAVOR or AGAINST'),
        ({k: v for k, v in argument(1).items() if k != "topic"}, "line 2 (argument 1)", '"topic" missing'),
        (argument(1, gender=None), "line 2 (argument 1)", '"demographic_profile.gender" missing or not a string'),
        (
            argument(1, important_political_issues="Umwelt"),
            "line 2 (argument 1)",
            '"demographic_profile.important_political_issues" missing or not a list of strings',
        ),  # fmt: skip
        ({**argument(1), "demographic_profile": []}, "line 2 (argument 1)", '"demographic_profile" missing'),
        (argument(3, gender=None), "line 2 (argument 3)", '"demographic_profile.gender" missing'),  # a repeat too
    ],
)
def test_corpus_errors_name_file_and_line(tmp_path, line, where, problem):
    path = write_jsonl(tmp_path / "corpus.jsonl", [argument(3), line])
    with pytest.raises(InputError) as raised:
        read_corpus(path)
    assert raised.value.path == str(path) and raised.value.where == where and problem in raised.value.problem


def test_repeated_ids_are_dropped_with_a_warning_naming_the_file_as_in_every_track(tmp_path, caplog):
    arguments = [argument(3, "first"), argument(5), argument(3, "again"), argument(5)]
    path = write_jsonl(tmp_path / "corpus.jsonl", arguments)
    with caplog.at_level(logging.WARNING):
        corpus = read_corpus(path)
    assert corpus.ids.tolist() == [3, 5] and corpus.texts == ["first", "Ja."]
    assert [r.getMessage() for r in caplog.records] == [
        f"{path}: dropped 2 arguments with an id seen before (kept the first), e.g. 3 (line 3), 5 (line 4)"
    ]


def test_empty_or_undecodable_corpus(tmp_path):
    empty = write_jsonl(tmp_path / "empty.jsonl", ["\n", "  \n"])
    with pytest.raises(InputError, match="empty file: no arguments"):
        read_corpus(empty)
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(json.dumps(argument(1)).encode() + b'\n{"argument": "\xff"}\n')
    with pytest.raises(InputError, match=r"bad.jsonl: line 2, byte \d+: invalid UTF-8"):
        read_corpus(bad)
    with pytest.raises(InputError, match="cannot read"):
        read_corpus(tmp_path / "missing.jsonl")


def test_queries_keep_ids_as_text_and_read_properties(tmp_path, corpus_path):
    path = write_jsonl(tmp_path / "queries_train.jsonl", [
        {"query_id": 5, "text": "Tax?", "relevant_candidates": [7, 12], "demographic_property": {"age_bin": "65+"}},
        {"query_id": "b-6", "text": "Impôt?"},
        {"query_id": 7, "text": "Tassa?", "relevant_candidates": [], "demographic_property": None},
    ])  # fmt: skip
    queries = read_queries(path, read_corpus(corpus_path))
    assert [q.query_id for q in queries] == ["5", "b-6", "7"]
    assert queries[0].relevant_candidates == [7, 12] and queries[0].demographic_property == {"age_bin": "65+"}
    assert queries[1].relevant_candidates is None and queries[1].demographic_property is None
    assert queries[2].relevant_candidates == []


@pytest.mark.parametrize(
    ("record", "problem"),
    [
        ({"demographic_property": {"age": "65+"}}, "must have exactly one key of gender, age_bin, residence"),
        ({"demographic_property": {"gender": "Frau", "residence": "Land"}}, "exactly one key"),
        ({"demographic_property": {"gender": 1}}, '"demographic_property.gender" is not a string'),
        ({"relevant_candidates": [7, "12"]}, '"relevant_candidates" missing or not a list of integers'),
        ({"relevant_candidates": [7, 99]}, "relevant argument 99 is not in the corpus"),
        ({"text": 3}, '"text" missing or not a string'),
    ],
)
def test_query_errors_name_file_and_line(tmp_path, corpus_path, record, problem):
    path = write_jsonl(tmp_path / "q.jsonl", [{"query_id": 1, "text": "a"}, {"query_id": 2, "text": "b", **record}])
    with pytest.raises(InputError) as raised:
        read_queries(path, read_corpus(corpus_path))
    assert raised.value.path == str(path) and raised.value.where == "line 2 (query 2)"
    assert problem in raised.value.problem


def test_repeated_query_id_counts_int_and_string_alike(tmp_path):
    path = write_jsonl(tmp_path / "q.jsonl", [{"query_id": 1, "text": "a"}, {"query_id": "1", "text": "b"}])
    with pytest.raises(InputError, match="q.jsonl: line 2: query_id 1 repeats line 1"):
        read_queries(path)
    path = write_jsonl(tmp_path / "q.jsonl", [{"query_id": "", "text": "a"}])
    with pytest.raises(InputError, match='line 1: "query_id" missing or not an id'):
        read_queries(path)


def test_query_file_by_scenario_and_split(tmp_path):
    baseline = write_jsonl(tmp_path / "baseline-queries" / "queries_dev.jsonl", [])
    perspective = write_jsonl(tmp_path / "perspective-queries" / "queries_dev.jsonl", [])
    assert query_file(tmp_path, "baseline", "dev") == baseline
    assert query_file(tmp_path, "explicit", "dev") == query_file(tmp_path, "implicit", "dev") == perspective
    with pytest.raises(InputError, match=r"queries_train.jsonl: queries file not found \(scenario explicit"):
        query_file(tmp_path, "explicit", "train")
    with pytest.raises(ValueError, match="scenario must be one of"):
        query_file(tmp_path, "perspective", "dev")


def test_predictions_read_either_key(tmp_path):
    path = write_jsonl(tmp_path / "p.jsonl", [
        {"query_id": 1, "relevant_candidates": [3, 7, 12]},
        {"query_id": "x", "retrieved_candidates": []},
    ])  # fmt: skip
    assert read_predictions(path) == {"1": [3, 7, 12], "x": []}


@pytest.mark.parametrize(
    ("record", "where", "problem"),
    [
        ({"query_id": 2, "relevant_candidates": [1], "retrieved_candidates": [1]}, "line 2 (query 2)", "expected one"),
        ({"query_id": 2}, "line 2 (query 2)", 'expected one of "relevant_candidates" or "retrieved_candidates"'),
        ({"query_id": 2, "relevant_candidates": [3, None]}, "line 2 (query 2)", "not a list of integers"),
        ({"query_id": 2, "relevant_candidates": [3, 99]}, "line 2 (query 2)", "argument 99 is not in the corpus"),
        ({"query_id": 1, "relevant_candidates": [3]}, "line 2", "query_id 1 repeats line 1"),
        ({"query_id": 2, "relevant_candidates": [7, 3, 7]}, "line 2 (query 2)", "argument 7 is listed twice (ranks 1"),
    ],
)
def test_prediction_errors_name_file_and_line(tmp_path, corpus_path, record, where, problem):
    path = write_jsonl(tmp_path / "p.jsonl", [{"query_id": 1, "relevant_candidates": [3]}, record])
    with pytest.raises(InputError) as raised:
        read_predictions(path, read_corpus(corpus_path))
    assert raised.value.path == str(path) and raised.value.where == where and problem in raised.value.problem


def test_write_predictions_round_trips_in_order(tmp_path):
    path = tmp_path / "out" / "dev.jsonl"
    write_predictions(path, {"10": [np.int64(3), 7], "2": [], "b-6": [12]})
    assert path.read_text().splitlines() == [
        '{"query_id":10,"relevant_candidates":[3,7]}',  # integer ids go back as JSON integers
        '{"query_id":2,"relevant_candidates":[]}',
        '{"query_id":"b-6","relevant_candidates":[12]}',
    ]
    assert read_predictions(path) == {"10": [3, 7], "2": [], "b-6": [12]}
    assert [p.name for p in path.parent.iterdir()] == ["dev.jsonl"]
