"""The Touché Task 1 submission rules for run files, checked in one pass so the FIRST offending line is the one named.

Column 2 is a parameter because later tracks put a stance label there instead of `Q0`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Collection

from argrank.errors import InputError
from argrank.records import read_records
from argrank.runfile import RunLine, check_unique, parse_run_line


def validate_run(path: str | Path, max_per_topic: int = 1000, column2: Collection[str] = frozenset({"Q0"})) -> int:
    """The number of lines of a valid run; else InputError naming the first line that breaks a rule.

    Rules: six fields separated by spaces or tabs; column 2 in `column2`; an integer rank and a finite score;
    one tag for the whole file; each topic's lines contiguous; ranks 1..n in file order; scores not
    increasing within a topic; at most `max_per_topic` lines per topic; no document twice in a topic.
    """
    records = read_records(path)
    first = parse_run_line(path, records[0])
    topic_start: dict[str, int] = {}
    first_line: dict[tuple[str, str], int] = {}
    previous: RunLine | None = None
    for record in records:
        number = record[0]
        line = parse_run_line(path, record)
        same_topic = previous is not None and previous.qid == line.qid
        expected_rank = previous.rank + 1 if same_topic else 1
        if line.q0 not in column2:
            problem = f"column 2 is {line.q0!r}, expected {' or '.join(map(repr, sorted(column2)))}"
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
