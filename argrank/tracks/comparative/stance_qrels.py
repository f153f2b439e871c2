"""Touché Task 2's stance judgments: `topic 0 doc FIRST|SECOND|NEUTRAL|NO`, read by the qrels' judgment loop."""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from argrank.core.errors import InputError
from argrank.formats.qrels import by_topic, read_judgments
from argrank.tracks.comparative.stance_labels import LABELS


def read_stance_qrels(path: str | Path, known_topics: Iterable[str] | None = None) -> dict[str, dict[str, str]]:
    """topic → doc → stance label (one of LABELS), with the same rules as formats.qrels.read_qrels."""
    return by_topic(read_judgments(path, known_topics, _stance_label))


def _stance_label(path: str | Path, number: int, text: str) -> str:
    if text not in LABELS:
        raise InputError(path, f"line {number}", f"stance label {text!r} is not one of {', '.join(LABELS)}")
    return text
