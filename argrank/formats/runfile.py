"""TREC run files, `qid Q0 doc rank score tag`: reading what participants really submit, and writing our own.

The reader is lenient about layout (tabs or spaces, ranks from 0, any column 2 — Task 2 puts a stance label
there) because evaluation takes the order from the scores; it is strict about what evaluation relies on. It
also recovers a tag submitted in double quotes with spaces (Katana's 2022 run), since the tag plays no part in
scoring. `validation` holds the task's rules, which reject such a tag.
"""

from __future__ import annotations

import math
import re
from array import array
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from argrank.core.atomic import atomic_write_text
from argrank.core.errors import InputError
from argrank.core.records import Record, expect_fields, parse_float, parse_int, read_records

FIELDS = ("qid", "Q0", "doc", "rank", "score", "tag")
Q0 = "Q0"  # column 2 of a run that states no stance or list: TREC's unused iteration field
_QUOTED = re.compile(r'"[^"]*"')


@dataclass(frozen=True, slots=True)
class RunLine:
    """One ranked document of one topic."""

    qid: str
    q0: str
    doc: str
    rank: int
    score: float
    tag: str


def parse_run_line(path: str | Path, record: Record) -> RunLine:
    """One record as a RunLine: six fields, an integer rank and a finite score, else InputError naming the line."""
    number = record[0]
    qid, q0, doc, rank, score, tag = expect_fields(path, record, FIELDS)
    return RunLine(qid, q0, doc, parse_int(path, number, "rank", rank), parse_float(path, number, "score", score), tag)


def quoted_tag(fields: list[str]) -> str | None:
    """The text inside the quotes when the fields from the sixth on, joined by single spaces, are one double-quoted
    string with spaces (`"my run"` split in two); else None."""
    if len(fields) <= len(FIELDS):
        return None
    joined = " ".join(fields[len(FIELDS) - 1 :])
    return joined[1:-1] if _QUOTED.fullmatch(joined) else None


def check_unique(path: str | Path, number: int, line: RunLine, first_line: dict[tuple[str, str], int]) -> None:
    """Record where (topic, doc) first occurs in `first_line`; a second occurrence raises InputError naming the line."""
    key = (line.qid, line.doc)
    if key in first_line:
        raise InputError(
            path,
            f"line {number}",
            f"document {line.doc} appears twice in topic {line.qid} (first on line {first_line[key]})",
        )
    first_line[key] = number


def read_run(path: str | Path) -> list[RunLine]:
    """Every line of a run file, in file order; no document may appear twice in one topic. A quoted tag with
    spaces is read as the text inside the quotes."""
    return list(iter_run(path))


def iter_run(path: str | Path) -> Iterator[RunLine]:
    """read_run's lines one at a time, for a reader that needs each once (evaluation keeps only what its measures
    read).

    Memory follows what the reader keeps: the lines share one string per distinct topic, column 2 and tag, and a
    document repeated in a topic is found from an 8-byte hash of each line's topic and document, checked once the
    file is read (the lines are then read again to name the repeat). A set of every topic's documents took more
    memory than the run file's size."""
    hashes = array("q")
    shared: dict[str, str] = {}
    for record in read_records(path):
        if len(record[1]) > len(FIELDS):  # only malformed lines pay for the check
            record = _unquote_tag(record)
        fields = record[1]
        if len(fields) == len(FIELDS):
            for column in (0, 1, 5):  # topic, column 2, tag: a handful of values, stored once each
                fields[column] = shared.setdefault(fields[column], fields[column])
        line = parse_run_line(path, record)
        hashes.append(hash((line.qid, line.doc)))
        yield line
    if hashes:
        values = np.frombuffer(hashes, dtype=np.int64)
        values.sort()  # in place: their order is no longer needed
        if (values[1:] == values[:-1]).any():
            _name_repeat(path)


def watched(lines: Iterable[RunLine], *watchers: Callable[[RunLine], object]) -> Iterator[RunLine]:
    """The lines as they come, each shown to every watcher first: what else a reader needs of a run it reads once
    for its scores (the stance of judged documents, each topic's top) is kept on the way, not the whole run."""
    for line in lines:
        for watcher in watchers:
            watcher(line)
        yield line


def _name_repeat(path: str | Path) -> None:
    """InputError naming the first line whose document repeats one of its topic (read again: only a run that is
    refused pays for it); nothing where two lines merely share a hash."""
    first_line: dict[tuple[str, str], int] = {}
    for record in read_records(path):
        if len(record[1]) > len(FIELDS):
            record = _unquote_tag(record)
        check_unique(path, record[0], parse_run_line(path, record), first_line)


def _unquote_tag(record: Record) -> Record:
    """The record with its quoted tag as one field, or unchanged (so the field count is reported) if it has none."""
    number, fields = record
    tag = quoted_tag(fields)
    return record if tag is None else (number, [*fields[: len(FIELDS) - 1], tag])


def format_run(lines: Iterable[RunLine]) -> str:
    """The run as text, single spaces; scores as Python's shortest repr, which reads back to the same float."""
    return "".join(_format_line(line) for line in lines)


def write_run(path: str | Path, lines: Iterable[RunLine]) -> None:
    """Write the run atomically."""
    atomic_write_text(path, format_run(lines))


def _format_line(line: RunLine) -> str:
    score = float(line.score)  # float(): a NumPy scalar's repr is not a number
    text = f"{line.qid} {line.q0} {line.doc} {line.rank} {score!r} {line.tag}"
    # Six fields split back into six exactly when none is empty and none holds white space of any kind.
    if not math.isfinite(score) or len(text.split()) != len(FIELDS) or text.count(" ") != len(FIELDS) - 1:
        raise ValueError(f"cannot write {line!r} as a run line: empty field, whitespace in a field or non-finite score")
    return text + "\n"
