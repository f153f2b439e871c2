"""Whitespace-separated text records (qrels, run files), read one way so every format reports bad bytes,
empty files and bad numbers alike: naming the file and the line.
"""

from __future__ import annotations

import codecs
import math
import re
from pathlib import Path

from argrank.core.errors import InputError

# str.split() would also split on these (no-break space, vertical tab, a carriage return mid-line, …), which no
# TREC file means as a separator; they are rejected so a field is never silently cut in two.
_STRAY_SPACE = re.compile(r"[^\S \t\r\n]|\r(?!\n|\Z)")

Record = tuple[int, list[str]]


def read_records(path: str | Path) -> list[Record]:
    """(line number, fields) of every non-blank line, fields split on runs of spaces and tabs.

    Raises InputError for an unreadable file, bytes that are not UTF-8 (naming their line) and a file without records.
    """
    text = read_utf8(path)
    stray = _STRAY_SPACE.search(text)
    if stray:
        line = text.count("\n", 0, stray.start()) + 1
        raise InputError(path, f"line {line}", f"white space U+{ord(stray.group()):04X}; only spaces and tabs separate fields")
    records = [(number, fields) for number, line in enumerate(text.split("\n"), start=1) if (fields := line.split())]
    if not records:
        raise InputError(path, "", "empty file: no lines to read")
    return records


def read_utf8(path: str | Path) -> str:
    """A whole text file (a leading byte-order mark dropped); InputError for an unreadable file or bytes that
    are not UTF-8, naming their line."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise InputError(path, "", f"cannot read: {error.strerror}") from None
    data = data.removeprefix(codecs.BOM_UTF8)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise InputError(path, f"line {line}", f"not valid UTF-8 (byte 0x{data[error.start]:02x})") from None


def expect_fields(path: str | Path, record: Record, names: tuple[str, ...]) -> list[str]:
    """The record's fields, if there are exactly as many as `names`; else InputError naming the line."""
    number, fields = record
    if len(fields) != len(names):
        raise InputError(
            path, f"line {number}", f"expected {len(names)} fields ({' '.join(names)}), found {len(fields)}"
        )
    return fields


def parse_float(path: str | Path, number: int, name: str, text: str) -> float:
    """A finite number in plain notation, or InputError naming the line."""
    value = _parse(float, text)
    if value is None or not math.isfinite(value):
        raise InputError(path, f"line {number}", f"{name} {text!r} is not a finite number")
    return value


def parse_int(path: str | Path, number: int, name: str, text: str) -> int:
    """An integer in plain notation, or InputError naming the line."""
    value = _parse(int, text)
    if value is None:
        raise InputError(path, f"line {number}", f"{name} {text!r} is not an integer")
    return value


def _parse(kind: type[float] | type[int], text: str) -> float | int | None:
    """`kind(text)`, or None where it fails or where the text is not plain ASCII (both accept "1_000" and "١")."""
    if not text.isascii() or "_" in text:
        return None
    try:
        return kind(text)
    except ValueError:
        return None
