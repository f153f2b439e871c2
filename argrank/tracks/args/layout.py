"""Where an args.me corpus's files are: what a runs file's `corpus:` may name. Kept apart from the ingest (pyarrow,
ijson) because the runs file's reading checks it, and commands that only read the runs file start without those."""

from __future__ import annotations

import os
from pathlib import Path

from argrank.core.errors import InputError
from argrank.core.input_file import check_regular

# Version 2020-04-01 ships one file per debate portal; older versions ship one file.
SOURCE_FILES = ("debateorg.json", "debatepedia.json", "debatewise.json", "idebate.json", "parliamentary.json")
SINGLE_FILE = "args-me.json"


def corpus_files(directory: str | Path) -> list[Path]:
    """The corpus files of `directory`: the five per-portal files in fixed order, else the single args-me.json;
    `directory` may also be one args.me JSON file by any name (ir_datasets caches version 1.0 as `1.0.json`), or a
    BEIR zip (is_beir_zip)."""
    directory = Path(directory)
    if directory.is_file():
        return [directory]
    if not directory.is_dir():
        if os.path.lexists(directory):
            check_regular(directory)  # a FIFO, a device or a link to nothing, said as such
        raise InputError(directory, "", "no args.me corpus: no such folder or file")
    split = [directory / name for name in SOURCE_FILES]
    present = [path.is_file() for path in split]
    if all(present):
        return split
    if any(present):
        missing = ", ".join(path.name for path, here in zip(split, present) if not here)
        raise InputError(directory, "", f"incomplete args.me corpus: missing {missing}")
    single = directory / SINGLE_FILE
    if single.is_file():
        return [single]
    raise InputError(directory, "", f"no args.me corpus: neither {', '.join(SOURCE_FILES)} nor {SINGLE_FILE}")


def is_beir_zip(path: str | Path) -> bool:
    """Whether a corpus file is BEIR's zip (ir_datasets' `beir/webis-touche2020/v2/source.zip`), not args.me JSON."""
    return Path(path).suffix == ".zip"
