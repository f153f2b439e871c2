"""The Touché submission rules for run files, checked in one pass so the FIRST offending line is the one named.

Tracks differ only in column 2: `Q0` for args (Task 1); a stance label or `Q0` for comparative (Task 2), where
a run states a stance on every line or on none.
"""

from __future__ import annotations

from pathlib import Path
from typing import Collection

from argrank.errors import InputError
from argrank.records import Record, read_records
from argrank.runfile import RunLine, check_unique, parse_run_line, quoted_tag
from argrank.stance_labels import LABELS, NO_STANCE_COLUMN

COLUMN2 = {"args": frozenset({NO_STANCE_COLUMN}), "comparative": frozenset({NO_STANCE_COLUMN, *LABELS})}


def validate_run(path: str | Path, max_per_topic: int = 1000, column2: Collection[str] = COLUMN2["args"]) -> int:
    """The number of lines of a valid run; else InputError naming the first line that breaks a rule.

    Rules: six fields separated by spaces or tabs (a tag never quoted, never with spaces); column 2 in `column2`;
    `Q0` on every line or on none; an integer rank and a finite score; one tag for the whole file; each topic's
    lines contiguous; ranks 1..n in file order; scores not increasing within a topic; at most `max_per_topic`
    lines per topic; no document twice in a topic.
    """
    records = read_records(path)
    first = _parse(path, records[0])
    topic_start: dict[str, int] = {}
    first_line: dict[tuple[str, str], int] = {}
    previous: RunLine | None = None
    for record in records:
        number = record[0]
        line = _parse(path, record)
        same_topic = previous is not None and previous.qid == line.qid
        expected_rank = previous.rank + 1 if same_topic else 1
        if line.q0 not in column2:
            problem = f"column 2 is {line.q0!r}, expected {' or '.join(map(repr, sorted(column2)))}"
        elif (line.q0 == NO_STANCE_COLUMN) != (first.q0 == NO_STANCE_COLUMN):
            problem = (
                f"column 2 is {line.q0!r} but {first.q0!r} on line {records[0][0]}; "
                f"a run gives a stance on every line or {NO_STANCE_COLUMN} on every line"
            )
        elif line.tag != first.tag:
            problem = f"tag {line.tag!r} differs from {first.tag!r} on line {records[0][0]}; a run has one tag"
        elif not same_topic and line.qid in topic_start:
            problem = f"topic {line.qid} appears again after other topics (it began on line {topic_start[line.qid]})"
        elif line.rank != expected_rank:
            problem = f"rank {line.rank} in topic {line.qid}, expected {expected_rank} (ranks run 1, 2, 3, … per topic)"
        elif same_topic and line.score > previous.score:
            problem = f"score {line.score!r} is higher than {previous.score!r} on the line before; scores must not increase"
        elif line.rank > max_per_topic:
            problem = f"more than {max_per_topic} documents for topic {line.qid}"
        else:
            problem = None
        if problem:
            raise InputError(path, f"line {number}", problem)
        check_unique(path, number, line, first_line)
        topic_start.setdefault(line.qid, number)
        previous = line
    return len(records)


def _parse(path: str | Path, record: Record) -> RunLine:
    """The record as a RunLine; a tag in quotes with spaces, which the lenient reader recovers, is an error here."""
    number, fields = record
    tag = quoted_tag(fields)
    if tag is not None:
        raise InputError(
            path, f"line {number}", f'the tag "{tag}" is quoted and contains spaces; a run has one tag without whitespace'
        )
    return parse_run_line(path, record)
