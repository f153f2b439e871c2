"""The options that name an output file (`--output`, `--csv`, `--latex`, `--markdown`) or folder (`--csv-dir`,
`tira -o`), as every command treats them: `-` is standard output where the option takes it, and a path that
argrank may not replace (a device, a FIFO, a socket, a folder where a file goes: core.atomic.output_path) is refused
in one line before any work, not found after it."""

from __future__ import annotations

import argparse

from argrank.core.atomic import FILE, FOLDER, atomic_write_text, output_path

STDOUT = "-"


def check_outputs(args: argparse.Namespace, *options: str, written: str = FILE) -> None:
    """InputError for the first of `options` (attribute names) whose path may not be written as `written`."""
    for option in options:
        value = getattr(args, option, None)
        if value and value != STDOUT:
            output_path(value, written)


def check_output_folders(args: argparse.Namespace, *options: str) -> None:
    """check_outputs for options naming a folder the command writes files into."""
    check_outputs(args, *options, written=FOLDER)


def written(path: str | None, content: str) -> str:
    """Write `content` to `path` atomically; return it instead where the path is STDOUT (for the caller to print
    with the rest of standard output), else ""."""
    if path == STDOUT:
        return content
    if path:
        atomic_write_text(path, content)
    return ""
