"""Rank: each topic's top documents under one retrieval model; sharded, each shard's top documents, merged."""

from __future__ import annotations

import luigi
import pyarrow.parquet as pq
from luigi.util import inherits

from argrank.atomic import atomic_path
from argrank.fingerprint import file_digest
from argrank.index import load_index
from argrank.ranking import make_ranker
from argrank.retrieval import rank_topics
from argrank.shards import load_statistics, merge_rankings
from argrank.text import make_analyzer
from argrank.topics import read_topics
from tasks.base import CachedTask
from tasks.index import BuildIndex, MergeStatistics
from tasks.tokenize import CorpusTask, ShardTask


class RankTopics(CorpusTask):
    """The ranking a run is written from. Unsharded, it scores the one index; with shards it merges the shards'
    rankings (RankShard) into exactly the table the unsharded index gives."""

    topics = luigi.Parameter(description="topics XML file")
    method = luigi.Parameter(default="bm25", description="bm25 or dirichlet")
    params = luigi.DictParameter(default={}, description="the method's parameters, e.g. {\"k1\": 1.2}")
    query = luigi.Parameter(default="title", description="title or title+description")
    depth = luigi.IntParameter(default=1000, description="documents per topic")

    stage = "rank"
    extension = ".parquet"
    location_params = ("corpus", "topics")

    def requires(self) -> CachedTask | list[CachedTask]:
        if self.shards == 1:
            return self.clone(BuildIndex)
        return [self.clone(RankShard, shard=shard) for shard in range(self.shards)]

    def input_digests(self) -> list[str]:
        return [file_digest(self.topics)]

    def run(self) -> None:
        topics = read_topics(self.topics)
        if self.shards == 1:
            index = load_index(self.input().path)
            ranker = make_ranker(index, self.method, dict(self.params))
            table = rank_topics(index, make_analyzer(self.language), topics, ranker, self.query, self.depth)
        else:
            rankings = (pq.read_table(target.path) for target in self.input())
            table = merge_rankings(rankings, [topic.number for topic in topics], self.depth)
        with atomic_path(self.output_path) as tmp:
            pq.write_table(table, tmp)


@inherits(RankTopics)  # the ranking settings; the corpus and shard parameters come from ShardTask
class RankShard(ShardTask):
    """One shard's top `depth` per topic, scored with the whole collection's statistics, so the scores are those
    the unsharded index gives its documents and the merged top `depth` is the unsharded one."""

    stage = "rank-shard"
    extension = ".parquet"
    location_params = ("corpus", "topics")

    def requires(self) -> dict[str, CachedTask]:
        return {"index": self.clone(BuildIndex), "statistics": self.clone(MergeStatistics)}

    def input_digests(self) -> list[str]:
        return [file_digest(self.topics)]

    def run(self) -> None:
        index = load_index(self.input()["index"].path)
        statistics = load_statistics(self.input()["statistics"].path)
        ranker = make_ranker(index, self.method, dict(self.params), statistics)
        analyzer = make_analyzer(self.language)
        topics = read_topics(self.topics)
        table = rank_topics(index, analyzer, topics, ranker, self.query, self.depth, warn_unmatched=False)
        with atomic_path(self.output_path) as tmp:
            pq.write_table(table, tmp)
