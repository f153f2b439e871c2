"""Quality: train the argument-quality model once per training set, and re-rank a run's top by it (args and
comparative runs that name `quality` settings).

A run's writer (and, for Task 2, its stance stage) reads the ranking through `ranking_task` (tasks.steps): the
re-ranked one where the run has quality settings, else RankTopics' own, and after it the run's own steps. The settings are left out of the targets' names and
signatures while empty (CachedTask.omitted_when_empty), so runs without them keep their cache.
"""

from __future__ import annotations

import luigi
import pyarrow.compute as pc
from luigi.util import inherits

from argrank.core.atomic import atomic_path
from argrank.core.document_texts import texts_by_id
from argrank.core.errors import InputError
from argrank.core.fingerprint import file_digest
from argrank.core.model_file import QUALITY, format_name, load_model
from argrank.formats.ranking_table import EXTENSION, read_ranking, write_ranking
from argrank.quality.benchmark import correlations, topic_held_out
from argrank.quality.data import read_quality_set
from argrank.quality.model import MODEL_TYPES, predict_quality, train_quality_model
from argrank.quality.rerank import Quality, rerank
from argrank.quality.settings import DEFAULTS
from argrank.tracks.registry import track as registered
from tasks.base import CachedTask, location, log
from tasks.model_folder import model_path, save_model_folder
from tasks.rank import RankTopics
from tasks.track_tasks import track_tasks

# Two of the stages' modules are imported where used, as most runs of the graph neither train nor re-rank:
# argrank.quality.benchmark (BM25's kernels and scipy) and core.document_texts (pyarrow.compute).


class TrainQualityModel(CachedTask):
    """The quality model fitted on a Webis-ArgQuality-20-format file, with its topic-held-out correlations."""

    training = location(
        luigi.Parameter(description="quality training set: Webis-ArgQuality-20's CSV, or one in its format")
    )

    track = "quality"
    stage = "quality-model"

    def input_digests(self) -> list[str]:
        return [file_digest(self.training), format_name(QUALITY)]

    def run(self) -> None:
        examples = read_quality_set(self.training)
        try:
            model = train_quality_model(examples)
        except ValueError as error:
            raise InputError(self.training, "", f"cannot train the quality model: {error}") from None
        topics = len(set(examples.topics.tolist()))
        report = {"examples": len(examples), "arguments": int(examples.is_argument.sum()), "topics": topics}
        if topics > 1:  # held-out figures need a topic to hold out and one to learn from
            figures = correlations(examples, topic_held_out(examples).quality)
            report.update({k: figures[k] for k in ("spearman", "kendall", "length_spearman", "length_kendall")})
            log.info(
                "quality model: topic-held-out Spearman %.4f (length %.4f) on %d premises",
                report["spearman"], report["length_spearman"], len(examples),
            )  # fmt: skip
        save_model_folder(self.output_path, model, report, QUALITY)


@inherits(RankTopics)
class RerankQuality(CachedTask):
    """A run's ranking with each topic's top re-scored by retrieval score and predicted quality."""

    quality_training = location(luigi.Parameter(default="", description="the quality model's training set"))
    quality = luigi.DictParameter(
        default={}, description=f"re-ranking settings ({', '.join(DEFAULTS)}); none: the ranking as it is"
    )

    stage = "quality-rerank"
    extension = EXTENSION

    def requires(self) -> dict[str, luigi.Task]:
        return {
            "ranking": self.clone(RankTopics),
            "model": TrainQualityModel(training=self.quality_training),
            "documents": track_tasks(self.track).ingest(corpus=self.corpus),
        }

    def run(self) -> None:
        settings = {**DEFAULTS, **self.quality}
        ranking = read_ranking(self.input()["ranking"].path)
        top = ranking.filter(pc.less_equal(ranking.column("rank"), int(settings["depth"])))
        ids = sorted(set(top.column("doc").to_pylist()))
        texts = texts_by_id(self.input()["documents"].path, set(ids), registered(self.track).quality_text)
        model = load_model(model_path(self.input()["model"].path), MODEL_TYPES, QUALITY)
        predicted = predict_quality(model, [texts[doc] for doc in ids])
        with atomic_path(self.output_path) as tmp:
            write_ranking(rerank(ranking, Quality.of(ids, predicted), settings), tmp)
