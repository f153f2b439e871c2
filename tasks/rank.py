"""Rank: each topic's top documents under one retrieval model; sharded, each shard's top documents, scored with
the whole collection's statistics (MergeStatistics) and merged.

The topics' query terms are a stage of their own (AnalyzeTopics), so changing a ranking parameter re-runs only the
scoring.
"""

from __future__ import annotations

import luigi
import pyarrow as pa
from luigi.util import inherits

from argrank.core.atomic import atomic_path
from argrank.core.fingerprint import file_digest
from argrank.core.parquet_file import read_parquet, write_parquet
from argrank.formats.ranking_table import EXTENSION, read_ranking, write_ranking
from argrank.formats.topics import read_topics
from argrank.index.statistics import load_statistics, merge_statistics, save_statistics
from argrank.index.store import load_index
from argrank.retrieval.expansion import EXPANDERS, collection_of, expand_queries, feedback_rows, term_counts
from argrank.retrieval.merge import merge_rankings
from argrank.retrieval.queries import analyze_topics
from argrank.retrieval.registry import make_ranker, models
from argrank.retrieval.rewriting import rewritten, topics_table
from argrank.retrieval.search import rank_queries
from argrank.retrieval.steps import FEEDBACK, REWRITERS, Step
from argrank.text.analysis_fingerprint import analysis_fingerprint
from argrank.text.multilingual import make_analyzer
from argrank.tracks.registry import track as registered
from tasks.base import CachedTask, Settings, location, log, optional
from tasks.index import BuildIndex
from tasks.step_calls import called, candidate_table, checked, loaded, topic_texts
from tasks.tokenize import CorpusTask, ShardTask, TokenizeDocuments
from tasks.track_tasks import track_tasks


class AnalyzeTopics(CachedTask):
    """Each topic's query terms under one query formulation, analysed as the track's documents are."""

    track = luigi.Parameter(description="whose topics")
    topics = location(luigi.Parameter(description="topics XML file"))
    language = luigi.Parameter(default="en", description="the analyzer's language(s), as the documents'")
    query = luigi.Parameter(default="title", description="a query formulation of the track (title, …)")

    stage = "queries"
    extension = ".parquet"

    def input_digests(self) -> list[str]:
        return [file_digest(self.topics), analysis_fingerprint(self.language)]

    def run(self) -> None:
        formulation = registered(self.track).queries[self.query]
        table = analyze_topics(make_analyzer(self.language), read_topics(self.topics), formulation)
        with atomic_path(self.output_path) as tmp:
            write_parquet(table, tmp)


class RankTopics(CorpusTask):
    """The ranking a run is written from. Unsharded, it scores the one index; with shards it merges the shards'
    rankings (RankShard) into exactly the table the unsharded index gives."""

    topics = location(luigi.Parameter(description="topics XML file"))
    method = luigi.ChoiceParameter(default="bm25", choices=list(models()), description="a registered ranking model")
    params = luigi.DictParameter(default={}, description="the method's parameters, e.g. {\"k1\": 1.2}")
    query = luigi.Parameter(default="title", description="a query formulation of the track (title, …)")
    depth = luigi.IntParameter(default=1000, description="documents per topic")
    expand = optional(luigi.ListParameter(default=[], description="the run's query expansion steps: [{use, params}]"))
    expand_sources = location(luigi.ListParameter(default=[], description='each expansion step\'s module file, or ""'))
    tag = luigi.Parameter(default="", significant=False, description="the run's tag, for messages")

    stage = "rank"
    extension = EXTENSION

    def requires(self) -> dict[str, CachedTask] | list[CachedTask]:
        if self.shards == 1:
            queries = self.clone(ExpandQueries) if self.expand else self.clone(AnalyzeTopics)
            return {"index": self.clone(BuildIndex), "queries": queries}
        return [self.clone(RankShard, shard=shard) for shard in range(self.shards)]

    def input_digests(self) -> list[str]:
        return [file_digest(self.topics)]

    def run(self) -> None:
        if self.shards == 1:
            index = load_index(self.input()["index"].path)
            ranker = make_ranker(index, self.method, dict(self.params), kernels=Settings().kernels)
            table = rank_queries(index, read_parquet(self.input()["queries"].path), ranker, self.depth)
        else:
            rankings = (read_ranking(target.path) for target in self.input())
            table = merge_rankings(rankings, [topic.number for topic in read_topics(self.topics)], self.depth)
        with atomic_path(self.output_path) as tmp:
            write_ranking(table, tmp)


@inherits(RankTopics)
class ExpandQueries(CorpusTask):
    """A run's queries after its expansion steps up to the last one `expand` lists: rm3 or bo1 from the feedback of
    the ranking before it (retrieval.expansion), or a researcher's query rewriter (retrieval.rewriting): weighted
    terms, which RankTopics then ranks with."""

    stage = "expanded-queries"
    extension = ".parquet"

    def requires(self) -> dict[str, CachedTask]:
        *before, step = self.expand
        earlier = {"expand": before, "expand_sources": self.expand_sources[: len(before)]}
        needs = {"queries": self.clone(ExpandQueries, **earlier) if before else self.clone(AnalyzeTopics)}
        if step["use"] in EXPANDERS:
            needs.update(tokens=self.clone(TokenizeDocuments), index=self.clone(BuildIndex))
        if step["use"] in EXPANDERS or step.get("feedback"):
            needs["ranking"] = self.clone(RankTopics, **earlier)
        if step.get("feedback"):
            needs["documents"] = track_tasks(self.track).ingest(corpus=self.corpus)
        return needs

    def run(self) -> None:
        step = self.expand[-1]
        queries = read_parquet(self.input()["queries"].path)
        if step["use"] in EXPANDERS:
            table = self._expanded(queries, step["use"], step["params"])
        else:
            table = self._rewritten(queries, Step(**{**step, "params": dict(step["params"])},
                                                  source=self.expand_sources[-1]))  # fmt: skip
        with atomic_path(self.output_path) as tmp:
            write_parquet(table, tmp)

    def _expanded(self, queries: pa.Table, use: str, params: dict) -> pa.Table:
        ranking = read_ranking(self.input()["ranking"].path)
        settings = {**EXPANDERS[use].defaults, **params}
        feedback = feedback_rows(ranking, settings["fb_docs"]).column("doc").to_pylist()
        counts = term_counts(self.input()["tokens"].path, set(feedback))
        index = load_index(self.input()["index"].path)
        return expand_queries(queries, ranking, counts, collection_of(index), use, settings)

    def _rewritten(self, queries: pa.Table, step: Step) -> pa.Table:
        where = f"run {self.tag or '?'}, expand step {len(self.expand)} ({step.use})"
        function = loaded(step, REWRITERS, where)
        texts = topic_texts(self.track, self.query, self.topics)
        topics = topics_table(queries, texts)
        keywords = dict(step.params)
        if step.feedback:
            ranking = read_ranking(self.input()["ranking"].path)
            keywords[FEEDBACK] = candidate_table(ranking, step.depth, texts, self.input()["documents"].path,
                                                 self.fields)  # fmt: skip
        returned = called(function, step, where, topics, **keywords)
        analyzer = make_analyzer(self.language)
        return checked(lambda: rewritten(returned, topics, analyzer.analyze), step, where)


class MergeStatistics(CorpusTask):
    """The whole collection's statistics from every shard's index: document count, total length and, per term in
    the unsharded index's order, document and collection frequency. Each shard is ranked with them, so its
    scores are the unsharded index's. Small: it reads the shard indexes one at a time."""

    stage = "statistics"
    extension = ".parquet"

    def requires(self) -> list[CachedTask]:
        return [self.clone(BuildIndex, shard=shard) for shard in range(self.shards)]

    def run(self) -> None:
        statistics = merge_statistics(load_index(target.path) for target in self.input())
        log.info(
            "statistics of %d shards: %d documents, %d terms",
            self.shards, statistics.num_docs, len(statistics.terms),
        )  # fmt: skip
        save_statistics(statistics, self.output_path)


@inherits(RankTopics)  # the ranking settings; the corpus and shard parameters come from ShardTask
class RankShard(ShardTask):
    """One shard's top `depth` per topic, scored with the whole collection's statistics, so the scores are those
    the unsharded index gives its documents and the merged top `depth` is the unsharded one."""

    stage = "rank-shard"
    extension = EXTENSION

    def requires(self) -> dict[str, CachedTask]:
        return {
            "index": self.clone(BuildIndex),
            "statistics": self.clone(MergeStatistics),
            "queries": self.clone(AnalyzeTopics),
        }

    def run(self) -> None:
        index = load_index(self.input()["index"].path)
        statistics = load_statistics(self.input()["statistics"].path)
        ranker = make_ranker(index, self.method, dict(self.params), statistics, kernels=Settings().kernels)
        queries = read_parquet(self.input()["queries"].path)
        table = rank_queries(index, queries, ranker, self.depth, warn_unmatched=False)
        with atomic_path(self.output_path) as tmp:
            write_ranking(table, tmp)
