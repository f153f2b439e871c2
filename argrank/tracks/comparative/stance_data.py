"""Stance training sets, read into one example type whichever format they come in.

Touché Task 2 distributes its training set as TSV with integer stance codes and the objects' mentions in each
answer; CompSent-19 (sentences comparing two objects, labelled BETTER, WORSE or NONE) comes as CSV; JSONL with
label names is the format for sets we write ourselves. The TSV and the CSV are told apart by their header, not
their suffix, since copies of both travel under either. All formats report bad input alike (InputError naming
the file and the line), and all refuse an example whose two objects are the same, since the classifier tells
them apart only by name.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from argrank.core.errors import InputError
from argrank.core.records import parse_int, read_utf8
from argrank.formats.json_value import parse_json
from argrank.tracks.comparative.stance_labels import COMPSENT_LABELS, LABELS, TRAINING_CODES

log = logging.getLogger(__name__)

# The TSV columns we need, and the optional ones we use; the task's file has more (ds, id, answer_stance_object, …).
TSV_COLUMNS = ("question", "answer", "answer_stance", "object_1", "object_2")
SPAN_COLUMNS = ("mask_pos_1", "mask_pos_2")
# The CompSent-19 columns we need; its file also has id, domain and the annotators' votes per label, which we read
# where present (VOTE_COLUMNS, in the order of COMPSENT_LABELS).
COMPSENT_COLUMNS = ("object_a", "object_b", "sentence", "most_frequent_label")
VOTE_COLUMNS = ("better_count", "worse_count", "none_count")
JSONL_KEYS = ("question", "object_1", "object_2", "text", "label")

# The task's TSV is written with CSV quoting: a field holding a quote is wrapped in quotes and its quotes doubled,
# and its mask positions count the characters of the field so unquoted.
_QUOTED = re.compile(r'"((?:[^"]|"")*)"', re.DOTALL)

Span = tuple[int, int]


@dataclass(frozen=True)
class StanceExample:
    """One labelled passage: its stance (one of TRAINING_LABELS) toward `first` and `second`, the objects of
    `question` ("" where the set gives none), and where `text` mentions each object: [start, end) character
    spans, empty where the set does not give them (a model may mask mentions so it learns cues, not names).
    `sentence` marks a single comparative sentence labelled FIRST, SECOND or NONE (CompSent-19), which a model
    learns apart from passages in the task's four classes. `agreement` is the share of annotators who gave the
    label (CompSent-19 counts their votes), 1 where the set does not say: a model may trust unanimous labels more."""

    question: str
    first: str
    second: str
    text: str
    label: str
    first_spans: tuple[Span, ...] = ()
    second_spans: tuple[Span, ...] = ()
    sentence: bool = False
    agreement: float = 1.0


def pair_key(example: StanceExample) -> str:
    """The example's two objects, casefolded and sorted: grouping cross-validation folds by it keeps every object
    pair, in either order, in one fold, so a fold is never scored on pairs the model trained on."""
    return objects_key(example.first, example.second)


def objects_key(first: str, second: str) -> str:
    """Two objects, casefolded and sorted: the same key whichever comes first."""
    return " | ".join(sorted((first.casefold(), second.casefold())))


def read_training_sets(paths: Iterable[str | Path]) -> list[StanceExample]:
    """All examples of several training sets, file after file, each in file order."""
    return [example for path in paths for example in read_training_set(path)]


def read_training_set(path: str | Path) -> list[StanceExample]:
    """All examples of a training set, in file order: JSONL by its `.jsonl` suffix, otherwise the task's TSV or
    CompSent-19's CSV by the header on the first non-blank line.

    Raises InputError, naming the file and the line, for a header of neither kind, bytes that are not UTF-8, a
    missing column or key, a bad label, an empty text or object, a bad mention span, malformed JSON or CSV, and a
    file without examples.
    """
    path = Path(path)
    lines = _read_lines(path)
    examples = _read_jsonl(path, lines) if path.suffix.lower() == ".jsonl" else _read_table(path, lines)
    if not examples:
        raise InputError(path, "", "no examples")
    return examples


def _read_lines(path: Path) -> list[str]:
    """The file's lines (line N at index N-1, CR-LF endings allowed); InputError for unreadable or empty files."""
    text = read_utf8(path)
    if not text.strip():
        raise InputError(path, "", "empty file: no lines to read")
    return [line.removesuffix("\r") for line in text.split("\n")]


def _read_table(path: Path, lines: list[str]) -> list[StanceExample]:
    """Examples of the task's TSV or CompSent-19's CSV, whichever the header names columns of."""
    number, header = next((number, line) for number, line in enumerate(lines, start=1) if line.strip())
    if {name.strip() for name in header.split("\t")} & set(TSV_COLUMNS):
        return _read_tsv(path, lines)
    if {name.strip().strip('"') for name in header.split(",")} & set(COMPSENT_COLUMNS):
        return _read_compsent(path, lines)
    raise InputError(
        path,
        f"line {number}",
        f"unknown header: expected the Touché stance TSV's, tab-separated, with columns {', '.join(TSV_COLUMNS)}, "
        f"or CompSent-19's, comma-separated, with columns {', '.join(COMPSENT_COLUMNS)}",
    )


def _read_tsv(path: Path, lines: list[str]) -> list[StanceExample]:
    """Examples of the task's TSV: a header naming the columns, then one example per line, quoted fields unquoted.

    Rows without question and answer text (the task's Yahoo! Answers rows give only ids) are skipped with one
    warning for the file; InputError if no row is left.
    """
    reader = csv.reader(lines, delimiter="\t", quoting=csv.QUOTE_NONE, strict=True)
    header: list[str] | None = None
    examples = []
    skipped = 0
    try:
        for fields in reader:
            if not any(field.strip() for field in fields):
                continue
            where = f"line {reader.line_num}"
            if header is None:
                header = fields
                columns = _columns(path, where, header, TSV_COLUMNS, SPAN_COLUMNS)
            elif example := _tsv_example(path, reader.line_num, _values(path, where, fields, header, columns, "tab")):
                examples.append(example)
            else:
                skipped += 1
    except csv.Error as error:  # a carriage return inside a line
        raise InputError(path, f"line {reader.line_num}", f"malformed TSV: {error}") from None
    if skipped and not examples:
        raise InputError(path, "", f"no examples: all {skipped} rows are without question or answer text")
    if skipped:
        log.warning("%s: skipped %d rows without question or answer text", path, skipped)
    return examples


def _tsv_example(path: Path, number: int, value: dict[str, str]) -> StanceExample | None:
    """The example of the `value`s on TSV line `number`, or None for a row without question and answer text.

    The mask positions are [start, end] spans of the objects' mentions in the answer, as a JSON list.
    """
    where = f"line {number}"
    value = {name: _unquoted(field) for name, field in value.items()}
    question, answer = value["question"], value["answer"]
    if not question.strip() and not answer.strip():
        return None
    code = parse_int(path, number, "answer_stance", value["answer_stance"].strip())
    if code not in TRAINING_CODES:
        raise InputError(path, where, f"answer_stance {code} is not one of {', '.join(map(str, TRAINING_CODES))}")
    label = TRAINING_CODES[code]
    spans = (_spans(path, where, name, value[name], answer) if name in value else () for name in SPAN_COLUMNS)
    return _example(path, where, question, value["object_1"], value["object_2"], answer, label, *spans)


def _unquoted(field: str) -> str:
    """A field with CSV quoting undone if it has exactly that form, else as it is (a stray quote is text)."""
    quoted = _QUOTED.fullmatch(field)
    return quoted.group(1).replace('""', '"') if quoted else field


def _spans(path: Path, where: str, column: str, value: str, answer: str) -> tuple[Span, ...]:
    """The spans in a mask position column; InputError unless each lies within `answer` and is not empty."""
    try:
        spans = json.loads(value)
    except (ValueError, RecursionError):  # malformed, or nested or numbered past what Python reads
        spans = None
    if not isinstance(spans, list) or not all(_is_span(span) for span in spans):
        raise InputError(path, where, f"{column} {value!r} is not a JSON list of [start, end] character spans")
    for start, end in spans:
        if not 0 <= start < end <= len(answer):
            problem = f"span [{start}, {end}] is not a non-empty span within the answer's {len(answer)} characters"
            raise InputError(path, where, f"{column}: {problem}")
    return tuple((start, end) for start, end in spans)


def _is_span(span: object) -> bool:
    return isinstance(span, list) and len(span) == 2 and all(type(offset) is int for offset in span)


def _read_compsent(path: Path, lines: list[str]) -> list[StanceExample]:
    """Examples of CompSent-19's CSV: a header naming the columns, then one sentence per record, quoted as CSV is
    (a record may span lines); a record is named by the line it starts on."""
    reader = csv.reader((line + "\n" for line in lines), strict=True)
    header: list[str] | None = None
    examples = []
    start = 1
    try:
        for fields in reader:
            where, start = f"line {start}", reader.line_num + 1
            if not any(field.strip() for field in fields):
                continue
            if header is None:
                header = fields
                columns = _columns(path, where, header, COMPSENT_COLUMNS, VOTE_COLUMNS)
            else:
                examples.append(_compsent_example(path, where, _values(path, where, fields, header, columns, "comma")))
    except csv.Error as error:
        raise InputError(path, f"line {start}", f"malformed CSV: {error}") from None
    return examples


def _compsent_example(path: Path, where: str, value: dict[str, str]) -> StanceExample:
    """The example of a CompSent-19 record's `value`s: no question, object_a first, its label as ours, and the
    share of the votes its label got where the record counts them all; InputError for a count that is not a whole
    number of 0 or more, or counts that give the label no vote."""
    label = COMPSENT_LABELS.get(value["most_frequent_label"].strip())
    if label is None:
        expected = ", ".join(COMPSENT_LABELS)
        raise InputError(path, where, f"most_frequent_label {value['most_frequent_label']!r} is not one of {expected}")
    first, second, text = value["object_a"], value["object_b"], value["sentence"]
    example = _example(path, where, "", first, second, text, label, names=("object_a", "object_b", "sentence"))
    return dataclasses.replace(example, sentence=True, agreement=_agreement(path, where, value, label))


def _agreement(path: Path, where: str, value: dict[str, str], label: str) -> float:
    """The share of a CompSent-19 record's votes that its label got; 1 without all of VOTE_COLUMNS."""
    if not all(name in value for name in VOTE_COLUMNS):
        return 1.0
    votes = {}
    for name, code in zip(VOTE_COLUMNS, COMPSENT_LABELS.values()):
        count = value[name].strip()
        if not (count.isascii() and count.isdigit()):
            raise InputError(path, where, f"{name} {value[name]!r} is not a whole number of 0 or more")
        votes[code] = int(count)
    if votes[label] == 0:
        raise InputError(path, where, f"most_frequent_label {value['most_frequent_label'].strip()} has no votes in "
                                      f"{', '.join(VOTE_COLUMNS)}")  # fmt: skip
    return votes[label] / sum(votes.values())


def _columns(
    path: Path, where: str, header: list[str], required: tuple[str, ...], optional: tuple[str, ...] = ()
) -> dict[str, int]:
    """Index of each column we use in the header; InputError if a required one is missing or one is named twice."""
    names = [name.strip() for name in header]
    missing = [name for name in required if name not in names]
    if missing:
        raise InputError(path, where, f"header lacks column(s) {', '.join(missing)}")
    repeated = [name for name in (*required, *optional) if names.count(name) > 1]
    if repeated:
        raise InputError(path, where, f"header names column(s) {', '.join(repeated)} more than once")
    return {name: names.index(name) for name in (*required, *optional) if name in names}


def _values(
    path: Path, where: str, fields: list[str], header: list[str], columns: dict[str, int], separator: str
) -> dict[str, str]:
    """The row's field in each of our `columns`; InputError unless it has as many fields as the header."""
    if len(fields) != len(header):
        problem = f"expected {len(header)} {separator}-separated fields as in the header, found {len(fields)}"
        raise InputError(path, where, problem)
    return {name: fields[index] for name, index in columns.items()}


def _read_jsonl(path: Path, lines: list[str]) -> list[StanceExample]:
    """Examples of a JSONL set: one object per line with JSONL_KEYS; blank lines are skipped."""
    examples = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"line {number}"
        record = parse_json(line, path, where)
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


def _example(
    path: Path,
    where: str,
    question: str,
    first: str,
    second: str,
    text: str,
    label: str,
    first_spans: tuple[Span, ...] = (),
    second_spans: tuple[Span, ...] = (),
    names: tuple[str, str, str] = ("object_1", "object_2", "text"),
) -> StanceExample:
    """An example with surrounding white space trimmed, its spans moved with the text (cut to it; one wholly in
    the white space trimmed is dropped); InputError for an empty text or object, or equal objects."""
    start, end = len(text) - len(text.lstrip()), len(text.rstrip())
    first, second, text = first.strip(), second.strip(), text[start:end]
    for name, value in zip(names, (first, second, text)):
        if not value:
            raise InputError(path, where, f"{name} is empty")
    if first.casefold() == second.casefold():
        raise InputError(path, where, f"{names[0]} and {names[1]} are both {first!r}")
    first_spans, second_spans = (_within(spans, start, end) for spans in (first_spans, second_spans))
    return StanceExample(question.strip(), first, second, text, label, first_spans, second_spans)


def _within(spans: tuple[Span, ...], start: int, end: int) -> tuple[Span, ...]:
    """`spans` of a text moved into its part [start, end): each cut to it, those left empty dropped."""
    cut = ((max(span_start, start), min(span_end, end)) for span_start, span_end in spans)
    return tuple((span_start - start, span_end - start) for span_start, span_end in cut if span_start < span_end)
