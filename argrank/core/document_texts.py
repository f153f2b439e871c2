"""Texts of a few documents from an ingested document table (every track's ingest writes one, with an `id`
column): the stages after ranking read only the ranked documents, streaming the table with an id filter, so the
whole collection never sits in memory."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from argrank.core.parquet_file import open_parquet


def texts_by_id(table_path: str | Path, ids: set[str], column: str, batch_size: int = 50_000) -> dict[str, str]:
    """The `column` text of every document in `ids`, read batch by batch."""
    wanted = pa.array(sorted(ids), pa.string())
    texts: dict[str, str] = {}
    source = open_parquet(table_path, streaming=True)  # streaming: no range kept until the end (text/tokenize.py)
    for batch in source.iter_batches(batch_size=batch_size, columns=["id", column]):
        hits = batch.filter(pc.is_in(batch.column("id"), value_set=wanted))
        texts.update(zip(hits.column("id").to_pylist(), hits.column(column).to_pylist()))
    return texts


def documents_by_id(table_path: str | Path, ids: set[str], batch_size: int = 50_000) -> dict[str, dict]:
    """Every column of each document in `ids`, read batch by batch: id → {column: value}."""
    wanted = pa.array(sorted(ids), pa.string())
    documents: dict[str, dict] = {}
    source = open_parquet(table_path, streaming=True)
    for batch in source.iter_batches(batch_size=batch_size):
        for row in batch.filter(pc.is_in(batch.column("id"), value_set=wanted)).to_pylist():
            documents[row["id"]] = row
    return documents
