"""The tokenize stage: stream a document table through the analyzer into a Parquet table of token lists."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from argrank.core.atomic import atomic_path
from argrank.core.progress import track
from argrank.index.shards import shard_batches, shard_rows
from argrank.text.analyzer import Analyzer
from argrank.text.multilingual import MultilingualAnalyzer

LANGUAGE = "language"  # a document table's column naming each row's language, where the corpus mixes them
EXTRA = "extra"  # a document table's map of further text fields by name (the passages' doc2query, …), indexable
TOKENS_SCHEMA = pa.schema([("id", pa.string()), ("tokens", pa.list_(pa.string()))])


def source_columns(schema: pa.Schema, fields: Sequence[str]) -> list[str]:
    """The table columns the fields are read from: a field is a column, or a key of the `extra` map."""
    columns = [f for f in fields if f in schema.names]
    if len(columns) < len(fields) and EXTRA in schema.names:
        columns.append(EXTRA)
    return columns


def document_texts(batch: pa.RecordBatch, fields: Sequence[str]) -> pa.Array:
    """The text indexed for each row: the chosen fields joined by newlines; a field a row lacks is empty."""
    columns = [pc.fill_null(_field(batch, f), "") for f in fields]
    return pc.binary_join_element_wise(*columns, "\n")


def _field(batch: pa.RecordBatch, name: str) -> pa.Array:
    if name in batch.schema.names:
        return batch.column(name)
    if EXTRA in batch.schema.names:
        return pc.map_lookup(batch.column(EXTRA), pa.scalar(name), "first")
    raise ValueError(f"no field {name!r} in the document table (columns: {', '.join(batch.schema.names)})")


def tokenize_table(
    in_path: Path,
    out_path: Path,
    analyzer: Analyzer | MultilingualAnalyzer,
    fields: Sequence[str],
    batch_size: int = 5000,
    shard: int = 0,
    shards: int = 1,
) -> int:
    """Write (id, tokens) for every row of `in_path`'s shard (`shard` of `shards`, see argrank.index.shards; by
    default the whole table); returns the number of tokens kept.

    A multilingual analyzer takes each row's language from the table's LANGUAGE column where it has one.
    """
    kept = 0
    # pre_buffer off: with it, Arrow keeps every range it has read until the file is closed (at args.me size some
    # 350 MB of premises the stage had finished with); a local file is read as fast without it.
    source = pq.ParquetFile(in_path, pre_buffer=False)
    by_language = isinstance(analyzer, MultilingualAnalyzer) and LANGUAGE in source.schema_arrow.names
    # Uncompressed: the terms are dictionary-coded already, so snappy saved 11% of the file (91 of 103 MB at
    # args.me size) for 0.25 CPU-s more to write it and 0.15 more to read it.
    with atomic_path(out_path) as tmp, pq.ParquetWriter(tmp, TOKENS_SCHEMA, compression="none") as writer:
        columns = ["id", *source_columns(source.schema_arrow, fields), *([LANGUAGE] if by_language else [])]
        start, stop = shard_rows(source.metadata.num_rows, shard, shards)
        batches = shard_batches(source, shard, shards, columns, batch_size)
        for batch in track(batches, "tokenize", total=-(-(stop - start) // batch_size), unit="batch"):
            texts = document_texts(batch, fields)
            if by_language:
                tokens = analyzer.analyze_many(texts.to_pylist(), batch.column(LANGUAGE).to_pylist())
            else:
                tokens = analyzer.analyze_many(texts)
            kept += len(tokens.values)
            writer.write_batch(pa.record_batch([batch.column("id"), tokens], schema=TOKENS_SCHEMA))
    return kept
