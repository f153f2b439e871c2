"""Stance training set readers: both formats, the label mapping, and every bad-input case naming file and line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from argrank.core.errors import InputError
from argrank.tracks.comparative.stance_data import StanceExample, read_training_set
from argrank.tracks.comparative.stance_labels import LABELS, TRAINING_CODES

COLUMNS = (
    "ds id question answer answer_stance answer_stance_object object_count object_1 mask_pos_1 object_2 mask_pos_2"
)
HEADER = "\t".join(COLUMNS.split())


def tsv_row(question: str, answer: str, stance: str, first: str, second: str) -> str:
    """One line of the task's TSV, with plausible values in the columns we do not use."""
    return "\t".join(["train", "7", question, answer, stance, first, "2", first, "0", second, "3"])


def write(path: Path, text: str) -> Path:
    path.write_bytes(text.encode("utf-8"))
    return path


def rejected(path: Path, where: str, problem: str) -> None:
    """Reading `path` raises InputError naming the file, the place and the problem."""
    with pytest.raises(InputError) as caught:
        read_training_set(path)
    assert caught.value.path == str(path)
    assert caught.value.where == where
    assert problem in caught.value.problem
    assert str(path) in str(caught.value)


def test_tsv_maps_every_training_code_and_keeps_file_order(tmp_path):
    rows = [tsv_row("cats or dogs?", f"answer {code}", str(code), "cats", "dogs") for code in (2, 3, 1, 0)]
    path = write(tmp_path / "train.tsv", "\n".join([HEADER, *rows]) + "\n")
    examples = read_training_set(path)
    assert [example.label for example in examples] == ["FIRST", "SECOND", "NEUTRAL", "NO"]
    assert [example.label for example in examples] == [TRAINING_CODES[code] for code in (2, 3, 1, 0)]
    assert examples[0] == StanceExample("cats or dogs?", "cats", "dogs", "answer 2", "FIRST")


def test_tsv_takes_columns_by_name_tolerates_extras_crlf_bom_and_blank_lines(tmp_path):
    header = "extra\tobject_2\tanswer\tobject_1\tanswer_stance\tquestion"
    body = "x\tdogs\tDogs are loyal.\tcats\t3\tcats or dogs?"
    path = write(tmp_path / "train.tsv", "\ufeff" + header + "\r\n\r\n" + body + "\r\n")
    assert read_training_set(path) == [StanceExample("cats or dogs?", "cats", "dogs", "Dogs are loyal.", "SECOND")]


def test_tsv_keeps_quotes_as_text(tmp_path):
    path = write(tmp_path / "train.tsv", HEADER + "\n" + tsv_row("q", '"cats" are "better', "2", "cats", "dogs"))
    assert read_training_set(path)[0].text == '"cats" are "better'


@pytest.mark.parametrize(
    ("lines", "where", "problem"),
    [
        (["ds\tquestion\tanswer\tobject_1\tobject_2"], "line 1", "header lacks column(s) answer_stance"),
        ([HEADER.replace("ds", "answer")], "line 1", "header names column(s) answer more than once"),
        ([HEADER, tsv_row("q", "a", "2", "x", "y") + "\tmore"], "line 2", "expected 11 tab-separated fields"),
        ([HEADER, tsv_row("q", "a", "2", "x", "y"), "train\t8\tq"], "line 3", "found 3"),
        ([HEADER, tsv_row("q", "a", "4", "x", "y")], "line 2", "answer_stance 4 is not one of 0, 1, 2, 3"),
        ([HEADER, tsv_row("q", "a", "FIRST", "x", "y")], "line 2", "answer_stance 'FIRST' is not an integer"),
        ([HEADER, tsv_row("q", "  ", "1", "x", "y")], "line 2", "text is empty"),
        ([HEADER, tsv_row("q", "a", "1", "", "y")], "line 2", "object_1 is empty"),
        ([HEADER, tsv_row("q", "a", "1", "x", " ")], "line 2", "object_2 is empty"),
        ([HEADER, tsv_row("q", "a", "1", "Cats", "cats")], "line 2", "object_1 and object_2 are both 'Cats'"),
        ([HEADER, tsv_row("q", "a", "1", "x", "y"), tsv_row("q", "a\rb", "1", "x", "y")], "line 3", "malformed TSV"),
    ],
)
def test_tsv_rejects_bad_lines(tmp_path, lines, where, problem):
    rejected(write(tmp_path / "train.tsv", "\n".join(lines) + "\n"), where, problem)


def test_tsv_with_header_only_has_no_examples(tmp_path):
    rejected(write(tmp_path / "train.tsv", HEADER + "\n"), "", "no examples")


def jsonl(*records: object) -> str:
    return "".join((record if isinstance(record, str) else json.dumps(record)) + "\n" for record in records)


def record(**changes: object) -> dict:
    base = {"question": "cats or dogs?", "object_1": "cats", "object_2": "dogs", "text": "Cats purr.", "label": "FIRST"}
    return {**base, **changes}


def test_jsonl_accepts_label_names_and_codes_and_skips_blank_lines(tmp_path):
    records = [record(label=label) for label in LABELS] + [record(label=code) for code in (2, 3, 1, 0)]
    path = write(tmp_path / "train.jsonl", jsonl(records[0], "", "   ", *records[1:]))
    examples = read_training_set(path)
    assert [example.label for example in examples] == [*LABELS, "FIRST", "SECOND", "NEUTRAL", "NO"]
    assert examples[0] == StanceExample("cats or dogs?", "cats", "dogs", "Cats purr.", "FIRST")


@pytest.mark.parametrize(
    ("records", "where", "problem"),
    [
        ([record(), '{"question": "q",'], "line 2", "malformed JSON"),
        ([record(), "[1, 2]"], "line 2", "not a JSON object"),
        ([{k: v for k, v in record().items() if k != "text"}], "line 1", "missing key(s) 'text'"),
        ([record(object_1=3)], "line 1", "'object_1' is not a string"),
        ([record(), record(label="first")], "line 2", "label 'first' is not one of FIRST, SECOND, NEUTRAL, NO"),
        ([record(label=7)], "line 1", "label 7 is not one of"),
        ([record(label=True)], "line 1", "label True is not one of"),
        ([record(text="")], "line 1", "text is empty"),
        ([record(object_2="\t")], "line 1", "object_2 is empty"),
    ],
)
def test_jsonl_rejects_bad_lines(tmp_path, records, where, problem):
    rejected(write(tmp_path / "train.jsonl", jsonl(*records)), where, problem)


@pytest.mark.parametrize("suffix", [".tsv", ".jsonl"])
def test_invalid_utf8_names_its_line(tmp_path, suffix):
    good = HEADER if suffix == ".tsv" else json.dumps(record())
    path = tmp_path / f"train{suffix}"
    path.write_bytes(good.encode() + b"\n" + good.encode() + b"\n" + b'{"text": "caf\xe9"}\n')
    rejected(path, "line 3", "not valid UTF-8 (byte 0xe9)")


@pytest.mark.parametrize("content", ["", "\n  \n"])
@pytest.mark.parametrize("suffix", [".tsv", ".jsonl"])
def test_empty_files_are_rejected(tmp_path, suffix, content):
    rejected(write(tmp_path / f"train{suffix}", content), "", "empty file")


def test_unknown_suffix_and_missing_file(tmp_path):
    rejected(write(tmp_path / "train.csv", "question,answer\n"), "", "unknown training set format '.csv'")
    rejected(tmp_path / "absent.jsonl", "", "cannot read")
