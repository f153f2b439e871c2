"""The results every evaluation returns, and the JSON the stages cache and publish them as.

A ranking track's run is scored against each named judgments file (`TopicScores`: a mean per measure and every
topic's scores) and, where it has stance, for its stance labels (`StanceF1`), with the report of the classifier
that labelled it; `RunScores` holds one run's whole evaluation. Each kind of measure subclasses `TopicScores`
(ranking measures in `ranking.py`, image precision in `tracks.images.evaluation`), and every result lists its
measures, so a table or a CSV never has to guess a result's shape; the JSON names them under "measures" and says
which topics the means are over under "average".
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import Any, Self

from argrank.evaluation.in_sample import InSample, in_sample_json
from argrank.evaluation.names import STANCE
from argrank.formats.topics import topic_order

# Which judged topics a mean is over. The Touché organisers' (and ir_measures', and trec_eval -c's): every judged
# topic, 0 where the run lacks it. trec_eval's default: only the judged topics the run has.
JUDGED_TOPICS = "judged-topics"
RUN_TOPICS = "run-topics"
AVERAGING = (JUDGED_TOPICS, RUN_TOPICS)
# The results' JSON as the stages cache it, in their signatures: a new version scores again rather than read a
# result that lacks a key (2: the judged topics a run lacks, "missing_topics").
RESULTS_FORMAT = "results-2"


@dataclass(frozen=True)
class TopicScores:
    """One run against one judgments file: per measure the mean over the topics averaged (in the order tables show
    the measures), and per topic, in topic order, each measure's score. `depth` is the cut-off the measures were
    chosen for, where one was (None for measures named one by one); `in_sample` where a model of the run was
    trained on these judgments' topics."""

    depth: int | None
    means: dict[str, float]
    per_topic: dict[str, dict[str, float]]
    average: str = JUDGED_TOPICS
    in_sample: InSample | None = None
    missing: tuple[str, ...] = ()  # judged topics the run lacks: 0 in the means (JUDGED_TOPICS), or left out

    @classmethod
    def of_topics(
        cls,
        depth: int | None,
        per_topic: dict[str, dict[str, float]],
        names: Iterable[str],
        average: str = JUDGED_TOPICS,
        run_topics: Collection[str] = (),
    ) -> Self:
        """The result whose means are those of `per_topic`'s scores of the measures `names`: over every judged topic
        (0 where missed), or with RUN_TOPICS over those of `run_topics` only. ValueError where none is left."""
        if average not in AVERAGING:
            raise ValueError(f"unknown averaging {average!r}; expected one of {', '.join(AVERAGING)}")
        missing = tuple(topic for topic in per_topic if topic not in run_topics)
        if average == RUN_TOPICS:
            per_topic = {topic: scores for topic, scores in per_topic.items() if topic in run_topics}
        if not per_topic:
            raise ValueError("the run has none of the judged topics, so there is no topic to average over")
        means = {name: math.fsum(scores[name] for scores in per_topic.values()) / len(per_topic) for name in names}
        return cls(depth, means, per_topic, average, missing=missing)

    @property
    def measures(self) -> list[str]:
        return list(self.means)

    @property
    def topics(self) -> int:
        return len(self.per_topic)

    @property
    def missing_note(self) -> str:
        """What the means make of the judged topics the run lacks, in words ("" where it lacks none)."""
        return missing_note(len(self.missing), self.average)

    def to_json(self) -> dict[str, Any]:
        head = {"depth": self.depth, "topics": self.topics, "average": self.average, "measures": self.measures,
                "missing_topics": list(self.missing)}  # fmt: skip
        return {**head, **self.means, **in_sample_json(self.in_sample), "per_topic": self.per_topic}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        names = data["measures"]
        per_topic = {
            topic: {name: data["per_topic"][topic][name] for name in names} for topic in topic_order(data["per_topic"])
        }
        means = {name: data[name] for name in names}
        missing = tuple(data.get("missing_topics", ()))  # results cached before it was kept say nothing
        return cls(data["depth"], means, per_topic, data["average"], InSample.from_json(data), missing)


def missing_note(missing: int, average: str) -> str:
    """How a mean treats `missing` judged topics a run lacks ("" for none): counted as 0 (JUDGED_TOPICS, Touché's
    official evaluation) or left out (RUN_TOPICS, trec_eval without -c)."""
    if not missing:
        return ""
    topics = f"{missing} judged topic{'s' if missing > 1 else ''}"
    if average == JUDGED_TOPICS:
        return f"{topics} missing from the run, each counted as 0 (as Touché's evaluation and trec_eval -c)"
    return f"{topics} missing from the run, left out of the mean (as trec_eval without -c)"


@dataclass(frozen=True)
class StanceF1:
    """Stance macro-F1 over the (topic, document) pairs both the run and the stance judgments have, and F1 per
    label; `macro` is None where there is no pair to score (a run without stance, or nothing judged). `in_sample`
    where the classifier was trained on the judged topics or passages."""

    macro: float | None
    pairs: int
    per_label: dict[str, float | None]
    in_sample: InSample | None = None

    def to_json(self) -> dict[str, Any]:
        scores = {"stance_f1": self.macro, "stance_pairs": self.pairs, "stance_f1_per_label": self.per_label}
        return {**scores, **in_sample_json(self.in_sample)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        return cls(data["stance_f1"], data["stance_pairs"], data["stance_f1_per_label"], InSample.from_json(data))


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
