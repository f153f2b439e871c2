"""Index: token lists to the sparse term-document matrix, one per shard; and the shards' statistics merged."""

from __future__ import annotations

import luigi

from argrank.index.statistics import merge_statistics, save_statistics
from argrank.index.store import FORMAT, load_index, save_index
from tasks.base import CachedTask, log
from tasks.tokenize import CorpusTask, ShardTask, TokenizeDocuments


class BuildIndex(ShardTask):
    """One shard's index: its documents' postings, lengths and terms (its own term ids)."""

    stage = "index"
    def requires(self) -> luigi.Task:
        return self.clone(TokenizeDocuments)

    def input_digests(self) -> list[str]:
        return [f"index format {FORMAT}"]

    def run(self) -> None:
        from argrank.index.build import index_codes, read_token_codes

        save_index(index_codes(read_token_codes(self.input().path)), self.output_path)


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
