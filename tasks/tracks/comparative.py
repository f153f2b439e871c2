"""The comparative track's tasks: its passages' ingest, the stance model trained once per training set and settings,
each ranked passage labelled with a stance, the stance run written, and its evaluation against stance judgments
beside the relevance ones."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import luigi
from luigi.util import inherits, requires

from argrank.core.atomic import atomic_path
from argrank.core.document_texts import texts_by_id
from argrank.core.errors import InputError
from argrank.core.fingerprint import file_digest
from argrank.core.model_file import FORMAT, STANCE, load_model
from argrank.core.table_writer import IngestStats
from argrank.evaluation.in_sample import InSample
from argrank.evaluation.names import STANCE as STANCE_JUDGMENTS
from argrank.evaluation.results import StanceF1
from argrank.formats.qrels import judged_topics
from argrank.formats.ranking_table import EXTENSION, read_ranking, write_ranking
from argrank.formats.runfile import RunLine
from argrank.tracks.comparative.objects import objects_by_topic
from argrank.tracks.comparative.passages import TEXT, ingest_passages, passage_file
from argrank.tracks.comparative.ranked_stance import classify_ranking
from argrank.tracks.comparative.stance_data import read_training_sets
from argrank.tracks.comparative.stance_evaluation import evaluate_stance
from argrank.tracks.comparative.stance_in_sample import stance_in_sample
from argrank.tracks.comparative.stance_model import MODEL_TYPES, predict_stance, train_stance_model
from argrank.tracks.comparative.stance_qrels import read_stance_qrels
from argrank.tracks.comparative.track import STANCE_MODEL, ComparativeRun, ComparativeSection
from tasks.base import CachedTask, location
from tasks.evaluate import EvaluateRun, evaluation_params
from tasks.ingest import IngestTask
from tasks.model_folder import log_stance_report, model_path, save_model_folder
from tasks.steps import RankedRun, RerankStep
from tasks.runs import WriteRanking, WriteRun, ranking_params
from tasks.track_tasks import TrackTasks

# argrank.tracks.comparative.stance_model is imported in the tasks that use it: it imports scikit-learn, about a
# second that every start of the graph would otherwise pay, stance or not.


class IngestPassages(IngestTask):
    """Touché Task 2 passages: `passages.jsonl.gz` or `.jsonl`, or a folder holding it."""

    track = "comparative"
    documents = "passages"

    def digest(self) -> str:
        return file_digest(passage_file(self.corpus))

    def ingest(self, out_path: Path) -> IngestStats:
        return ingest_passages(passage_file(self.corpus), out_path)


class TrainStanceModel(CachedTask):
    """Fits the model on the whole training set and keeps its cross-validated scores beside it. The model file's
    format (core.model_file) enters its signature: a new format retrains, rather than finding a file it would
    refuse to load."""

    stance_training = location(luigi.ListParameter(
        description="stance training files: the task's TSV, CompSent-19's CSV (told apart by their header) or .jsonl"
    ))  # fmt: skip
    stance_model = luigi.DictParameter(default=STANCE_MODEL, description="classifier settings: c, folds")

    track = "comparative"
    stage = "stance-model"

    def input_digests(self) -> list[str]:
        return [*map(file_digest, self.stance_training), FORMAT]

    def run(self) -> None:
        examples = read_training_sets(self.stance_training)
        settings = {**STANCE_MODEL, **self.stance_model}
        try:
            model, report = train_stance_model(examples, c=settings["c"], folds=settings["folds"])
        except ValueError as error:
            raise InputError(", ".join(self.stance_training), "", f"cannot train the stance model: {error}") from None
        log_stance_report(report)
        save_model_folder(self.output_path, model, report, STANCE)


@inherits(RerankStep, TrainStanceModel)
class ClassifyStance(RankedRun, CachedTask):
    """Each ranked passage's stance towards its topic's two objects."""

    stage = "stance"
    extension = EXTENSION

    def requires(self) -> dict[str, luigi.Task]:
        return {
            "ranking": self.ranking_task(),
            "model": self.model(),
            "documents": IngestPassages(corpus=self.corpus),
        }

    def model(self) -> TrainStanceModel:
        """The one model all stance runs with this training set and these settings share."""
        return self.clone(TrainStanceModel)

    def input_digests(self) -> list[str]:
        return [file_digest(self.topics)]

    def run(self) -> None:
        ranking = read_ranking(self.input()["ranking"].path)
        texts = texts_by_id(self.input()["documents"].path, set(ranking.column("doc").to_pylist()), TEXT)
        model = load_model(model_path(self.input()["model"].path), MODEL_TYPES)
        labelled = classify_ranking(
            ranking, texts, objects_by_topic(self.topics), lambda *columns: predict_stance(model, *columns)
        )
        with atomic_path(self.output_path) as tmp:
            write_ranking(labelled, tmp)


@requires(ClassifyStance)
class WriteStanceRun(WriteRun):
    """A comparative run with each passage's stance in column 2."""


class StanceJudged(EvaluateRun):
    """A comparative run's evaluation: its stance macro-F1 beside relevance, where stance qrels are given (None for
    a run without stance, which has Q0 in column 2)."""

    stance_qrels = location(luigi.OptionalParameter(default=None, description="stance qrels"))

    def judgment_files(self) -> dict[str, str]:
        return {**self.qrels, **({STANCE_JUDGMENTS: self.stance_qrels} if self.stance_qrels else {})}

    def stance(self, run: list[RunLine], known: list[str]) -> StanceF1 | None:
        if not self.stance_qrels:
            return None
        judged = judged_topics(read_stance_qrels(self.stance_qrels), known, self.stance_qrels)
        return dataclasses.replace(evaluate_stance(run, judged), in_sample=self.in_sample(judged))

    def in_sample(self, judged: dict[str, dict[str, str]]) -> InSample | None:
        """Why the run's stance F1 against `judged` is in-sample, where a model trained on them labelled it."""
        return None


@inherits(WriteRanking)
class EvaluateComparativeRun(StanceJudged):
    """A comparative run without stance."""

    def run_task(self) -> WriteRun:
        return self.clone(WriteRanking)


@inherits(WriteStanceRun)
class EvaluateStanceRun(StanceJudged):
    """A comparative run with stance, and the report of the model that labelled it; its stance F1 is marked
    in-sample where the model's training sets hold the judged topics' object pairs or passages' texts."""

    def requires(self) -> dict[str, luigi.Task]:
        return {**super().requires(), "documents": IngestPassages(corpus=self.corpus)}

    def input_digests(self) -> list[str]:
        return [*super().input_digests(), *map(file_digest, self.stance_training)]

    def run_task(self) -> WriteRun:
        return self.clone(WriteStanceRun)

    def in_sample(self, judged: dict[str, dict[str, str]]) -> InSample | None:
        ids = {doc for docs in judged.values() for doc in docs}
        texts = texts_by_id(self.input()["documents"].path, ids, TEXT)
        examples = read_training_sets(self.stance_training)
        return stance_in_sample(examples, judged, objects_by_topic(self.topics), texts)

    def model_task(self) -> luigi.Task:
        return self.clone(ClassifyStance).model()


def run_task(section: ComparativeSection, spec: ComparativeRun) -> WriteRun:
    ranking = ranking_params(section, spec)
    if spec.stance:
        training = [str(file) for file in section.stance_training]
        return WriteStanceRun(**ranking, stance_training=training, stance_model=section.stance_model)
    return WriteRanking(**ranking)


def evaluation_task(run: WriteRun, section: ComparativeSection) -> EvaluateRun:
    stance_qrels = str(section.stance_qrels) if section.stance_qrels else None
    evaluator = EvaluateStanceRun if isinstance(run, WriteStanceRun) else EvaluateComparativeRun
    return run.clone(evaluator, **evaluation_params(section), stance_qrels=stance_qrels)


TASKS = TrackTasks(ingest=IngestPassages, run_task=run_task, evaluation_task=evaluation_task)
