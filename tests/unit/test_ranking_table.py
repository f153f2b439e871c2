"""A ranking table written for rewriting: the same table back, qid alone dictionary-encoded, nothing compressed."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq

from argrank.formats.ranking_table import write_ranking
from argrank.retrieval.search import RANKING_SCHEMA


def test_a_ranking_table_reads_back_as_written(tmp_path):
    table = pa.table({"qid": ["1"] * 3 + ["2"] * 2, "doc": ["d3", "d1", "d2", "d1", "d9"], "rank": [1, 2, 3, 1, 2],
                      "score": [3.5, 2.25, 2.25, 9.0, -1.0]}, schema=RANKING_SCHEMA)  # fmt: skip
    write_ranking(table, tmp_path / "ranking.parquet")
    assert pq.read_table(tmp_path / "ranking.parquet").equals(table)
    columns = pq.ParquetFile(tmp_path / "ranking.parquet").metadata.row_group(0)
    chunks = {columns.column(i).path_in_schema: columns.column(i) for i in range(columns.num_columns)}
    assert {name: chunk.compression for name, chunk in chunks.items()} == dict.fromkeys(chunks, "UNCOMPRESSED")
    assert [name for name, chunk in chunks.items() if chunk.has_dictionary_page] == ["qid"]
