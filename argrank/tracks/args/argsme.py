"""Streaming args.me ingest: corpus JSON files (up to ~1 GB each) to one Parquet table in bounded memory.

ijson's C backend yields one argument at a time and `table_writer` writes rows in batches, so memory follows
the batch size (plus the set of ids seen, for the duplicate policy), never the file size.
"""

from __future__ import annotations

import codecs
import os
import re
from pathlib import Path
from typing import Any, Iterator, Sequence

import ijson
import pyarrow as pa

from argrank.core.errors import InputError
from argrank.core.input_file import check_regular
from argrank.core.records import INVISIBLE
from argrank.core.table_writer import IngestStats, write_rows
from argrank.kernels.json_depth import DepthGuard, TooDeep

# (key in an argument's "context", column) in column order.
CONTEXT_COLUMNS = (
    ("sourceId", "source_id"),
    ("discussionTitle", "discussion_title"),
    ("sourceTitle", "source_title"),
    ("sourceUrl", "source_url"),
    ("acquisitionTime", "acquisition_time"),
    ("previousArgumentInSourceId", "previous_id"),
    ("nextArgumentInSourceId", "next_id"),
)
SCHEMA = pa.schema(
    [(name, pa.string()) for name in ("id", "conclusion", "premise", "stance", "source")]
    + [(column, pa.string()) for _, column in CONTEXT_COLUMNS]
)

STANCES = frozenset({"PRO", "CON"})
_READ_SIZE = 1 << 20
_UNSAFE_ID = re.compile(r"\s|" + INVISIBLE)  # what an id may not hold: it becomes one field of a run file


def ingest_argsme(files: Sequence[str | Path], out_path: str | Path, batch_size: int = 10_000) -> IngestStats:
    """Write all arguments of `files`, in order, to Parquet at `out_path` (SCHEMA, one row per argument).

    Policies (see `table_writer`): blank premise text is dropped; of arguments sharing an id across all
    files the first kept one wins.
    """
    rows = (row for path in files for row in _read_rows(Path(path)))
    source = os.path.commonpath(files)  # the corpus folder, or its one file
    return write_rows(rows, SCHEMA, out_path, "premise", "arguments", source, batch_size=batch_size)


def _read_rows(path: Path) -> Iterator[tuple]:
    """Rows of one corpus file in file order; malformed JSON, JSON nested past json_depth.MAX_DEPTH or a bad
    argument raises InputError."""
    check_regular(path)
    try:
        handle = open(path, "rb")
    except OSError as error:
        raise InputError(path, "", f"cannot read: {error.strerror}") from None
    with handle:
        number = 0
        source = path.stem  # each row's `source` column
        try:
            for number, argument in enumerate(ijson.items(DepthGuard(handle), "arguments.item", use_float=True), 1):
                yield _to_row(argument, path, source, number)
        except TooDeep as error:
            raise InputError(path, f"argument #{number + 1}", str(error)) from None
        except (ijson.JSONError, UnicodeDecodeError) as error:
            raise _parse_error(path, number + 1, error, handle.tell()) from None
    if number == 0 and not _has_arguments_array(path):
        raise InputError(path, "top level", 'expected a JSON object with an "arguments" array')


def _to_row(argument: Any, path: Path, source: str, number: int) -> tuple:
    """Check one argument and flatten it to a tuple in SCHEMA's column order."""

    def bad(problem: str) -> InputError:
        return _bad_argument(argument, path, number, problem)

    if not isinstance(argument, dict):
        raise bad("not a JSON object")
    argument_id = argument.get("id")
    if not isinstance(argument_id, str) or not argument_id:
        raise bad('no "id" (or not a non-empty string)')
    if hidden := _UNSAFE_ID.search(argument_id):
        raise bad(f"id {argument_id!r} holds U+{ord(hidden.group()):04X} (white space or an invisible character): "
                  "an id is written into run files, one field of visible text")  # fmt: skip
    premises = argument.get("premises")
    if not isinstance(premises, list) or not premises:
        raise bad('"premises" missing or not a non-empty list')
    texts = []
    for premise in premises:
        text = premise.get("text") if isinstance(premise, dict) else None
        if not isinstance(text, str):
            raise bad('a premise has no "text" string')
        if premise.get("stance") not in STANCES:
            raise bad(f"premise stance {premise.get('stance')!r} is not PRO or CON")
        texts.append(text)
    conclusion = argument.get("conclusion")
    if not isinstance(conclusion, str):
        raise bad('"conclusion" missing or not a string')
    context = argument.get("context", {})
    if not isinstance(context, dict):
        raise bad('"context" is not an object')
    values = []
    for key, _ in CONTEXT_COLUMNS:
        value = context.get(key)
        if value is not None and not isinstance(value, str):
            raise bad(f'context "{key}" is not a string')
        values.append(value or None)  # the corpus writes "" for "none" (e.g. no previous argument)
    return (argument_id, conclusion, "\n".join(texts), premises[0]["stance"], source, *values)


def _bad_argument(argument: Any, path: Path, number: int, problem: str) -> InputError:
    known = argument.get("id") if isinstance(argument, dict) else None
    where = f"argument #{number}" + (f" (id {known!r})" if isinstance(known, str) and known else "")
    return InputError(path, where, problem)


def _parse_error(path: Path, number: int, error: Exception, consumed: int) -> InputError:
    """Say where parsing stopped: at an invalid UTF-8 byte if the bytes read so far hold one, else the JSON error."""
    invalid = _first_invalid_utf8(path, consumed)
    if invalid is not None:
        line, offset = invalid
        return InputError(path, f"argument #{number}, line {line}, byte offset {offset}", "invalid UTF-8")
    message = error.args[0] if error.args else str(error)
    if isinstance(message, bytes):
        message = message.decode("utf-8", "replace")
    return InputError(path, f"argument #{number}", f"malformed JSON: {str(message).splitlines()[0]}")


def _first_invalid_utf8(path: Path, limit: int) -> tuple[int, int] | None:
    """(1-based line, 0-based byte offset) of the first invalid UTF-8 sequence in the first `limit` bytes."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    offset, line = 0, 1
    with open(path, "rb") as handle:
        while offset < limit and (chunk := handle.read(min(_READ_SIZE, limit - offset))):
            pending = len(decoder.getstate()[0])  # bytes of a sequence split across chunks
            try:
                decoder.decode(chunk)
            except UnicodeDecodeError as error:
                at = offset - pending + error.start
                return line + chunk[: max(at - offset, 0)].count(b"\n"), at
            offset += len(chunk)
            line += chunk.count(b"\n")
    return None


def _has_arguments_array(path: Path) -> bool:
    """Whether the top level is an object with an "arguments" array (asked only when no argument was read)."""
    with open(path, "rb") as handle:  # the file was read through, so it nests within the bound
        events = ijson.parse(DepthGuard(handle))
        return any(prefix == "arguments" and event == "start_array" for prefix, event, _ in events)
