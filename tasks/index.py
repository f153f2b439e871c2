"""Index: token lists to the sparse term-document matrix, one per shard (tasks.rank merges the shards'
statistics)."""

from __future__ import annotations

import luigi

from argrank.index.build import index_codes, read_token_codes
from argrank.index.store import FORMAT, save_index
from tasks.tokenize import ShardTask, TokenizeDocuments


class BuildIndex(ShardTask):
    """One shard's index: its documents' postings, lengths and terms (its own term ids)."""

    stage = "index"
    def requires(self) -> luigi.Task:
        return self.clone(TokenizeDocuments)

    def input_digests(self) -> list[str]:
        return [f"index format {FORMAT}"]

    def run(self) -> None:
        save_index(index_codes(read_token_codes(self.input().path)), self.output_path)
