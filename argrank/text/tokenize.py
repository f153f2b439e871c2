"""The tokenize stage: stream a document table through the analyzer into a token table (formats/token_table.py)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from argrank.core.atomic import atomic_path
from argrank.core.parquet_file import CHECKSUMS, open_parquet
from argrank.core.progress import track
from argrank.formats.token_table import TERMS_KEY, TOKENS_SCHEMA
from argrank.index.shards import shard_batches, shard_rows
from argrank.kernels.table_codes import TableCodes
from argrank.text.analyzer import Analyzer
from argrank.text.multilingual import MultilingualAnalyzer

LANGUAGE = "language"  # a document table's column naming each row's language, where the corpus mixes them
EXTRA = "extra"  # a document table's map of further text fields by name (the passages' doc2query, …), indexable


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
    # pre_buffer off: with it, Arrow keeps every range it has read until the file is closed (texts the stage has
    # long finished with); a local file is read as fast without it.
    source = open_parquet(in_path, streaming=True)
    by_language = isinstance(analyzer, MultilingualAnalyzer) and LANGUAGE in source.schema_arrow.names
    terms = _Terms(analyzer)
    # Plain: neither compressed nor dictionary-coded. Either makes the file smaller, but costs the write more time
    # than the room it saves is worth.
    with atomic_path(out_path) as tmp, pq.ParquetWriter(
        tmp, TOKENS_SCHEMA, compression="none", use_dictionary=False, **CHECKSUMS
    ) as writer:
        columns = ["id", *source_columns(source.schema_arrow, fields), *([LANGUAGE] if by_language else [])]
        start, stop = shard_rows(source.metadata.num_rows, shard, shards)
        batches = shard_batches(source, shard, shards, columns, batch_size)
        for batch in track(batches, "tokenize", total=-(-(stop - start) // batch_size), unit="batch"):
            texts = document_texts(batch, fields)
            codes, lengths = terms.code(texts, batch.column(LANGUAGE).to_pylist() if by_language else None)
            kept += len(codes)
            offsets = np.zeros(len(lengths) + 1, dtype=np.int32)
            np.cumsum(lengths, out=offsets[1:])
            tokens = pa.ListArray.from_arrays(pa.array(offsets), pa.array(codes.astype(np.int32, copy=False)))
            writer.write_batch(pa.record_batch([batch.column("id"), tokens], schema=TOKENS_SCHEMA))
        writer.add_key_value_metadata({TERMS_KEY: json.dumps(terms.strings(), ensure_ascii=False)})
    return kept


class _Terms:
    """Codes for a table's tokens, numbered by first occurrence in the table, so that its bytes do not depend on
    what the analyzer met before: the analyzer's own term ids renumbered (kernels/table_codes.py) where it has one
    term space, else (a multilingual analyzer: one per language) ids given here to its output's strings."""

    def __init__(self, analyzer: Analyzer | MultilingualAnalyzer):
        self.analyzer = analyzer
        self.ids: dict[str, int] = {}
        self.table = TableCodes() if isinstance(analyzer, Analyzer) else None

    def code(self, texts: pa.Array, languages: list[str] | None) -> tuple[np.ndarray, np.ndarray]:
        if self.table is not None:
            ids, lengths = self.analyzer.analyze_codes(texts)
            return self.table.renumber(ids), lengths
        tokens = self.analyzer.analyze_many(texts.to_pylist(), languages)
        values = pc.dictionary_encode(tokens.flatten())
        local = np.fromiter(
            (self.ids.setdefault(term, len(self.ids)) for term in values.dictionary.to_pylist()),
            dtype=np.int64, count=len(values.dictionary),
        )  # fmt: skip
        codes = local[values.indices.to_numpy(zero_copy_only=False)] if len(values) else np.zeros(0, dtype=np.int64)
        return codes, pc.list_value_length(tokens).fill_null(0).to_numpy()

    def strings(self) -> list[str]:
        if self.table is None:
            return list(self.ids)
        return [self.analyzer.terms[term] for term in self.table.terms.tolist()]
