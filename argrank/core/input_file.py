"""Input files are regular files: a FIFO waits for a writer forever, a device such as /dev/zero never ends, and a
folder fails in a different way in each reader; each is refused in one line before it is opened."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from argrank.core.errors import InputError


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
