"""Evaluate: a run against each named qrels file, in its track's format and with its track's measures
(tracks.track.RankingTrack.score), and the stance model's report beside the scores where one labelled the run.

Tasks 1 and 2 score nDCG@5, Judged@5 and the organisers' judged-only nDCG@5 by default, or the measures the
track's configuration names (ir_measures' names). A track's own evaluators (stance judgments, a stance model) are
in its task module (tasks.tracks).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import luigi
from luigi.util import inherits

from argrank.core.atomic import atomic_write_text
from argrank.core.fingerprint import file_digest
from argrank.evaluation.ranking import DEPTH
from argrank.evaluation.results import RESULTS_FORMAT, RunScores
from argrank.formats.qrels import judged_topics
from argrank.formats.runfile import read_run
from argrank.formats.topics import read_topics
from argrank.tracks.registry import track as registered
from argrank.tracks.section import TrackSection
from tasks.base import CachedTask, location
from tasks.model_folder import read_report
from tasks.runs import WriteFusedRun, WriteRanking, WriteRun
from tasks.track_tasks import track_tasks

if TYPE_CHECKING:
    from argrank.evaluation.results import StanceF1, TopicScores
    from argrank.formats.runfile import RunLine


class EvaluateRun(CachedTask):
    """What every evaluator shares: the run scored against each named judgments file, and the stance model's
    report beside the scores where a trained model labelled the run."""

    qrels = location(luigi.DictParameter(description='judgment name → qrels file, e.g. {"relevance": "…"}'))
    measures = luigi.ListParameter(default=(), description="ir_measures names; none: the track's defaults")

    stage = "evaluation"
    extension = ".json"
    omitted_when_empty = ("quality", "measures")

    def requires(self) -> dict[str, luigi.Task]:
        model = self.model_task()
        return {"run": self.run_task(), **({"model": model} if model else {})}

    def run_task(self) -> WriteRun:
        raise NotImplementedError

    def model_task(self) -> luigi.Task | None:
        """The trained stance model that labelled the run, if one did."""
        return None

    def judgment_files(self) -> dict[str, str]:
        """Every judgments file this evaluation reads, by name."""
        return dict(self.qrels)

    def input_digests(self) -> list[str]:
        named = self.judgment_files()
        judged = [f"{name}:{file_digest(path)}" for name, path in sorted(named.items())]
        return [file_digest(self.topics), *judged, RESULTS_FORMAT]

    @property
    def result_type(self) -> type[TopicScores]:
        """What score() returns, and what its JSON reads back as."""
        return registered(self.track).result_type()

    def run(self) -> None:
        run = read_run(self.input()["run"].path)
        known = [topic.number for topic in read_topics(self.topics)]
        scores = RunScores(
            judgments={name: self.score(run, path, known) for name, path in self.qrels.items()},
            stance=self.stance(run, known),
            classifier=read_report(self.input()["model"].path) if "model" in self.input() else None,
        )
        atomic_write_text(self.output_path, json.dumps(scores.to_json(), indent=2, sort_keys=True) + "\n")

    def score(self, run: list[RunLine], qrels: str, known: list[str]) -> TopicScores:
        track = registered(self.track)
        judged = judged_topics(track.read_qrels(qrels), known, qrels)
        return track.score(run, judged, list(self.measures) or None, DEPTH, None)

    def stance(self, run: list[RunLine], known: list[str]) -> StanceF1 | None:
        return None


@inherits(WriteRanking)
class EvaluateRanking(EvaluateRun):
    """A run written from its ranking as it is (or re-ranked by quality)."""

    def run_task(self) -> WriteRun:
        return self.clone(WriteRanking)


@inherits(WriteFusedRun)
class EvaluateFusedRun(EvaluateRun):
    """A fusion run, scored as a ranking of its track."""

    topics = location(luigi.Parameter(description="topics XML file"))

    def run_task(self) -> WriteRun:
        return self.clone(WriteFusedRun)


def ranking_evaluation(run: WriteRun, section: TrackSection) -> EvaluateRun:
    return run.clone(EvaluateRanking, **evaluation_params(section))


def evaluation_params(section: TrackSection) -> dict:
    """The judgments and measures of a section, as every evaluator takes them."""
    return {"qrels": {name: str(path) for name, path in section.qrels.items()}, "measures": section.measures}


def evaluation_task(run: WriteRun, section: TrackSection) -> EvaluateRun:
    """The task that scores `run` (from tasks.runs.run_task) against its section's judgments, as its track does; a
    fusion run's, as a ranking."""
    if isinstance(run, WriteFusedRun):
        return run.clone(EvaluateFusedRun, **evaluation_params(section), topics=str(section.topics))
    return (track_tasks(section.name).evaluation_task or ranking_evaluation)(run, section)
