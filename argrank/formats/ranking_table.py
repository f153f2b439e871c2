"""A ranking table (qid, doc, rank, score, and a stance or image column where the stage adds one) as a stage's
target: an Arrow IPC file, written for being rewritten often. Every change of a ranking parameter writes one, and
the next stage reads it at once.

A Parquet file's encoding is work that a table of some 50,000 rows never repays: even uncompressed, Parquet
costs a new process much more to write and read than Arrow IPC, for a file only a little smaller, and a re-run
after a change of one ranking parameter writes and reads such a table every time.
An Arrow IPC file is Feather version 2: pandas (`read_feather`) and other Arrow readers open it as it is.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa

EXTENSION = ".arrow"


def write_ranking(table: pa.Table, path: str | Path) -> None:
    """Write `table` to `path` (the caller makes it atomic), uncompressed."""
    with pa.OSFile(str(path), "wb") as sink, pa.ipc.new_file(sink, table.schema) as writer:
        writer.write_table(table)


def read_ranking(path: str | Path) -> pa.Table:
    """The table at `path`, read into memory, not mapped: the file may be replaced while the table is in use."""
    with pa.OSFile(str(path)) as source:
        return pa.ipc.open_file(source).read_all()
