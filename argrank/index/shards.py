"""Sharding: a document table split into row ranges, indexed apart, scored with merged statistics, merged back.

So that tokenizing, indexing and ranking spread over machines, shard i of N is the contiguous row range
[⌊i·n/N⌋, ⌊(i+1)·n/N⌋) of the ingested table (some shards are empty when N exceeds the rows). Each shard
gets its own index; the statistics scores need of the whole collection (document count, total length, and
per term its document and collection frequency) are merged from the shard indexes; each shard is scored
with them and keeps its top `depth` per topic; the merged top `depth` is then exactly the unsharded ranking.
Here: the row ranges; the statistics are in `statistics.py`, the merge of rankings in `retrieval.merge`.
"""

from __future__ import annotations

from typing import Iterator, Sequence

import pyarrow as pa
import pyarrow.parquet as pq


def shard_rows(num_rows: int, shard: int, shards: int) -> tuple[int, int]:
    """The row range [start, stop) of shard `shard` of `shards` in a table of `num_rows` rows."""
    if shards < 1 or not 0 <= shard < shards:
        raise ValueError(f"shard {shard} of {shards}: expected 0 <= shard < shards")
    return shard * num_rows // shards, (shard + 1) * num_rows // shards


def shard_batches(
    source: pq.ParquetFile, shard: int, shards: int, columns: Sequence[str], batch_size: int
) -> Iterator[pa.RecordBatch]:
    """The shard's rows of a Parquet file as record batches, reading only the row groups that overlap it."""
    start, stop = shard_rows(source.metadata.num_rows, shard, shards)
    if start == stop:
        return
    groups, first_row, offset = [], None, 0
    for group in range(source.metadata.num_row_groups):
        size = source.metadata.row_group(group).num_rows
        if offset < stop and offset + size > start:
            groups.append(group)
            first_row = offset if first_row is None else first_row
        offset += size
    position = first_row
    for batch in source.iter_batches(batch_size=batch_size, row_groups=groups, columns=list(columns)):
        low, high = max(start - position, 0), min(stop - position, batch.num_rows)
        if low < high:
            yield batch if (low, high) == (0, batch.num_rows) else batch.slice(low, high - low)
        position += batch.num_rows
        if position >= stop:
            break
