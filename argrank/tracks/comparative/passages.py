"""Streaming passage ingest for Touché Task 2: `passages.jsonl.gz` (or `.jsonl`), one JSON object per line.

The real collection holds about 0.9 M passages, so lines are read one at a time and written in batches.
Each passage needs `id` and `contents`; every other field (`chatNoirUrl`, doc2query expansions, …) is kept
as text in the `extra` map, so any of them can be indexed later without ingesting again.
"""

from __future__ import annotations

import gzip
import json
import zlib
from pathlib import Path
from typing import Any, Iterator

import pyarrow as pa

from argrank.core.errors import InputError
from argrank.core.input_file import bounded_lines, check_regular
from argrank.core.table_writer import IngestStats, write_rows
from argrank.formats.json_value import parse_json
from argrank.text.tokenize import EXTRA

FILE_NAMES = ("passages.jsonl.gz", "passages.jsonl")
TEXT = "contents"  # the passage itself, which stance is read from (expansion fields only help retrieval)
SCHEMA = pa.schema([("id", pa.string()), (TEXT, pa.string()), (EXTRA, pa.map_(pa.string(), pa.string()))])


def passage_file(location: str | Path) -> Path:
    """The passages file: `location` itself, or the passages file in the folder `location`."""
    location = Path(location)
    if location.is_dir():
        for name in FILE_NAMES:
            if (location / name).is_file():
                return location / name
        raise InputError(location, "", f"no passages: neither {' nor '.join(FILE_NAMES)}")
    if not location.is_file():
        raise InputError(location, "", "passages file not found")
    return location


def ingest_passages(path: str | Path, out_path: str | Path, batch_size: int = 10_000) -> IngestStats:
    """Write every passage of `path` to Parquet at `out_path` (SCHEMA), with the blank-text and duplicate-id policies."""
    return write_rows(_read_rows(Path(path)), SCHEMA, out_path, TEXT, "passages", path, batch_size=batch_size)


def _read_rows(path: Path) -> Iterator[tuple]:
    """Rows in file order; bad JSON, bad bytes, a damaged gzip stream or a bad passage raise InputError."""
    check_regular(path)
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        handle = opener(path, "rb")
    except OSError as error:
        raise InputError(path, "", f"cannot read: {error.strerror}") from None
    number = 0
    with handle:
        try:
            for number, line in bounded_lines(handle, path):
                if line.strip():
                    yield _to_row(_parse(line, path, number), path, number)
        except (gzip.BadGzipFile, EOFError, zlib.error) as error:
            raise InputError(path, f"line {number + 1}", f"damaged gzip data: {error}") from None
    if number == 0:
        raise InputError(path, "", "empty file: no passages")


def _parse(line: bytes, path: Path, number: int) -> Any:
    return parse_json(line, path, f"line {number}")


def _to_row(passage: Any, path: Path, number: int) -> tuple:
    """(id, contents, extra fields as (name, text) pairs), checked."""
    if not isinstance(passage, dict):
        raise InputError(path, f"line {number}", "not a JSON object")
    passage_id = passage.get("id")
    if not isinstance(passage_id, str) or not passage_id or any(c.isspace() for c in passage_id):
        raise InputError(path, f"line {number}", 'no "id" (or not a non-empty string without spaces)')
    contents = passage.get("contents")
    if not isinstance(contents, str):
        raise InputError(path, f"line {number} (id {passage_id!r})", '"contents" missing or not a string')
    extra = [(name, _as_text(value)) for name, value in sorted(passage.items()) if name not in ("id", "contents")]
    return passage_id, contents, [(name, text) for name, text in extra if text is not None]


def _as_text(value: Any) -> str | None:
    """A field as indexable text: strings as they are, lists of strings one per line, anything else as JSON."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return "\n".join(value)
    return json.dumps(value, ensure_ascii=False, sort_keys=True)
