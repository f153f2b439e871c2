"""Figures scored on queries or topics that a model of the run was trained on: in-sample.

A fitted model scores higher on its own training data than it would on new data, so such a figure is no estimate of
the model's quality. A result carries why it is in-sample (`InSample`): its JSON says so beside the figures, tables
mark the figures with MARK and add one line with the reason, so nobody reads a training score as a held-out one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

IN_SAMPLE, REASON, MEASURES = "in_sample", "in_sample_reason", "in_sample_measures"
MARK = "*"
SHOWN = 5  # topics a reason names before "…"


@dataclass(frozen=True)
class InSample:
    """Which of a result's measures are in-sample, and why (a sentence naming the model and its training data)."""

    reason: str
    measures: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {IN_SAMPLE: True, REASON: self.reason, MEASURES: list(self.measures)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> InSample | None:
        """The mark of a result's JSON; None where it has none (held out, or written before results were marked)."""
        return cls(data[REASON], tuple(data[MEASURES])) if data.get(IN_SAMPLE) else None

    @property
    def note(self) -> str:
        return f"{MARK} in-sample: {self.reason}"


def in_sample_json(mark: InSample | None) -> dict[str, Any]:
    """The keys a result's JSON gets: none for a held-out result, so its JSON is what it always was."""
    return {} if mark is None else mark.to_json()


def marked(cell: str, measure: str, mark: InSample | None) -> str:
    """A table cell of `measure`, with MARK where the measure is in-sample."""
    return f"{cell}{MARK}" if mark is not None and measure in mark.measures else cell


def notes(marks: Iterable[InSample | None]) -> list[str]:
    """One line per distinct reason, in first-seen order: what goes under a table with marked figures."""
    return list(dict.fromkeys(mark.note for mark in marks if mark is not None))


def topics_named(topics: list[str]) -> str:
    """Topic numbers for a reason: the first SHOWN of them, then "…"."""
    return ", ".join(topics[:SHOWN]) + (", …" if len(topics) > SHOWN else "")
