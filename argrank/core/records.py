"""Whitespace-separated text records (qrels, run files), read one way so every format reports bad bytes,
empty files and bad numbers alike: naming the file and the line.
"""

from __future__ import annotations

import codecs
import math
import re
from collections.abc import Iterator
from pathlib import Path

from argrank.core.errors import InputError
from argrank.core.input_file import check_regular

# Characters that are neither visible nor white space: control characters (NUL among them) and the invisible
# format characters (zero-width space and joiners, direction marks, word joiner, a byte-order mark past the start).
# An id holding one looks like another id and is not it; no field of a TREC file may hold one.
INVISIBLE = "[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]"
# str.split() would also split on these (no-break space, vertical tab, a carriage return mid-line, …), which no
# TREC file means as a separator; they are rejected so a field is never silently cut in two.
_STRAY = re.compile(r"[^\S \t\r\n]|\r(?!\n|\Z)|" + INVISIBLE)

Record = tuple[int, list[str]]

# Files are read this many bytes at a time (whole lines), so memory follows the block, never the file.
_BLOCK = 1 << 20


def read_records(path: str | Path) -> Iterator[Record]:
    """(line number, fields) of every non-blank line, streamed, fields split on runs of spaces and tabs.

    Raises InputError for an unreadable file, bytes that are not UTF-8 or stray white space (naming their line,
    after yielding the lines before it, so the first offending line is the one named) and a file without records.
    """
    found = False
    for first, text in _decoded_blocks(path):
        stray = _STRAY.search(text)
        whole = text if stray is None else text[: text.rfind("\n", 0, stray.start()) + 1]
        for number, line in enumerate(whole.split("\n"), start=first):
            if fields := line.split():
                found = True
                yield number, fields
        if stray:
            line = first + text.count("\n", 0, stray.start())
            char = stray.group()
            problem = (f"white space U+{ord(char):04X}; only spaces and tabs separate fields" if char.isspace() else
                       f"an invisible or control character U+{ord(char):04X}; fields hold visible text only")  # fmt: skip
            raise InputError(path, f"line {line}", problem)
    if not found:
        raise InputError(path, "", "empty file: no lines to read")


def read_utf8(path: str | Path) -> str:
    """A whole text file (a leading byte-order mark dropped); InputError for an unreadable file or bytes that
    are not UTF-8, naming their line."""
    return "".join(text for _, text in _decoded_blocks(path))


def _decoded_blocks(path: str | Path) -> Iterator[tuple[int, str]]:
    """(number of its first line, text) of each block of whole lines; where a block has a byte that is not UTF-8,
    the lines before it and then InputError naming its line."""
    first = 1
    for data in _byte_blocks(path):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            yield first, data[: data.rfind(b"\n", 0, error.start) + 1].decode("utf-8")
            line = first + data.count(b"\n", 0, error.start)
            raise InputError(path, f"line {line}", f"not valid UTF-8 (byte 0x{data[error.start]:02x})") from None
        yield first, text
        first += text.count("\n")


def _byte_blocks(path: str | Path) -> Iterator[bytes]:
    """The file's bytes about _BLOCK at a time, cut after a newline (a line longer than a block stays whole), a
    leading byte-order mark dropped; InputError where the file cannot be read."""
    check_regular(path)
    try:
        with open(path, "rb") as handle:
            rest = handle.read(_BLOCK).removeprefix(codecs.BOM_UTF8)
            while block := handle.read(_BLOCK):
                data = rest + block
                cut = data.rfind(b"\n") + 1
                if cut:
                    yield data[:cut]
                rest = data[cut:]
            if rest:
                yield rest
    except OSError as error:
        raise InputError(path, "", f"cannot read: {error.strerror}") from None


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
