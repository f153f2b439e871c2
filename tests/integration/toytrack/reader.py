"""The toy track's documents: one `id<TAB>text` line each, read into the document table every later stage reads."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pyarrow as pa

from argrank.core.errors import InputError
from argrank.core.table_writer import IngestStats, write_rows

SCHEMA = pa.schema([("id", pa.string()), ("text", pa.string())])


def ingest_toy(path: str | Path, out_path: str | Path) -> IngestStats:
    return write_rows(_rows(Path(path)), SCHEMA, out_path, "text", "documents", path)


def _rows(path: Path) -> Iterator[tuple[str, str]]:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        doc, tab, text = line.partition("\t")
        if not tab or not doc:
            raise InputError(path, f"line {number}", "expected `id<TAB>text`")
        yield doc, text
