"""Sharding: a document table split into row ranges, indexed apart, scored with merged statistics, merged back.

So that tokenizing, indexing and ranking spread over machines, shard i of N is the contiguous row range
[⌊i·n/N⌋, ⌊(i+1)·n/N⌋) of the ingested table (some shards are empty when N exceeds the rows). Each shard
gets its own index; the statistics scores need of the whole collection (document count, total length, and
per term its document and collection frequency) are merged from the shard indexes; each shard is scored
with them and keeps its top `depth` per topic; the merged top `depth` is then exactly the unsharded ranking.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Iterable, Iterator, Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from argrank.core.atomic import atomic_path
from argrank.index.store import Index
from argrank.retrieval.ranking import CollectionStatistics
from argrank.retrieval.search import RANKING_SCHEMA, warn_no_results

log = logging.getLogger(__name__)

NUM_DOCS, TOTAL_LENGTH = b"num_docs", b"total_length"  # the statistics file's metadata keys


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


def term_table(index: Index) -> pa.Table:
    """Per term of one shard's index: its id there, the first document (by id) holding it, its df and cf.

    Its first document and its id there place a term in the collection's first-occurrence order: terms first
    met in different documents follow those documents' order, terms first met in the same document (so in the
    same shard) follow their order of first occurrence there, which is the order of their ids in that shard.
    """
    postings = index.postings
    starts = postings.indptr[:-1]
    first = np.minimum.reduceat(postings.indices, starts) if len(starts) else np.empty(0, dtype=np.int32)
    return pa.table(
        {
            "term": index.terms,
            "first_doc": index.doc_ids.take(pa.array(first, type=pa.int64())),
            "local": pa.array(np.arange(len(starts), dtype=np.int64)),
            "df": pa.array(index.document_frequencies.astype(np.int64)),
            "cf": pa.array(index.collection_frequencies.astype(np.int64)),
        }
    )


def merge_statistics(indexes: Iterable[Index]) -> CollectionStatistics:
    """The whole collection's statistics from its shards' indexes (one in memory at a time), in the term order
    the unsharded index would have. Raises ValueError where shards share a document id, as build_index does."""
    parts, ids, num_docs, total_length = [], [], 0, 0
    for index in indexes:
        parts.append(term_table(index))
        ids.append(index.doc_ids)
        num_docs += index.num_docs
        total_length += index.total_length
    all_ids = pa.chunked_array(ids, type=pa.string())
    if len(pc.unique(all_ids)) != len(all_ids):
        raise ValueError("document ids are not unique across shards")
    table = pa.concat_tables(parts)
    table = table.take(pc.sort_indices(table, sort_keys=[("first_doc", "ascending"), ("local", "ascending")]))
    # Sorted so, a term's first row is its first occurrence: encoding numbers terms in the collection's order.
    encoded = pc.dictionary_encode(table.column("term").combine_chunks())
    term_of_row = encoded.indices.to_numpy()
    df = np.zeros(len(encoded.dictionary), dtype=np.int64)
    cf = np.zeros(len(encoded.dictionary), dtype=np.int64)
    np.add.at(df, term_of_row, table.column("df").to_numpy())
    np.add.at(cf, term_of_row, table.column("cf").to_numpy())
    return CollectionStatistics(
        terms=encoded.dictionary,
        document_frequencies=df,
        collection_frequencies=cf,
        num_docs=num_docs,
        total_length=total_length,
    )


def save_statistics(statistics: CollectionStatistics, path: Path) -> None:
    """One Parquet file, atomically: a row per term in collection order, the collection's totals as metadata."""
    table = pa.table(
        {
            "term": statistics.terms,
            "df": pa.array(statistics.document_frequencies, type=pa.int64()),
            "cf": pa.array(statistics.collection_frequencies, type=pa.int64()),
        }
    ).replace_schema_metadata({NUM_DOCS: str(statistics.num_docs), TOTAL_LENGTH: str(statistics.total_length)})
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp)


def load_statistics(path: Path) -> CollectionStatistics:
    table = pq.read_table(path)
    metadata = table.schema.metadata
    return CollectionStatistics(
        terms=table.column("term").combine_chunks(),
        document_frequencies=table.column("df").to_numpy(),
        collection_frequencies=table.column("cf").to_numpy(),
        num_docs=int(metadata[NUM_DOCS]),
        total_length=int(metadata[TOTAL_LENGTH]),
    )


def merge_rankings(rankings: Iterable[pa.Table], topic_numbers: Sequence[str], depth: int) -> pa.Table:
    """The top `depth` per topic of the shards' rankings (each a shard's own top `depth`), as rank_topics
    writes it for the unsharded index: topics in the given order, by score, ties by document id ascending
    (the index's column order, which is pyarrow's string order); topics without results warned about."""
    table = pa.concat_tables([ranking.select(RANKING_SCHEMA.names).cast(RANKING_SCHEMA) for ranking in rankings])
    position = {qid: i for i, qid in enumerate(topic_numbers)}
    topic = np.array([position[qid] for qid in table.column("qid").to_pylist()], dtype=np.int64)
    doc_order = pc.rank(table.column("doc").combine_chunks(), sort_keys="ascending", tiebreaker="dense")
    order = np.lexsort((doc_order.to_numpy(), -table.column("score").to_numpy(), topic))
    topic = topic[order]
    within = np.arange(len(order)) - np.searchsorted(topic, topic, side="left")
    kept = within < depth
    merged = table.take(pa.array(order[kept])).combine_chunks()
    merged = merged.set_column(2, "rank", pa.array(within[kept] + 1, type=pa.int32()))
    for qid in sorted(set(topic_numbers) - set(merged.column("qid").to_pylist()), key=position.__getitem__):
        warn_no_results(qid)
    return merged
