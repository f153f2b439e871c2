"""The Touché submission rules for run files, checked in one pass so the FIRST offending line is the one named.

Tracks differ in column 2 and in what a ranked list is (each track's `RunRules` are its Track's `run_rules`):
`Q0` for args (Task 1), one list per topic; a stance label or `Q0` for comparative (Task 2), where a run states a
stance on every line or on none; PRO or CON for images (Task 3), where a topic has two lists, at most 10 PRO and
10 CON images, each ranked from 1.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from pathlib import Path

from argrank.core.errors import InputError
from argrank.core.records import Record, read_records
from argrank.formats.runfile import Q0, RunLine, check_unique, parse_run_line, quoted_tag


@dataclass(frozen=True, slots=True)
class RunRules:
    """A track's rules: column 2's values, whether each (topic, column 2) is a list of its own, a list's length."""

    column2: frozenset[str]
    by_stance: bool = False
    max_per_list: int = 1000

    def list_name(self, line: RunLine) -> str:
        """The ranked list a line belongs to, as messages name it: `topic 7`, or `topic 7 PRO` by stance."""
        return f"topic {line.qid} {line.q0}" if self.by_stance else f"topic {line.qid}"


TREC = RunRules(frozenset({Q0}))  # a plain TREC run: Q0 in column 2, one list per topic


def validate_run(
    path: str | Path,
    max_per_topic: int | None = None,
    column2: Collection[str] | None = None,
    rules: RunRules = TREC,
) -> int:
    """The number of lines of a valid run; else InputError naming the first line that breaks a rule.

    Rules: six fields separated by spaces or tabs (a tag never quoted, never with spaces); column 2 in the rules'
    set; `Q0` on every line or on none; an integer rank and a finite score; one tag for the whole file; each
    list's lines contiguous; ranks 1..n in file order; scores not increasing within a list; at most
    `max_per_list` lines per list; no document twice in a topic. `max_per_topic` and `column2`, when given,
    replace the rules' own (callers of the args and comparative tracks name just these).
    """
    if max_per_topic is not None:
        rules = dataclasses.replace(rules, max_per_list=max_per_topic)
    if column2 is not None:
        rules = dataclasses.replace(rules, column2=frozenset(column2))
    return check_lines(path, ((record[0], _parse(path, record)) for record in read_records(path)), rules)


def check_lines(path: str | Path, lines: Iterable[tuple[int, RunLine]], rules: RunRules = TREC) -> int:
    """The rules of validate_run for (line number, line) pairs in file order, parsed or about to be written: the
    number of lines, or InputError naming `path` and the first line that breaks one.

    Memory follows the topics, not the lines: it keeps each list's first line and the documents of the current
    topic only (of every topic where lists are by stance), as a topic that starts again is an error of its own."""
    list_start: dict[str, int] = {}
    first_line: dict[tuple[str, str], int] = {}
    previous: RunLine | None = None
    first: tuple[int, RunLine] | None = None
    count = 0
    for count, (number, line) in enumerate(lines, start=1):
        first = first or (number, line)
        problem = _problem(rules, line, previous, first, list_start)
        if problem:
            raise InputError(path, f"line {number}", problem)
        if not rules.by_stance and previous is not None and previous.qid != line.qid:
            first_line.clear()
        check_unique(path, number, line, first_line)
        list_start.setdefault(rules.list_name(line), number)
        previous = line
    return count


def _problem(
    rules: RunRules, line: RunLine, previous: RunLine | None, first: tuple[int, RunLine], list_start: dict[str, int]
) -> str | None:
    """What is wrong with `line` after `previous` (None at the start), or None; the order of checks is the order
    in which rules are reported."""
    first_number, first_line = first
    name = rules.list_name(line)
    same_list = previous is not None and rules.list_name(previous) == name
    expected_rank = previous.rank + 1 if same_list else 1
    if line.q0 not in rules.column2:
        return f"column 2 is {line.q0!r}, expected {' or '.join(map(repr, sorted(rules.column2)))}"
    if (line.q0 == Q0) != (first_line.q0 == Q0):
        return (
            f"column 2 is {line.q0!r} but {first_line.q0!r} on line {first_number}; "
            f"a run gives a stance on every line or {Q0} on every line"
        )
    if line.tag != first_line.tag:
        return f"tag {line.tag!r} differs from {first_line.tag!r} on line {first_number}; a run has one tag"
    if not same_list and name in list_start:
        others = "lists" if rules.by_stance else "topics"
        return f"{name} appears again after other {others} (it began on line {list_start[name]})"
    if line.rank != expected_rank:
        per = "topic and stance" if rules.by_stance else "topic"
        return f"rank {line.rank} in {name}, expected {expected_rank} (ranks run 1, 2, 3, … per {per})"
    if same_list and line.score > previous.score:
        return f"score {line.score!r} is higher than {previous.score!r} on the line before; scores must not increase"
    if line.rank > rules.max_per_list:
        return f"more than {rules.max_per_list} documents for {name}"
    return None


def _parse(path: str | Path, record: Record) -> RunLine:
    """The record as a RunLine; a tag in quotes with spaces, which the lenient reader recovers, is an error here."""
    number, fields = record
    tag = quoted_tag(fields)
    if tag is not None:
        raise InputError(
            path,
            f"line {number}",
            f'the tag "{tag}" is quoted and contains spaces; a run has one tag without whitespace',
        )
    return parse_run_line(path, record)
