"""Input files are regular files: a FIFO waits for a writer forever, a device such as /dev/zero never ends, and a
folder fails in a different way in each reader; each is refused in one line before it is opened. Their lines are
bounded: one line that decompresses to a gibibyte (a gzip bomb) is refused when it passes the bound, before it is
held in memory whole."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from argrank.core.errors import InputError

MAX_LINE_BYTES = 16 << 20  # a line of a JSON-lines input: far beyond any passage, argument or document


def check_regular(path: str | Path) -> None:
    """InputError unless `path` is (or links to) a regular file."""
    try:
        mode = os.stat(path).st_mode
    except OSError as error:
        dangling = isinstance(error, FileNotFoundError) and os.path.islink(path)
        raise InputError(path, "", f"cannot read: {'a link to nothing' if dangling else error.strerror}") from None
    if stat.S_ISDIR(mode):
        raise InputError(path, "", "a folder, where a file is expected")
    if not stat.S_ISREG(mode):
        kind = "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device"
        raise InputError(path, "", f"{kind}, not a regular file: argrank reads files whose end it can reach")


def bounded_lines(handle: BinaryIO, path: str | Path, limit: int = MAX_LINE_BYTES) -> Iterator[tuple[int, bytes]]:
    """Each line of `handle` with its number (from 1); InputError naming the line where one is longer than `limit`
    bytes, read no further than that."""
    number = 0
    while line := handle.readline(limit + 1):
        number += 1
        if len(line) > limit and not (len(line) == limit + 1 and line.endswith(b"\n")):
            raise InputError(path, f"line {number}", f"longer than {limit:,} bytes: not a line of this format")
        yield number, line
