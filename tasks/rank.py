"""Rank: each topic's top documents under one retrieval model; sharded, each shard's top documents, merged.

The topics' query terms are a stage of their own (AnalyzeTopics), so a ranking loads no analyzer: changing a
ranking parameter re-runs only the scoring. The modules only the analysis and the merge of shards use are imported
where they run (the topics' reader, the analyzers, the merge: some 5 ms of a re-run after a change of k1).
"""

from __future__ import annotations

import luigi
import pyarrow.parquet as pq

from argrank.core.atomic import atomic_path
from argrank.core.fingerprint import file_digest
from argrank.core.parquet_file import read_parquet
from argrank.formats.ranking_table import EXTENSION, read_ranking, write_ranking
from argrank.index.store import load_index
from argrank.retrieval.registry import make_ranker, models
from argrank.retrieval.search import rank_queries
from argrank.text.analysis_fingerprint import analysis_fingerprint
from argrank.tracks.registry import track as registered
from tasks.base import CachedTask, location
from tasks.index import BuildIndex
from tasks.tokenize import CorpusTask


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
        from argrank.formats.topics import read_topics
        from argrank.retrieval.queries import analyze_topics
        from argrank.text.multilingual import make_analyzer

        formulation = registered(self.track).queries[self.query]
        table = analyze_topics(make_analyzer(self.language), read_topics(self.topics), formulation)
        with atomic_path(self.output_path) as tmp:
            pq.write_table(table, tmp)


class RankTopics(CorpusTask):
    """The ranking a run is written from. Unsharded, it scores the one index; with shards it merges the shards'
    rankings (RankShard) into exactly the table the unsharded index gives."""

    topics = location(luigi.Parameter(description="topics XML file"))
    method = luigi.ChoiceParameter(default="bm25", choices=list(models()), description="a registered ranking model")
    params = luigi.DictParameter(default={}, description="the method's parameters, e.g. {\"k1\": 1.2}")
    query = luigi.Parameter(default="title", description="a query formulation of the track (title, …)")
    depth = luigi.IntParameter(default=1000, description="documents per topic")

    stage = "rank"
    extension = EXTENSION

    def requires(self) -> dict[str, CachedTask] | list[CachedTask]:
        if self.shards == 1:
            return {"index": self.clone(BuildIndex), "queries": self.clone(AnalyzeTopics)}
        from tasks.shards import RankShard

        return [self.clone(RankShard, shard=shard) for shard in range(self.shards)]

    def input_digests(self) -> list[str]:
        return [file_digest(self.topics)]

    def run(self) -> None:
        if self.shards == 1:
            index = load_index(self.input()["index"].path)
            ranker = make_ranker(index, self.method, dict(self.params))
            table = rank_queries(index, read_parquet(self.input()["queries"].path), ranker, self.depth)
        else:
            from argrank.formats.topics import read_topics
            from argrank.retrieval.merge import merge_rankings

            rankings = (read_ranking(target.path) for target in self.input())
            table = merge_rankings(rankings, [topic.number for topic in read_topics(self.topics)], self.depth)
        with atomic_path(self.output_path) as tmp:
            write_ranking(table, tmp)
