"""Relevance judgments (qrels): `topic iteration doc label`, as the Touché organisers publish them.

Labels may be written as integers or floats (`2`, `-2`, `4.0`); they are kept as floats. Topic ids stay
strings ("51") so they match run files and topics exactly.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from argrank.errors import InputError
from argrank.records import expect_fields, parse_float, read_records

FIELDS = ("topic", "iteration", "doc", "label")


def read_qrels(path: str | Path, known_topics: Iterable[str] | None = None) -> dict[str, dict[str, float]]:
    """topic → doc → label. A repeated judgment must agree with the first; with `known_topics`, others are rejected."""
    known = None if known_topics is None else set(known_topics)
    qrels: dict[str, dict[str, float]] = {}
    first_line: dict[tuple[str, str], int] = {}
    for record in read_records(path):
        number = record[0]
        topic, _, doc, label_text = expect_fields(path, record, FIELDS)
        label = parse_float(path, number, "label", label_text)
        if known is not None and topic not in known:
            raise InputError(path, f"line {number}", f"unknown topic {topic}")
        judged = qrels.setdefault(topic, {})
        if doc in judged and judged[doc] != label:
            raise InputError(
                path,
                f"line {number}",
                f"document {doc} of topic {topic} is labelled {label_text} here "
                f"but {judged[doc]:g} on line {first_line[topic, doc]}",
            )
        first_line.setdefault((topic, doc), number)
        judged[doc] = label
    return qrels
