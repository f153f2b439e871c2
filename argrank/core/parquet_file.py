"""A Parquet file read whole into a table, as the stages read their inputs.

pyarrow.parquet.read_table reads through pyarrow.dataset, whose import would be a large part of a re-run after one
ranking parameter changes, so the stages read a file through ParquetFile, which gives the same table.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq


def read_parquet(path: str | Path, columns: Sequence[str] | None = None) -> pa.Table:
    """The table in the Parquet file at `path` (only `columns`, in that order, if given)."""
    with pq.ParquetFile(path) as file:
        return file.read(columns=columns)
