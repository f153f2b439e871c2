"""Atomic file output: write beside the target, then rename, so an interrupted run never leaves a half-written file.

A rename replaces whatever the target path names, so only a path argrank may replace is written (`output_path`): a
new one, a regular file, or for a folder written whole a folder. A device, a FIFO, a socket (or a folder where a
file is written) is refused in one line, before any work where a command asks first and again before the rename;
a symbolic link is followed, and its target is replaced while the link stays.

A temporary entry is named `.<target>.<pid>.<random>.tmp`: a later run removes those whose process is gone
(`remove_leftovers`), so a kill leaves nothing behind for long, and never takes one a live process is writing.
For tests of that promise, `ARGRANK_PAUSE_BEFORE_RENAME=<text>` makes a write whose target's path contains the
text wait a few seconds before its rename, so a test can kill it there.
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import stat
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from argrank.core.errors import InputError

PAUSE = "ARGRANK_PAUSE_BEFORE_RENAME"
_LEFTOVER = re.compile(r"^\..+\.(\d+)\.[^.]+\.tmp$")
FILE, FOLDER, EITHER = "file", "folder", "either"  # what an output may replace: see output_path
_KINDS = ((stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
          (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a folder"), (stat.S_ISREG, "a regular file"))  # fmt: skip


def output_path(path: str | Path, written: str = FILE) -> Path:
    """The path an output named `path` is written to: `path` itself, or where a symbolic link leads (the link is
    kept, its target replaced). InputError where what is there may not be replaced by what is `written`: anything
    but a regular file for a FILE, but a folder for a FOLDER (EITHER takes both), or a link that leads nowhere."""
    path = Path(path)
    if path.is_symlink():
        try:
            path = Path(os.path.realpath(path, strict=True))
        except OSError as error:
            if error.errno != errno.ENOENT:  # a loop of links: ELOOP
                raise InputError(path, "", f"a symbolic link that cannot be followed ({error.strerror})") from None
            path = Path(os.path.realpath(path))  # a link to a file not yet there: that file is written
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return path
    except OSError as error:
        raise InputError(path, "", f"cannot write there: {error.strerror}") from None
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    allowed = {FILE: ("a regular file",), FOLDER: ("a folder",), EITHER: ("a regular file", "a folder")}[written]
    if kind not in allowed:
        wanted = " or ".join(allowed)
        raise InputError(path, "", f"is {kind}, not {wanted}: argrank replaces only what it writes; name another "
                                   "path, or - for standard output where the option takes it")  # fmt: skip
    return path


@contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """Yield a temporary path in the target's folder; rename it onto `path` only if the block succeeds.

    Works for a file or a folder written at the yielded path. What is at `path` is checked first and again before
    the rename (output_path): a file replaces only a regular file, a folder only a folder.
    """
    path = output_path(path, EITHER)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=path.parent))
    staged = tmp / path.name
    try:
        yield staged
        pause_before_rename(path)
        output_path(path, FOLDER if staged.is_dir() else FILE)
        if path.is_dir() and staged.is_dir():
            shutil.rmtree(path)
        os.replace(staged, path)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def atomic_write_text(path: str | Path, text: str) -> None:
    """Write `text` (UTF-8) to `path` atomically."""
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def temporary_folder(beside: Path) -> Path:
    """A new empty folder next to `beside`, named so that remove_leftovers knows it."""
    beside.parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=f".{beside.name}.{os.getpid()}.", suffix=".tmp", dir=beside.parent))


def remove_leftovers(folder: Path) -> list[Path]:
    """Remove the temporary entries in `folder` that interrupted writes left (their process is gone)."""
    removed = []
    if not folder.is_dir():
        return removed
    # By name from os.scandir: every stage runs this on its cache folder, which a sweep fills with thousands of
    # targets, so no entry but a temporary one gets a Path or a pattern match.
    with os.scandir(folder) as entries:
        names = [entry.name for entry in entries if entry.name.endswith(".tmp")]
    leftovers = [(name, match) for name in names if (match := _LEFTOVER.match(name))]
    for name, match in leftovers:
        if not _alive(int(match.group(1))):
            entry = folder / name
            if entry.is_dir():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                entry.unlink(missing_ok=True)
            removed.append(entry)
    return removed


def pause_before_rename(path: Path) -> None:
    """The test hook: wait where a kill leaves a temporary entry and no target."""
    marker = os.environ.get(PAUSE)
    if marker and marker in str(path):
        time.sleep(float(os.environ.get("ARGRANK_PAUSE_SECONDS", "5")))


def _alive(pid: int) -> bool:
    """Whether process `pid` may still write: it exists and, where Linux's /proc says its state, has not exited (a
    killed writer stays a zombie until its parent reaps it, and a signal still reaches a zombie)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's live process
        return True
    return _state(pid) not in ("Z", "X")


def _state(pid: int) -> str | None:
    """The process's state letter from /proc/PID/stat (after its name, which may hold spaces and parentheses);
    None where there is no /proc or the process has gone meanwhile."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return None
    fields = stat[stat.rfind(b")") + 1 :].split()
    return fields[0].decode("ascii", "replace") if fields else None
