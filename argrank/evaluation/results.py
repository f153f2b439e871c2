"""The results every evaluation returns, and the JSON the stages cache and publish them as.

A ranking track's run is scored against each named judgments file (`TopicScores`: a mean per measure and every
topic's scores) and, where it has stance, for its stance labels (`StanceF1`), with the report of the classifier
that labelled it; `RunScores` holds one run's whole evaluation. Each track's measures subclass `TopicScores`
(nDCG in `ndcg.py`, image precision in `tracks.images.evaluation`), which names its measures, so a table or a
CSV never has to guess a result's shape. The JSON keys are those the graph has always written.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from argrank.formats.topics import topic_order

STANCE = "stance"  # a run's JSON key for its stance scores; no judgments file may be named so


@dataclass(frozen=True)
class TopicScores:
    """One run against one judgments file at cut-off `depth`: per measure the mean over the judged topics (in the
    order tables show the measures), and per topic, in topic order, each measure's score."""

    depth: int
    means: dict[str, float]
    per_topic: dict[str, dict[str, float]]

    # Whether the JSON names the measures too (under "measures"); where they follow from the depth, it does not.
    LISTS_MEASURES: ClassVar[bool] = False

    @classmethod
    def measure_names(cls, depth: int) -> tuple[str, ...]:
        """The measures this kind of result holds at cut-off `depth`, in column order."""
        raise NotImplementedError

    @classmethod
    def of_topics(cls, depth: int, per_topic: dict[str, dict[str, float]]) -> Self:
        """The result whose means are those of `per_topic`'s scores (every judged topic counts, 0 where missed)."""
        names = cls.measure_names(depth)
        means = {name: math.fsum(scores[name] for scores in per_topic.values()) / len(per_topic) for name in names}
        return cls(depth, means, per_topic)

    @property
    def measures(self) -> list[str]:
        return list(self.means)

    @property
    def topics(self) -> int:
        return len(self.per_topic)

    def to_json(self) -> dict[str, Any]:
        listed = {"measures": self.measures} if self.LISTS_MEASURES else {}
        return {"depth": self.depth, "topics": self.topics, **listed, **self.means, "per_topic": self.per_topic}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        names = cls.measure_names(data["depth"])
        per_topic = {
            topic: {name: data["per_topic"][topic][name] for name in names} for topic in topic_order(data["per_topic"])
        }
        return cls(data["depth"], {name: data[name] for name in names}, per_topic)


@dataclass(frozen=True)
class StanceF1:
    """Stance macro-F1 over the (topic, document) pairs both the run and the stance judgments have, and F1 per
    label; `macro` is None where there is no pair to score (a run without stance, or nothing judged)."""

    macro: float | None
    pairs: int
    per_label: dict[str, float | None]

    def to_json(self) -> dict[str, Any]:
        return {"stance_f1": self.macro, "stance_pairs": self.pairs, "stance_f1_per_label": self.per_label}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        return cls(data["stance_f1"], data["stance_pairs"], data["stance_f1_per_label"])


@dataclass(frozen=True)
class RunScores:
    """One run's evaluation: its scores per judgments file by name, its stance F1 where stance was judged, and the
    cross-validation report of the stance classifier it was labelled by, where one was trained."""

    judgments: dict[str, TopicScores] = field(default_factory=dict)
    stance: StanceF1 | None = None
    classifier: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {name: scores.to_json() for name, scores in self.judgments.items()}
        stance = {**(self.stance.to_json() if self.stance else {}), **self._classifier_json()}
        if stance:
            data[STANCE] = stance
        return data

    def _classifier_json(self) -> dict[str, Any]:
        return {} if self.classifier is None else {"classifier": self.classifier}

    @classmethod
    def from_json(cls, data: dict[str, Any], scores: type[TopicScores]) -> Self:
        """Read back what to_json wrote; `scores` is the kind of TopicScores the track's judgments give."""
        stance = data.get(STANCE, {})
        return cls(
            judgments={name: scores.from_json(result) for name, result in data.items() if name != STANCE},
            stance=StanceF1.from_json(stance) if "stance_f1" in stance else None,
            classifier=stance.get("classifier"),
        )
