"""Stance: train a track's classifier once per training set and settings; label every ranked passage (Task 2).

Images get their stance where their lists are chosen (tasks.images); their model is trained here too.
"""

from __future__ import annotations

import luigi
import pyarrow.parquet as pq
from luigi.util import inherits

from argrank.core.atomic import atomic_path
from argrank.core.document_texts import texts_by_id
from argrank.core.errors import InputError
from argrank.core.fingerprint import file_digest
from argrank.core.model_file import FORMAT, STANCE, load_model
from argrank.formats.topics import read_topics
from argrank.tracks.comparative.objects import objects_by_topic
from argrank.tracks.comparative.passages import TEXT
from argrank.tracks.comparative.ranked_stance import classify_ranking
from argrank.tracks.comparative.stance_data import read_training_sets
from argrank.tracks.images.qrels import read_image_training
from argrank.tracks.images.stance import train_image_stance, training_examples
from argrank.tracks.images.texts import stance_texts
from tasks.base import CachedTask, log
from tasks.ingest import INGESTS
from tasks.model_folder import model_path, save_model_folder
from tasks.quality import RankedRun, RerankQuality

# argrank.tracks.comparative.stance_model is imported in the tasks that use it: it imports scikit-learn, about a
# second that every start of the graph would otherwise pay, stance or not.

# The model file's format (core.model_file) enters the models' signatures: a new format retrains, rather than
# finding a cached file it would refuse to load.


class TrainStanceModel(CachedTask):
    """Fits the model on the whole training set and keeps its cross-validated scores beside it."""

    training = luigi.ListParameter(
        description="stance training files: the task's TSV, CompSent-19's CSV (told apart by their header) or .jsonl"
    )
    c = luigi.FloatParameter(default=0.3, description="inverse regularisation strength")
    folds = luigi.IntParameter(default=5, description="cross-validation folds")

    track = "comparative"
    stage = "stance-model"
    location_params = ("training",)

    def input_digests(self) -> list[str]:
        return [*map(file_digest, self.training), FORMAT]

    def run(self) -> None:
        from argrank.tracks.comparative.stance_model import train_stance_model

        examples = read_training_sets(self.training)
        try:
            model, report = train_stance_model(examples, c=self.c, folds=self.folds)
        except ValueError as error:
            raise InputError(", ".join(self.training), "", f"cannot train the stance model: {error}") from None
        log_report(report)
        save_model_folder(self.output_path, model, report, STANCE)


class TrainImageStance(CachedTask):
    """Fits the image stance model on judged images (`training-qrels.txt`), their texts and their topics' titles."""

    training = luigi.Parameter(description="training qrels: topic PRO|CON imageId rating")
    corpus = luigi.Parameter(description="the image collection folder")
    topics = luigi.Parameter(description="topics file naming the training topics")
    c = luigi.FloatParameter(default=1.0, description="inverse regularisation strength")
    folds = luigi.IntParameter(default=5, description="cross-validation folds")

    track = "images"
    stage = "stance-model"
    location_params = ("training", "corpus", "topics")

    def requires(self) -> luigi.Task:
        return INGESTS[self.track](corpus=self.corpus)

    def input_digests(self) -> list[str]:
        return [file_digest(self.training), file_digest(self.topics), FORMAT]

    def run(self) -> None:
        judged = read_image_training(self.training)
        texts = stance_texts(self.input().path, {image for _, image in judged})
        titles = {topic.number: topic.title for topic in read_topics(self.topics)}
        *examples, skipped = training_examples(judged, texts, titles)
        for reason, count in sorted(skipped.items()):
            log.warning("image stance training: skipped %d judged pairs: %s", count, reason)
        try:
            model, report = train_image_stance(*examples, c=self.c, folds=self.folds)
        except ValueError as error:
            raise InputError(self.training, "", f"cannot train the image stance model: {error}") from None
        log_report(report)
        save_model_folder(self.output_path, model, {**report, "skipped": dict(sorted(skipped.items()))}, STANCE)


def log_report(report: dict) -> None:
    log.info(
        "stance classifier: cross-validated macro-F1 %.4f on %d examples", report["cv_macro_f1"], report["examples"]
    )


@inherits(RerankQuality)
class ClassifyStance(RankedRun, CachedTask):
    stance_training = luigi.ListParameter(description="stance training files")
    stance_model = luigi.DictParameter(default={}, description='classifier settings, e.g. {"c": 1.0, "folds": 5}')

    stage = "stance"
    extension = ".parquet"
    location_params = ("corpus", "topics", "stance_training", "quality_training")

    def requires(self) -> dict[str, luigi.Task]:
        return {
            "ranking": self.ranking_task(),
            "model": self.model(),
            "documents": INGESTS[self.track](corpus=self.corpus),
        }

    def model(self) -> TrainStanceModel:
        """The one model all stance runs with this training set and these settings share."""
        return TrainStanceModel(training=self.stance_training, **self.stance_model)

    def input_digests(self) -> list[str]:
        return [file_digest(self.topics)]

    def run(self) -> None:
        from argrank.tracks.comparative.stance_model import MODEL_TYPES, predict_stance

        ranking = pq.read_table(self.input()["ranking"].path)
        texts = texts_by_id(self.input()["documents"].path, set(ranking.column("doc").to_pylist()), TEXT)
        model = load_model(model_path(self.input()["model"].path), MODEL_TYPES)
        labelled = classify_ranking(
            ranking, texts, objects_by_topic(self.topics), lambda *columns: predict_stance(model, *columns)
        )
        with atomic_path(self.output_path) as tmp:
            pq.write_table(labelled, tmp)
