"""A ranking table (qid, doc, rank, score, and a stance or image column where the stage adds one) as a stage's
target: an Arrow IPC file, written for being rewritten often. Every change of a ranking parameter writes one, and
the next stage reads it at once.

A Parquet file's encoding is work that a table of some 50,000 rows never repays: in a new process, writing the
bench's ranking as Parquet (only qid dictionary-coded, nothing compressed) took 0.013-0.023 CPU-s and reading it
0.0065, as Arrow IPC 0.002 and 0.0007 (the file 1.75 -> 2.04 MB), and the re-run after a change of k1 went
0.69-0.71 -> 0.66-0.67 CPU-s (docs/scale.md).
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
