"""Rows to one Parquet table in batches, with the corpus policies every ingest applies the same way.

Policies: a row whose text is blank is dropped (where the caller names a text column); of rows sharing an id
the first kept one wins. Both are counted, returned and logged once at the end, naming the source and a few of
the offending ids. A source with no row left is an InputError: every later stage would have nothing to index.
Memory follows the batch size plus the set of ids seen, never the corpus size.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from argrank.core.atomic import atomic_path
from argrank.core.collector import fewer_collections
from argrank.core.errors import InputError
from argrank.core.parquet_file import CHECKSUMS
from argrank.core.progress import track

log = logging.getLogger(__name__)

EXAMPLES = 5  # offending ids kept per policy for the warning
DUPLICATE = "with an id seen before (kept the first)"  # why the duplicate policy drops a row, as warnings say


@dataclass
class IngestStats:
    """What an ingest wrote and what its policies dropped, with the first few dropped ids as examples."""

    rows: int = 0
    duplicates: int = 0
    empty: int = 0
    duplicate_ids: list[str] = field(default_factory=list)
    empty_ids: list[str] = field(default_factory=list)


def write_rows(
    rows: Iterable[tuple],
    schema: pa.Schema,
    out_path: str | Path,
    text_column: str | None,
    what: str,
    source: str | Path,
    batch_size: int = 10_000,
) -> IngestStats:
    """Write `rows` (tuples in `schema`'s column order, id first) atomically; `what` names the rows and `source`
    where they come from in warnings and errors.

    `text_column` None keeps rows whatever their text (the blank-text policy is off).
    """
    stats = IngestStats()
    seen: set[str] = set()
    batch: list[tuple] = []
    text_at = None if text_column is None else schema.get_field_index(text_column)
    # Uncompressed: the table is text the tokenize stage reads whole, and compressing it costs the ingest's write
    # and every tokenize's read more than the smaller file saves. Ids and texts are (nearly) all distinct:
    # dictionary-coding them, which Parquet gives up on after the first megabyte, is work for nothing.
    coded = [name for name in schema.names[1:] if name != text_column]
    with fewer_collections(), atomic_path(out_path) as tmp, pq.ParquetWriter(
        tmp, schema, compression="none", use_dictionary=coded, **CHECKSUMS
    ) as writer:
        for row in track(rows, f"ingest {what}", unit=" " + what):
            if text_at is not None and (not row[text_at] or row[text_at].isspace()):
                stats.empty += 1
                _add_example(stats.empty_ids, row[0])
            elif row[0] in seen:
                stats.duplicates += 1
                _add_example(stats.duplicate_ids, row[0])
            else:
                seen.add(row[0])
                batch.append(row)
                if len(batch) >= batch_size:
                    stats.rows += _write(writer, batch, schema)
                    batch = []
        if batch:
            stats.rows += _write(writer, batch, schema)
        _warn(stats, what, text_column, source)
        if not stats.rows:
            with_text = f" with {text_column} text" if text_column else ""
            raise InputError(source, "", f"no {what}{with_text}: nothing to index")
    return stats


def _write(writer: pq.ParquetWriter, rows: list[tuple], schema: pa.Schema) -> int:
    columns = zip(*rows)
    writer.write_batch(
        pa.RecordBatch.from_arrays([pa.array(column, f.type) for column, f in zip(columns, schema)], schema=schema)
    )
    return len(rows)


def _add_example(examples: list[str], row_id: str) -> None:
    if len(examples) < EXAMPLES:
        examples.append(row_id)


def _warn(stats: IngestStats, what: str, text_column: str | None, source: str | Path) -> None:
    if stats.duplicates:
        warn_dropped(source, stats.duplicates, what, DUPLICATE, stats.duplicate_ids)
    if stats.empty:
        warn_dropped(source, stats.empty, what, f"with empty {text_column} text", stats.empty_ids)


def warn_dropped(source: str | Path, count: int, what: str, why: str, examples: list[str]) -> None:
    """The one warning of a corpus policy, for every track alike: where, how many, why and a few ids."""
    log.warning("%s: dropped %d %s %s, e.g. %s", source, count, what, why, ", ".join(examples[:EXAMPLES]))
