"""The images track's tasks: the collection's ingest, the image stance model, the choice of each topic's 10 PRO and
10 CON images from its text ranking, and the run and evaluation of those lists."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import luigi
from luigi.util import inherits, requires

from argrank.core.atomic import atomic_path
from argrank.core.errors import InputError
from argrank.core.fingerprint import file_digest
from argrank.core.model_file import FORMAT, STANCE, load_model
from argrank.core.parquet_file import read_parquet
from argrank.core.table_writer import IngestStats
from argrank.evaluation.results import TopicScores
from argrank.formats.ranking_table import EXTENSION, read_ranking, write_ranking
from argrank.formats.runfile import RunLine
from argrank.formats.topics import read_topics
from argrank.tracks.images.collection import ingest_images
from argrank.tracks.images.location import collection_digest, collection_root
from argrank.tracks.images.qrels import read_image_training
from argrank.tracks.images.selection import candidates, searches_by_topic, select_images
from argrank.tracks.images.stance import MODEL_TYPES, pro_probability, train_image_stance, training_examples
from argrank.tracks.images.stance_in_sample import image_stance_in_sample
from argrank.tracks.images.texts import stance_texts
from argrank.tracks.images.track import NEAR_DUPLICATE_BITS, ImageRun, ImageSection
from argrank.tracks.stance_settings import STANCE_MODEL_DEFAULTS
from tasks.base import CachedTask, location, log
from tasks.evaluate import EvaluateRun, evaluation_params
from tasks.ingest import IngestTask
from tasks.model_folder import log_stance_report, model_path, save_model_folder
from tasks.rank import RankTopics
from tasks.runs import WriteRun, ranking_params
from tasks.track_tasks import TrackTasks


class IngestImages(IngestTask):
    """The image collection's folder tree: one row per image with its texts, searches, hash and size."""

    track = "images"
    documents = "images"

    def digest(self) -> str:
        return collection_digest(collection_root(self.corpus))

    def ingest(self, out_path: Path) -> IngestStats:
        return ingest_images(self.corpus, out_path)


class ImageStanceSettings(luigi.Task):
    """The image stance model's parameters, declared once for the stages that train or use it."""

    stance_training = location(luigi.OptionalParameter(
        default=None, description="judged images `topic PRO|CON image rating`; none: the untrained cue-word scorer"
    ))  # fmt: skip
    stance_model = luigi.DictParameter(default=STANCE_MODEL_DEFAULTS, description="stance classifier settings")


class TrainImageStance(ImageStanceSettings, CachedTask):
    """Fits the image stance model on judged images, their texts and their topics' titles."""

    corpus = location(luigi.Parameter(description="the image collection folder"))
    topics = location(luigi.Parameter(description="topics file naming the training topics"))

    track = "images"
    stage = "stance-model"

    def requires(self) -> luigi.Task:
        return IngestImages(corpus=self.corpus)

    def input_digests(self) -> list[str]:
        return [file_digest(self.stance_training), file_digest(self.topics), FORMAT]

    def run(self) -> None:
        judged = read_image_training(self.stance_training)
        texts = stance_texts(self.input().path, {image for _, image in judged})
        titles = {topic.number: topic.title for topic in read_topics(self.topics)}
        *examples, skipped = training_examples(judged, texts, titles)
        for reason, count in sorted(skipped.items()):
            log.warning("image stance training: skipped %d judged pairs: %s", count, reason)
        settings = {**STANCE_MODEL_DEFAULTS, **self.stance_model}
        try:
            model, report = train_image_stance(*examples, c=settings["c"], folds=settings["folds"])
        except ValueError as error:
            raise InputError(self.stance_training, "", f"cannot train the image stance model: {error}") from None
        log_stance_report(report)
        save_model_folder(self.output_path, model, {**report, "skipped": dict(sorted(skipped.items()))}, STANCE)


@inherits(RankTopics)
class SelectImages(ImageStanceSettings, CachedTask):
    """Each topic's 10 PRO and 10 CON images from its text ranking, the searches that found them and their stance."""

    found_weight = luigi.FloatParameter(default=0.0, description='weight of "a search for the topic found it"')
    near_duplicate_bits = luigi.IntParameter(
        default=NEAR_DUPLICATE_BITS, description="hashes fewer bits apart are near-duplicates"
    )

    stage = "selection"
    extension = EXTENSION

    def requires(self) -> dict[str, luigi.Task]:
        needs = {"ranking": self.clone(RankTopics), "documents": IngestImages(corpus=self.corpus)}
        if self.stance_training:
            needs["model"] = self.model()
        return needs

    def model(self) -> TrainImageStance:
        """The one model all trained runs on this collection, topics and training qrels share."""
        return self.clone(TrainImageStance)

    def input_digests(self) -> list[str]:
        return [file_digest(self.topics)]

    def run(self) -> None:
        topics = {topic.number: topic.title for topic in read_topics(self.topics)}
        documents = read_parquet(self.input()["documents"].path, columns=["id", "phash", "rankings"])
        found = searches_by_topic(documents["id"].to_pylist(), documents["rankings"].to_pylist(), topics)
        ranking = read_ranking(self.input()["ranking"].path).to_pydict()
        pool = candidates(zip(ranking["qid"], ranking["doc"], ranking["score"]), found, topics)
        wanted = {doc for topic in pool for doc in topic.docs}
        hashes = {
            doc: phash
            for doc, phash in zip(documents["id"].to_pylist(), documents["phash"].to_pylist())
            if doc in wanted
        }
        texts = stance_texts(self.input()["documents"].path, wanted)
        if "model" in self.input():
            model = load_model(model_path(self.input()["model"].path), MODEL_TYPES)
        else:
            model = None
            log.info("image stance: no training set for this run, so the untrained cue-word scorer decides")

        def probability(qid: str, docs: list[str]):
            return pro_probability(model, [texts[doc] for doc in docs], [topics[qid]] * len(docs))

        table = select_images(pool, found, hashes, probability, self.found_weight, self.near_duplicate_bits)
        with atomic_path(self.output_path) as tmp:
            write_ranking(table, tmp)


@requires(SelectImages)
class WriteImageRun(WriteRun):
    """An images run: 10 PRO and 10 CON images per topic, the length the track's rules fix."""

    def max_per_topic(self) -> None:
        return None


@inherits(WriteImageRun)
class EvaluateImageRun(EvaluateRun):
    """On-topic, argumentative and on-stance precision of an images run's 10 PRO and 10 CON images; on-stance
    marked in-sample over topics the stance model was trained on."""

    def run_task(self) -> WriteRun:
        return self.clone(WriteImageRun)

    def model_task(self) -> luigi.Task | None:
        return self.clone(SelectImages).model() if self.stance_training else None

    def input_digests(self) -> list[str]:
        return [*super().input_digests(), *([file_digest(self.stance_training)] if self.stance_training else [])]

    def score(self, run: list[RunLine], qrels: str, known: list[str]) -> TopicScores:
        result = super().score(run, qrels, known)
        if not self.stance_training:
            return result
        trained = {topic for topic, _ in read_image_training(self.stance_training)}
        return dataclasses.replace(result, in_sample=image_stance_in_sample(trained, result.per_topic))


def run_task(section: ImageSection, spec: ImageRun) -> WriteRun:
    selection = {"found_weight": spec.found_weight, "near_duplicate_bits": section.near_duplicate_bits}
    # Without training qrels (an image collection brought none) a stance run falls back to untrained stance.
    if spec.stance and section.stance_training:
        selection.update(stance_training=str(section.stance_training), stance_model=section.stance_model)
    return WriteImageRun(**ranking_params(section, spec), **selection)


def evaluation_task(run: WriteRun, section: ImageSection) -> EvaluateRun:
    return run.clone(EvaluateImageRun, **evaluation_params(section))


TASKS = TrackTasks(ingest=IngestImages, run_task=run_task, evaluation_task=evaluation_task)
