"""Evaluate: a run against each named qrels file, and (Task 2) its stance against the stance qrels.

Tasks 1 and 2 score nDCG@5, Judged@5 and the organisers' judged-only nDCG@5, or the measures the track's
configuration names (ir_measures' names); images score precision of their PRO and CON lists (on-topic, argumentative,
on-stance), from judgments that say per image whether it is on topic, PRO and CON. Each track's evaluator takes
its run writer's parameters, and a run labelled by a trained stance model carries that model's report.
"""

from __future__ import annotations

import json

import luigi
from luigi.util import inherits

from argrank.core.atomic import atomic_write_text
from argrank.core.fingerprint import file_digest
from argrank.evaluation.ranking import DEPTH, RankingScores, evaluate
from argrank.evaluation.results import STANCE, RunScores, StanceF1, TopicScores
from argrank.formats.qrels import judged_topics, read_qrels
from argrank.formats.runfile import RunLine, read_run
from argrank.formats.topics import read_topics
from argrank.tracks.comparative.stance_evaluation import evaluate_stance
from argrank.tracks.comparative.stance_qrels import read_stance_qrels
from argrank.tracks.images.evaluation import ImageScores, evaluate_images
from argrank.tracks.images.qrels import read_image_qrels
from tasks.base import CachedTask
from tasks.images import SelectImages
from tasks.runs import WriteImageRun, WriteRanking, WriteRun, WriteStanceRun
from tasks.model_folder import read_report
from tasks.stance import ClassifyStance


class EvaluateRun(CachedTask):
    """What every evaluator shares: the run scored against each named judgments file, and the stance model's
    report beside the scores where a trained model labelled the run."""

    qrels = luigi.DictParameter(description='judgment name → qrels file, e.g. {"relevance": "…"}')

    stage = "evaluation"
    extension = ".json"
    location_params = ("corpus", "topics", "qrels", "stance_training", "stance_qrels", "quality_training")
    omitted_when_empty = ("quality",)
    result_type: type[TopicScores] = RankingScores  # what score() returns, and what its JSON reads back as

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
        return [file_digest(self.topics)] + [f"{name}:{file_digest(path)}" for name, path in sorted(named.items())]

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
        raise NotImplementedError

    def stance(self, run: list[RunLine], known: list[str]) -> StanceF1 | None:
        return None


class EvaluateRankingMeasures(EvaluateRun):
    """The ranking tracks' scoring: the default measures at DEPTH, or the ones named."""

    measures = luigi.ListParameter(default=(), description="ir_measures names; none: nDCG, Judged, condensed-nDCG @5")

    def score(self, run: list[RunLine], qrels: str, known: list[str]) -> TopicScores:
        named = list(self.measures) or None
        return evaluate(run, judged_topics(read_qrels(qrels), known, qrels), None if named else DEPTH, named)


@inherits(WriteRanking)
class EvaluateRanking(EvaluateRankingMeasures):
    """nDCG@5 of an args run (or any run ranked without stance)."""

    def run_task(self) -> WriteRun:
        return self.clone(WriteRanking)


@inherits(WriteStanceRun)
class EvaluateComparativeRun(EvaluateRankingMeasures):
    """nDCG@5 of a comparative run, and its stance macro-F1 where stance qrels are given (None for a run without
    stance, which has Q0 in column 2)."""

    stance_training = luigi.OptionalListParameter(
        default=None, description="stance training files; none: a run without stance"
    )
    stance_qrels = luigi.OptionalParameter(default=None, description="stance qrels")

    def run_task(self) -> WriteRun:
        return self.clone(WriteStanceRun) if self.stance_training else self.clone(WriteRanking)

    def model_task(self) -> luigi.Task | None:
        return self.clone(ClassifyStance).model() if self.stance_training else None

    def judgment_files(self) -> dict[str, str]:
        return {**self.qrels, **({STANCE: self.stance_qrels} if self.stance_qrels else {})}

    def stance(self, run: list[RunLine], known: list[str]) -> StanceF1 | None:
        if not self.stance_qrels:
            return None
        return evaluate_stance(run, judged_topics(read_stance_qrels(self.stance_qrels), known, self.stance_qrels))


@inherits(WriteImageRun)
class EvaluateImageRun(EvaluateRun):
    """On-topic, argumentative and on-stance precision of an images run's 10 PRO and 10 CON images."""

    def run_task(self) -> WriteRun:
        return self.clone(WriteImageRun)

    def model_task(self) -> luigi.Task | None:
        return self.clone(SelectImages).model() if self.stance_training else None

    result_type = ImageScores

    def score(self, run: list[RunLine], qrels: str, known: list[str]) -> TopicScores:
        return evaluate_images(run, judged_topics(read_image_qrels(qrels), known, qrels))


EVALUATORS = {"args": EvaluateRanking, "comparative": EvaluateComparativeRun, "images": EvaluateImageRun}


def evaluation_task(
    run: WriteRun, qrels: dict[str, str], stance_qrels: str | None, measures: tuple[str, ...] = ()
) -> EvaluateRun:
    """The task that scores `run` (from tasks.runs.run_task) against its track's judgments; a track without stance
    judgments ignores `stance_qrels`, one without ranking measures `measures`."""
    return run.clone(EVALUATORS[run.track], qrels=qrels, stance_qrels=stance_qrels, measures=measures)
