"""Touché Task 2 stance training sets, read into one example type whichever format they come in.

The task distributes its training set as TSV with integer stance codes; JSONL with label names is the format for
sets we write ourselves. Both report bad input alike (InputError naming the file and the line), and both refuse
an example whose two objects are the same, since the classifier tells them apart only by name.
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass
from pathlib import Path

from argrank.core.errors import InputError
from argrank.core.records import parse_int, read_utf8
from argrank.tracks.comparative.stance_labels import LABELS, TRAINING_CODES

# The TSV columns we use; the task's file has more (ds, id, answer_stance_object, mask positions, …).
TSV_COLUMNS = ("question", "answer", "answer_stance", "object_1", "object_2")
JSONL_KEYS = ("question", "object_1", "object_2", "text", "label")


@dataclass(frozen=True)
class StanceExample:
    """One labelled passage: its stance (one of LABELS) toward `first` and `second`, the objects of `question`."""

    question: str
    first: str
    second: str
    text: str
    label: str


def read_training_set(path: str | Path) -> list[StanceExample]:
    """All examples of a `.tsv` (the task's format) or `.jsonl` training set, in file order.

    Raises InputError, naming the file and the line, for an unknown suffix, bytes that are not UTF-8, a missing
    column or key, a bad label, an empty text or object, malformed JSON, and a file without examples.
    """
    path = Path(path)
    readers = {".tsv": _read_tsv, ".jsonl": _read_jsonl}
    reader = readers.get(path.suffix.lower())
    if reader is None:
        raise InputError(path, "", f"unknown training set format {path.suffix!r}: expected .tsv or .jsonl")
    examples = reader(path, _read_lines(path))
    if not examples:
        raise InputError(path, "", "no examples")
    return examples


def _read_lines(path: Path) -> list[str]:
    """The file's lines (line N at index N-1, CR-LF endings allowed); InputError for unreadable or empty files."""
    text = read_utf8(path)
    if not text.strip():
        raise InputError(path, "", "empty file: no lines to read")
    return [line.removesuffix("\r") for line in text.split("\n")]


def _read_tsv(path: Path, lines: list[str]) -> list[StanceExample]:
    """Examples of the task's TSV: a header naming the columns, then one example per line, no quoting."""
    reader = csv.reader(lines, delimiter="\t", quoting=csv.QUOTE_NONE, strict=True)
    header: list[str] | None = None
    examples = []
    try:
        for fields in reader:
            if not any(field.strip() for field in fields):
                continue
            if header is None:
                header = fields
                columns = _columns(path, f"line {reader.line_num}", header)
            else:
                examples.append(_tsv_example(path, reader.line_num, fields, len(header), columns))
    except csv.Error as error:  # a carriage return inside a line
        raise InputError(path, f"line {reader.line_num}", f"malformed TSV: {error}") from None
    return examples


def _tsv_example(path: Path, number: int, fields: list[str], width: int, columns: dict[str, int]) -> StanceExample:
    """The example on TSV line `number`, whose header has `width` columns, ours at `columns`."""
    where = f"line {number}"
    if len(fields) != width:
        raise InputError(path, where, f"expected {width} tab-separated fields as in the header, found {len(fields)}")
    value = {name: fields[index] for name, index in columns.items()}
    code = parse_int(path, number, "answer_stance", value["answer_stance"].strip())
    if code not in TRAINING_CODES:
        raise InputError(path, where, f"answer_stance {code} is not one of {', '.join(map(str, TRAINING_CODES))}")
    label = TRAINING_CODES[code]
    return _example(path, where, value["question"], value["object_1"], value["object_2"], value["answer"], label)


def _columns(path: Path, where: str, header: list[str]) -> dict[str, int]:
    """Index of each column we use in the header; InputError if one is missing or named twice."""
    names = [name.strip() for name in header]
    missing = [name for name in TSV_COLUMNS if name not in names]
    if missing:
        raise InputError(path, where, f"header lacks column(s) {', '.join(missing)}")
    repeated = [name for name in TSV_COLUMNS if names.count(name) > 1]
    if repeated:
        raise InputError(path, where, f"header names column(s) {', '.join(repeated)} more than once")
    return {name: names.index(name) for name in TSV_COLUMNS}


def _read_jsonl(path: Path, lines: list[str]) -> list[StanceExample]:
    """Examples of a JSONL set: one object per line with JSONL_KEYS; blank lines are skipped."""
    examples = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"line {number}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise InputError(path, where, f"malformed JSON: {error.msg} (column {error.colno})") from None
        if not isinstance(record, dict):
            raise InputError(path, where, "not a JSON object")
        missing = [key for key in JSONL_KEYS if key not in record]
        if missing:
            raise InputError(path, where, f"missing key(s) {', '.join(map(repr, missing))}")
        for key in ("question", "object_1", "object_2", "text"):
            if not isinstance(record[key], str):
                raise InputError(path, where, f"{key!r} is not a string")
        label = _json_label(path, where, record["label"])
        question, first, second, text = (record[key] for key in ("question", "object_1", "object_2", "text"))
        examples.append(_example(path, where, question, first, second, text, label))
    return examples


def _json_label(path: Path, where: str, label: object) -> str:
    """A label name, or the training code of one (the TSV's integers), as a label name."""
    if isinstance(label, str) and label in LABELS:
        return label
    if isinstance(label, int) and not isinstance(label, bool) and label in TRAINING_CODES:
        return TRAINING_CODES[label]
    expected = f"{', '.join(LABELS)} or a code {', '.join(map(str, TRAINING_CODES))}"
    raise InputError(path, where, f"label {label!r} is not one of {expected}")


def _example(path: Path, where: str, question: str, first: str, second: str, text: str, label: str) -> StanceExample:
    """An example with surrounding white space trimmed; InputError for an empty text or object, or equal objects."""
    first, second, text = first.strip(), second.strip(), text.strip()
    for name, value in (("object_1", first), ("object_2", second), ("text", text)):
        if not value:
            raise InputError(path, where, f"{name} is empty")
    if first.casefold() == second.casefold():
        raise InputError(path, where, f"object_1 and object_2 are both {first!r}")
    return StanceExample(question=question.strip(), first=first, second=second, text=text, label=label)
