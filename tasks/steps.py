"""A run's own re-ranking steps (`rerank:` in the runs file), each a cached stage, and which ranking the stages
after ranking read.

Step i's target is named by the run's ranking and steps 1 … i (use, depth, parameters, code version), so changing
one step recomputes it and the steps after it, nothing before. The steps' module files are locations: a moved runs
file finds its cache.
"""

from __future__ import annotations

import luigi
import pyarrow as pa
from luigi.util import inherits

from argrank.core.atomic import atomic_path
from argrank.formats.ranking_table import EXTENSION, read_ranking, write_ranking
from argrank.core.document_texts import texts_by_id
from argrank.core.model_file import QUALITY, load_model
from argrank.quality.model import MODEL_TYPES, predict_quality
from argrank.quality.rerank import Quality, step_scores
from argrank.retrieval.steps import GROUP, QUALITY_STEP, Step, checked_scores, reordered
from argrank.tracks.registry import track as registered
from tasks.base import CachedTask, location, optional
from tasks.model_folder import model_path
from tasks.quality import RerankQuality, TrainQualityModel
from tasks.rank import RankTopics
from tasks.step_calls import called, candidate_table, checked, loaded, topic_texts
from tasks.track_tasks import track_tasks


@inherits(RerankQuality)
class RerankStep(CachedTask):
    """A run's ranking after its re-ranking steps up to the last one `rerank` lists."""

    rerank = optional(luigi.ListParameter(default=[], description="the run's re-ranking steps up to this one"))
    rerank_sources = location(luigi.ListParameter(default=[], description='each step\'s module file, or ""'))
    tag = luigi.Parameter(default="", significant=False, description="the run's tag, for messages")

    stage = "rerank"
    extension = EXTENSION
    omitted_when_empty = ("quality",)

    def requires(self) -> dict[str, CachedTask]:
        if len(self.rerank) > 1:
            previous = self.clone(RerankStep, rerank=self.rerank[:-1], rerank_sources=self.rerank_sources[:-1])
        else:
            previous = self.clone(RerankQuality) if self.quality else self.clone(RankTopics)
        needs = {"ranking": previous, "documents": track_tasks(self.track).ingest(corpus=self.corpus)}
        if self.rerank[-1]["use"] == QUALITY_STEP:
            needs["model"] = TrainQualityModel(training=self.quality_training)
        return needs

    def run(self) -> None:
        step = Step(**{**self.rerank[-1], "params": dict(self.rerank[-1]["params"])}, source=self.rerank_sources[-1])
        where = f"run {self.tag or '?'}, rerank step {len(self.rerank)} ({step.use})"
        ranking = read_ranking(self.input()["ranking"].path)
        texts = topic_texts(self.track, self.query, self.topics)
        table = candidate_table(ranking, step.depth, texts, self.input()["documents"].path, self.fields)
        if step.use == QUALITY_STEP:
            scores = step_scores(table, self._quality(table), step.params)
        else:
            returned = called(loaded(step, GROUP, where), step, where, table, **step.params)
            scores = checked(lambda: checked_scores(returned, table.num_rows), step, where)
        with atomic_path(self.output_path) as tmp:
            write_ranking(reordered(ranking, step.depth, scores), tmp)


    def _quality(self, table: pa.Table) -> Quality:
        """The quality model's predictions for the candidates, from the texts it judges (the track's quality
        text)."""
        ids = sorted(set(table.column("doc").to_pylist()))
        texts = texts_by_id(self.input()["documents"].path, set(ids), registered(self.track).quality_text)
        model = load_model(model_path(self.input()["model"].path), MODEL_TYPES, QUALITY)
        return Quality.of(ids, predict_quality(model, [texts[doc] for doc in ids]))


class RankedRun:
    """For the stages after a run's ranking (its writer, its stance): which ranking they read, the last step's."""

    omitted_when_empty = ("quality",)

    def ranking_task(self) -> CachedTask:
        if self.rerank:
            return self.clone(RerankStep)
        return self.clone(RerankQuality) if self.quality else self.clone(RankTopics)
