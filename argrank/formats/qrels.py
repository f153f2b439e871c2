"""Judgments (qrels): `topic iteration doc label`, as the Touché organisers publish them.

Relevance and quality labels may be written as integers or floats (`2`, `-2`, `4.0`); they are kept as floats.
Task 2's stance qrels have a stance label (FIRST, SECOND, NEUTRAL, NO) instead; Task 3's image judgments put an
aspect or stance in column 2. BEIR's judgments (as ir_datasets caches them: a `query-id corpus-id score` header over
three columns) are read as TREC's with iteration 0. All are read by this module's loop (the tracks' readers are in their packages), so
they report bad lines, repeats and unknown topics alike. Topic ids stay strings ("51") so they match run files and
topics exactly.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator, TypeVar

from argrank.core.errors import InputError
from argrank.core.records import Record, expect_fields, parse_float, read_records
from argrank.formats.beir import QRELS_HEADER
from argrank.formats.topics import MAX_TOPICS

log = logging.getLogger(__name__)

FIELDS = ("topic", "iteration", "doc", "label")
EXAMPLES = 5  # dropped topics a warning names

Label = TypeVar("Label")


@dataclass(frozen=True, slots=True)
class Layout:
    """How a judgments file names its four columns (for messages), what column 3 holds, and what column 2 may be.

    With `column2` None, column 2 is TREC's unused iteration and a judgment is per (topic, item); else it must be
    one of `column2` and a judgment is per (topic, column 2, item).
    """

    fields: tuple[str, str, str, str] = FIELDS
    item: str = "document"
    column2: tuple[str, ...] | None = None


TREC = Layout()


def read_qrels(path: str | Path, known_topics: Iterable[str] | None = None) -> dict[str, dict[str, float]]:
    """topic → doc → label. A repeated judgment must agree with the first; with `known_topics`, others are rejected."""
    return by_topic(read_judgments(path, known_topics, _number_label))


def by_topic(judgments: Iterable[tuple[str, str, str, Label]]) -> dict[str, dict[str, Label]]:
    """topic → item → label of judgments as read_judgments yields them."""
    qrels: dict[str, dict[str, Label]] = {}
    for topic, _, doc, label in judgments:
        qrels.setdefault(topic, {})[doc] = label
    return qrels


def _number_label(path: str | Path, number: int, text: str) -> float:
    return parse_float(path, number, "label", text)


def read_judgments(
    path: str | Path,
    known_topics: Iterable[str] | None,
    parse_label: Callable[[str | Path, int, str], Label],
    layout: Layout = TREC,
) -> Iterator[tuple[str, str, str, Label]]:
    """(topic, column 2, item, label) of each line in file order, the label as `parse_label(path, line number, text)`
    reads it; InputError names the first line with a bad column 2, an unknown topic or a disagreeing repeat."""
    known = None if known_topics is None else set(known_topics)
    first: dict[tuple[str, str, str], tuple[int, str, Label]] = {}  # judgment → line, label text and label of its first
    topics: set[str] = set()
    for record in _records(path):
        number = record[0]
        topic, column2, item, label_text = expect_fields(path, record, layout.fields)
        if topic not in topics:
            if len(topics) == MAX_TOPICS:  # as many as a topics file may hold: refused before memory runs out
                raise InputError(path, f"line {number}", f"more than {MAX_TOPICS:,} judged topics: not judgments "
                                 "of one task's topics (a topics file holds at most as many)")  # fmt: skip
            topics.add(topic)
        if layout.column2 is not None and column2 not in layout.column2:
            raise InputError(
                path, f"line {number}", f"{layout.fields[1]} {column2!r} is not one of {', '.join(layout.column2)}"
            )
        label = parse_label(path, number, label_text)
        if known is not None and topic not in known:
            raise InputError(path, f"line {number}", f"unknown topic {topic}")
        key = (topic, "" if layout.column2 is None else column2, item)
        first_number, first_text, first_label = first.setdefault(key, (number, label_text, label))
        if first_label != label:
            aspect = "" if layout.column2 is None else f" for {column2}"
            raise InputError(
                path,
                f"line {number}",
                f"{layout.item} {item} of topic {topic} is labelled {label_text}{aspect} here but {first_text} on line "
                f"{first_number}",
            )
        yield topic, column2, item, label


def _records(path: str | Path) -> Iterator[Record]:
    """The file's records, those of a BEIR file (after its header) given TREC's unused iteration as column 2."""
    records = read_records(path)
    first = next(records)
    if tuple(first[1]) != QRELS_HEADER:
        yield first
        yield from records
        return
    for number, fields in records:
        topic, doc, score = expect_fields(path, (number, fields), QRELS_HEADER)
        yield number, [topic, "0", doc, score]


Judged = TypeVar("Judged")


def judged_topics(qrels: dict[str, Judged], topics: Iterable[str], path: str | Path) -> dict[str, Judged]:
    """The judgments of the topics a run was made for: official qrels judge every topic of a year, while an
    experiment may run a few of them, so the others are dropped with a warning naming them (a typo in a topics
    file is seen there). InputError if none of `path`'s judged topics is among `topics`, which means qrels and
    topics of different years or tasks."""
    wanted = set(topics)
    kept = {topic: judged for topic, judged in qrels.items() if topic in wanted}
    if not kept:
        raise InputError(path, "", f"none of its {len(qrels)} judged topics is in the topics file")
    dropped = [topic for topic in qrels if topic not in wanted]
    if dropped:
        examples = ", ".join(dropped[:EXAMPLES]) + (", …" if len(dropped) > EXAMPLES else "")
        log.warning(
            "%s: %d of its %d judged topics are not in the topics file and are not scored: %s",
            path, len(dropped), len(qrels), examples,
        )  # fmt: skip
    return kept
