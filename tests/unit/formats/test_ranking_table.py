"""A ranking table written for rewriting: the same table back, as an uncompressed Arrow IPC file (Feather 2)."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.feather as feather

from argrank.formats.ranking_table import EXTENSION, read_ranking, write_ranking
from argrank.retrieval.search import RANKING_SCHEMA


def test_a_ranking_table_reads_back_as_written(tmp_path):
    table = pa.table({"qid": ["1"] * 3 + ["2"] * 2, "doc": ["d3", "d1", "d2", "d1", "d9"], "rank": [1, 2, 3, 1, 2],
                      "score": [3.5, 2.25, 2.25, 9.0, -1.0]}, schema=RANKING_SCHEMA)  # fmt: skip
    path = tmp_path / f"ranking{EXTENSION}"
    write_ranking(table, path)
    assert read_ranking(path).equals(table)
    assert feather.read_table(path).equals(table)  # what pandas, polars or DuckDB would read
    with pa.OSFile(str(path)) as source:
        reader = pa.ipc.open_file(source)
        assert reader.num_record_batches == 1
        assert reader.get_batch(0).num_rows == table.num_rows


def test_a_stage_column_and_an_empty_ranking_come_back_too(tmp_path):
    labelled = pa.table({"qid": ["1"], "doc": ["d1"], "rank": pa.array([1], pa.int32()), "score": [0.5],
                         "stance": ["FIRST"]})  # fmt: skip
    empty = RANKING_SCHEMA.empty_table()
    for name, table in (("labelled", labelled), ("empty", empty)):
        write_ranking(table, tmp_path / name)
        assert read_ranking(tmp_path / name).equals(table)
