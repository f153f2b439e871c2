"""Judgments (qrels): `topic iteration doc label`, as the Touché organisers publish them.

Relevance and quality labels may be written as integers or floats (`2`, `-2`, `4.0`); they are kept as floats.
Task 2's stance qrels have a stance label (FIRST, SECOND, NEUTRAL, NO) instead; both are read by one loop, so
they report bad lines, repeats and unknown topics alike. Topic ids stay strings ("51") so they match run files
and topics exactly.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterable, TypeVar

from argrank.errors import InputError
from argrank.records import expect_fields, parse_float, read_records
from argrank.stance_labels import LABELS

FIELDS = ("topic", "iteration", "doc", "label")

Label = TypeVar("Label")


def read_qrels(path: str | Path, known_topics: Iterable[str] | None = None) -> dict[str, dict[str, float]]:
    """topic → doc → label. A repeated judgment must agree with the first; with `known_topics`, others are rejected."""
    return _read_judgments(path, known_topics, _number_label)


def read_stance_qrels(path: str | Path, known_topics: Iterable[str] | None = None) -> dict[str, dict[str, str]]:
    """topic → doc → stance label (one of LABELS), with the same rules as read_qrels."""
    return _read_judgments(path, known_topics, _stance_label)


def _number_label(path: str | Path, number: int, text: str) -> float:
    return parse_float(path, number, "label", text)


def _stance_label(path: str | Path, number: int, text: str) -> str:
    if text not in LABELS:
        raise InputError(path, f"line {number}", f"stance label {text!r} is not one of {', '.join(LABELS)}")
    return text


def _read_judgments(
    path: str | Path, known_topics: Iterable[str] | None, parse_label: Callable[[str | Path, int, str], Label]
) -> dict[str, dict[str, Label]]:
    """topic → doc → label as `parse_label(path, line number, text)` reads it; repeats must agree with the first."""
    known = None if known_topics is None else set(known_topics)
    qrels: dict[str, dict[str, Label]] = {}
    first: dict[tuple[str, str], tuple[int, str]] = {}  # (topic, doc) → line and label text of its first judgment
    for record in read_records(path):
        number = record[0]
        topic, _, doc, label_text = expect_fields(path, record, FIELDS)
        label = parse_label(path, number, label_text)
        if known is not None and topic not in known:
            raise InputError(path, f"line {number}", f"unknown topic {topic}")
        judged = qrels.setdefault(topic, {})
        if doc in judged and judged[doc] != label:
            first_number, first_text = first[topic, doc]
            raise InputError(
                path,
                f"line {number}",
                f"document {doc} of topic {topic} is labelled {label_text} here but {first_text} on line {first_number}",
            )
        first.setdefault((topic, doc), (number, label_text))
        judged[doc] = label
    return qrels
