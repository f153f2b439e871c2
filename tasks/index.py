"""Index: token lists to the sparse term-document matrix and its statistics."""

from __future__ import annotations

import pyarrow.parquet as pq
from luigi.util import requires

from argrank.index import build_index, save_index
from tasks.base import CachedTask
from tasks.tokenize import TokenizeDocuments


@requires(TokenizeDocuments)
class BuildIndex(CachedTask):
    stage = "index"
    location_params = ("corpus",)

    def run(self) -> None:
        table = pq.read_table(self.input().path)
        index = build_index(table.column("id").combine_chunks(), table.column("tokens").combine_chunks())
        save_index(index, self.output_path)
