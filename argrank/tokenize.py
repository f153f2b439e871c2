"""The tokenize stage: stream a document table through the analyzer into a Parquet table of token lists."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from argrank.atomic import atomic_path
from argrank.text import Analyzer

TOKENS_SCHEMA = pa.schema([("id", pa.string()), ("tokens", pa.list_(pa.string()))])


def document_texts(batch: pa.RecordBatch, fields: Sequence[str]) -> list[str]:
    """The text indexed for each row: the chosen fields joined by newlines, nulls as empty."""
    columns = [pc.fill_null(batch.column(f), "") for f in fields]
    return pc.binary_join_element_wise(*columns, "\n").to_pylist()


def tokenize_table(
    in_path: Path, out_path: Path, analyzer: Analyzer, fields: Sequence[str], batch_size: int = 5000
) -> int:
    """Write (id, tokens) for every row of `in_path`; returns the number of tokens kept."""
    kept = 0
    source = pq.ParquetFile(in_path)
    with atomic_path(out_path) as tmp, pq.ParquetWriter(tmp, TOKENS_SCHEMA) as writer:
        for batch in source.iter_batches(batch_size=batch_size, columns=["id", *fields]):
            tokens = analyzer.analyze_many(document_texts(batch, fields))
            kept += len(tokens.values)
            writer.write_batch(pa.record_batch([batch.column("id"), tokens], schema=TOKENS_SCHEMA))
    return kept
