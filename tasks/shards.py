"""The sharded graph's own stages: the whole collection's statistics, merged from every shard's index, and each
shard's ranking scored with them (RankTopics merges the shards' rankings).

Loaded where a runs file asks for shards (RankTopics.requires): Luigi builds its command line three times in a run,
with every parameter of every task class then registered, and an unsharded run has no use for these two's 16
(some 1.5 ms of a re-run after a change of k1).
"""

from __future__ import annotations

from luigi.util import inherits

from argrank.core.atomic import atomic_path
from argrank.core.parquet_file import read_parquet
from argrank.formats.ranking_table import EXTENSION, write_ranking
from argrank.index.statistics import load_statistics, merge_statistics, save_statistics
from argrank.index.store import load_index
from argrank.retrieval.registry import make_ranker
from argrank.retrieval.search import rank_queries
from tasks.base import CachedTask, log
from tasks.index import BuildIndex
from tasks.rank import AnalyzeTopics, RankTopics
from tasks.tokenize import CorpusTask, ShardTask


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
        ranker = make_ranker(index, self.method, dict(self.params), statistics)
        queries = read_parquet(self.input()["queries"].path)
        table = rank_queries(index, queries, ranker, self.depth, warn_unmatched=False)
        with atomic_path(self.output_path) as tmp:
            write_ranking(table, tmp)
