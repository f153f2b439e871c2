"""The stages' Parquet files: written with a checksum on every page, read with those checked, so a page damaged on
disk is an error when it is read, never other data.

A table is read through ParquetFile, not pyarrow.parquet.read_table: read_table goes through pyarrow.dataset, whose
import would be a large part of a re-run after one ranking parameter changes, and ParquetFile gives the same table.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

# What every writer of a stage's Parquet file passes to pyarrow (ParquetWriter or write_table): a CRC-32 per page.
CHECKSUMS = {"write_page_checksum": True}


def open_parquet(path: str | Path, streaming: bool = False) -> pq.ParquetFile:
    """The Parquet file at `path`, its page checksums checked as pages are read; `streaming` reads one range at a
    time (no `pre_buffer`), so that nothing read is kept until the end."""
    return pq.ParquetFile(path, page_checksum_verification=True, **({"pre_buffer": False} if streaming else {}))


def read_parquet(path: str | Path, columns: Sequence[str] | None = None) -> pa.Table:
    """The table in the Parquet file at `path` (only `columns`, in that order, if given)."""
    with open_parquet(path) as file:
        return file.read(columns=columns)


def write_parquet(table: pa.Table, path: str | Path) -> None:
    """Write `table` to `path` with its page checksums (the caller makes the write atomic)."""
    pq.write_table(table, path, **CHECKSUMS)
