"""A run's own re-ranking steps (`rerank:` in the runs file), each a cached stage, and which ranking the stages
after ranking read.

Step i's target is named by the run's ranking and steps 1 … i (use, depth, parameters, code version), so changing
one step recomputes it and the steps after it, nothing before. The steps' module files are locations: a moved runs
file finds its cache.
"""

from __future__ import annotations

import json
from typing import Any

import luigi
import numpy as np
import pyarrow as pa
from luigi.util import inherits

from argrank.core.atomic import atomic_path
from argrank.core.document_texts import texts_by_id
from argrank.core.errors import InputError
from argrank.core.fingerprint import file_digest
from argrank.core.model_file import QUALITY, load_model
from argrank.evaluation.fusion import fuse
from argrank.formats.qrels import read_qrels
from argrank.formats.ranking_table import EXTENSION, read_ranking, write_ranking
from argrank.index.store import load_index
from argrank.quality.ltr import feature_matrix, feature_names, grade_problem, judgments, ranker_scores, train_ranker
from argrank.quality.model import MODEL_TYPES, predict_quality
from argrank.quality.rerank import Quality, step_scores
from argrank.retrieval.steps import GROUP, LTR_STEP, QUALITY_STEP, Step, checked_scores, reordered
from argrank.text.multilingual import make_analyzer
from argrank.tracks.registry import track as registered
from tasks.base import CachedTask, location, log, optional
from tasks.index import BuildIndex
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
    ltr_topics = location(luigi.Parameter(default="", description="the ltr step's training topics"))
    ltr_qrels = location(luigi.Parameter(default="", description="the ltr step's training judgments"))

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
        if self.rerank[-1]["use"] == LTR_STEP:
            step = self.rerank[-1]
            needs["ltr"] = self.clone(TrainLearnedRanker, ltr={"depth": step["depth"], "params": step["params"]},
                                      rerank=[], rerank_sources=[], quality={}, expand=[], expand_sources=[])
            needs["index"] = self.clone(BuildIndex)
            if self.quality_training:
                needs["model"] = TrainQualityModel(training=self.quality_training)
        return needs

    def run(self) -> None:
        step = Step(**{**self.rerank[-1], "params": dict(self.rerank[-1]["params"])}, source=self.rerank_sources[-1])
        where = f"run {self.tag or '?'}, rerank step {len(self.rerank)} ({step.use})"
        ranking = read_ranking(self.input()["ranking"].path)
        texts = topic_texts(self.track, self.query, self.topics)
        table = candidate_table(ranking, step.depth, texts, self.input()["documents"].path, self.fields)
        if step.use == QUALITY_STEP:
            scores = step_scores(table, _quality(self, table), step.params)
        elif step.use == LTR_STEP:
            with open(self.input()["ltr"].path, encoding="utf-8") as model:
                trained = json.load(model)
            if trained["features"] != feature_names(list(self.fields), bool(self.quality_training)):
                raise InputError(self.input()["ltr"].path, where, "its model has other features: delete it to retrain")
            scores = ranker_scores(trained["model"], _features(self, table))
        else:
            returned = called(loaded(step, GROUP, where), step, where, table, **step.params)
            scores = checked(lambda: checked_scores(returned, table.num_rows), step, where)
        with atomic_path(self.output_path) as tmp:
            write_ranking(reordered(ranking, step.depth, scores), tmp)


@inherits(RerankStep)
class TrainLearnedRanker(CachedTask):
    """The ltr step's LambdaMART model (quality.ltr), learnt from the top `depth` of the run's first ranking of the
    training topics (`ltr_topics`, judged in `ltr_qrels`). Its target is named by those alone, so runs of other
    topics share it: that none of them ranks a training topic is checked where the graph is built
    (config.check_training_held_out), which no cached model skips."""

    ltr = luigi.DictParameter(description="the step's depth and LambdaMART parameters")

    stage = "ltr-model"
    extension = ".json"
    omitted_when_empty = ("quality",)

    def requires(self) -> dict[str, CachedTask]:
        needs = {
            "ranking": self.clone(RankTopics, topics=self.ltr_topics, expand=[], expand_sources=[]),
            "documents": track_tasks(self.track).ingest(corpus=self.corpus),
            "index": self.clone(BuildIndex),
        }
        if self.quality_training:
            needs["model"] = TrainQualityModel(training=self.quality_training)
        return needs

    def input_digests(self) -> list[str]:
        """The judgments and topics learnt from, and the features' names: a model of other features is retrained,
        not loaded and refused."""
        features = ",".join(feature_names(list(self.fields), bool(self.quality_training)))
        return [file_digest(self.ltr_qrels), file_digest(self.ltr_topics), f"ltr-features:{features}"]

    def run(self) -> None:
        qrels = read_qrels(self.ltr_qrels)
        problem = grade_problem(qrels)
        if problem:
            raise InputError(self.ltr_qrels, "", problem)
        depth = int(self.ltr["depth"])
        ranking = read_ranking(self.input()["ranking"].path)
        texts = topic_texts(self.track, self.query, self.ltr_topics)
        table = candidate_table(ranking, depth, texts, self.input()["documents"].path, self.fields)
        labels, groups = judgments(table, {topic: {d: int(v) for d, v in by_doc.items()}
                                           for topic, by_doc in qrels.items()})  # fmt: skip
        if not any(label > 0 for label in labels):
            raise InputError(self.ltr_qrels, "", "no candidate of the training topics is judged relevant")
        names = feature_names(list(self.fields), bool(self.quality_training))
        model = train_ranker(_features(self, table), labels, groups, names, dict(self.ltr["params"]))
        log.info("ltr: trained on %d candidates of %d topics", table.num_rows, len(groups))
        with atomic_path(self.output_path) as tmp:
            tmp.write_text(json.dumps({"features": names, "model": model}), encoding="utf-8")


def _quality(task: RerankStep | TrainLearnedRanker, table: pa.Table) -> Quality:
    """The quality model's predictions for the candidates, from the texts it judges (the track's quality text)."""
    ids = sorted(set(table.column("doc").to_pylist()))
    texts = texts_by_id(task.input()["documents"].path, set(ids), registered(task.track).quality_text)
    model = load_model(model_path(task.input()["model"].path), MODEL_TYPES, QUALITY)
    return Quality.of(ids, predict_quality(model, [texts[doc] for doc in ids]))


def _features(task: RerankStep | TrainLearnedRanker, table: pa.Table) -> np.ndarray:
    """The ltr step's features of the candidates (quality.ltr), the quality model's where the track has one."""
    analyzer = make_analyzer(task.language)
    queries = zip(table.column("topic").to_pylist(), table.column("query").to_pylist())
    terms = {topic: analyzer.analyze(query) for topic, query in queries}
    quality = _quality(task, table) if task.quality_training else None
    return feature_matrix(table, terms, load_index(task.input()["index"].path), analyzer.analyze_many,
                          list(task.fields), quality)  # fmt: skip


def ranking_task_for(params: dict[str, Any]) -> CachedTask:
    """The ranking a run with these parameters (tasks.runs.ranking_params) is written from: its last step's."""
    kind = RerankStep if params.get("rerank") else RerankQuality if params.get("quality") else RankTopics
    names = set(kind.get_param_names())
    return kind(**{name: value for name, value in params.items() if name in names})


class FuseRankings(CachedTask):
    """A fusion run's ranking: the rankings of the runs it names fused (evaluation.fusion). The members' parameters
    are a location: their rankings' signatures name the target, not where their files lie."""

    track = luigi.Parameter(description="whose runs")
    members = location(luigi.ListParameter(description="each fused run's ranking parameters"))
    fusion = luigi.DictParameter(description="{method, norm, params}")
    depth = luigi.IntParameter(default=1000, description="documents per topic")

    stage = "fusion"
    extension = EXTENSION

    def requires(self) -> list[CachedTask]:
        return [ranking_task_for(dict(member)) for member in self.members]

    def run(self) -> None:
        runs = [_ranked(read_ranking(target.path)) for target in self.input()]
        fused = fuse(runs, self.fusion["method"], self.fusion["norm"], dict(self.fusion["params"]), self.depth)
        rows = [(topic, doc, rank, score) for topic, docs in fused.items()
                for rank, (doc, score) in enumerate(docs, start=1)]  # fmt: skip
        table = pa.table({name: [row[i] for row in rows] for i, name in enumerate(("qid", "doc", "rank", "score"))},
                         schema=read_ranking(self.input()[0].path).schema)  # fmt: skip
        with atomic_path(self.output_path) as tmp:
            write_ranking(table, tmp)


def _ranked(table: pa.Table) -> dict[str, list[tuple[str, float]]]:
    """A ranking table as evaluation.fusion's runs: each topic's documents, best first, ties by document id."""
    topics: dict[str, list[tuple[str, float]]] = {}
    for topic, doc, score in zip(*(table.column(name).to_pylist() for name in ("qid", "doc", "score"))):
        topics.setdefault(topic, []).append((doc, score))
    return {topic: sorted(docs, key=lambda pair: (-pair[1], pair[0])) for topic, docs in topics.items()}


class RankedRun:
    """For the stages after a run's ranking (its writer, its stance): which ranking they read, the last step's."""

    omitted_when_empty = ("quality",)

    def ranking_task(self) -> CachedTask:
        if self.rerank:
            return self.clone(RerankStep)
        return self.clone(RerankQuality) if self.quality else self.clone(RankTopics)
