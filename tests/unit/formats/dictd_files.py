"""Writes small dictionaries in FreeDict's dictd layout (NAME.index + NAME.dict.dz), for the tests of the reader and
of query translation: our own few entries, not FreeDict's."""

from __future__ import annotations

import gzip
from pathlib import Path

DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def base64_number(value: int) -> str:
    digits = ""
    while True:
        value, digit = divmod(value, 64)
        digits = DIGITS[digit] + digits
        if not value:
            return digits


def write_dictd(folder: Path, name: str, entries: dict[str, str]) -> Path:
    """`entries`: headword → the entry's lines after the headword line. Returns the index's path."""
    folder.mkdir(parents=True, exist_ok=True)
    body, lines = b"", []
    for headword, text in {"00databaseshort": "Test dictionary", **entries}.items():
        entry = f"{headword} /pronunciation/ <n>\n{text}\n".encode()
        lines.append(f"{headword}\t{base64_number(len(body))}\t{base64_number(len(entry))}\n")
        body += entry
    (folder / f"{name}.dict.dz").write_bytes(gzip.compress(body, mtime=0))
    index = folder / f"{name}.index"
    index.write_text("".join(lines), encoding="utf-8")
    return index
