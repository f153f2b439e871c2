"""Bilingual dictionaries in the dictd format, as FreeDict ships them and Debian installs them (`/usr/share/dictd`).

A dictionary is two files: `NAME.index`, a line per headword (`headword TAB offset TAB length`, offset and length
in dictd's base-64 digits), and `NAME.dict.dz` (gzip; dictzip is gzip with an index in its header) or `NAME.dict`,
the entries' texts. FreeDict's entries start with the headword line (headword, pronunciation, part of speech) and
list translations on the lines after it, numbered where there are senses, separated by commas or semicolons, with
grammar in angle brackets and glosses in parentheses. Some entries also hold definitions in the source language;
a query only needs short translations, so segments of more than MAX_WORDS words are dropped.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

from argrank.core.errors import InputError
from argrank.core.input_file import check_regular

MAX_WORDS = 3  # a longer segment is a definition or an example, not a translation
_DIGITS = {c: i for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")}
_MARKUP = re.compile(r"<[^>]*>|\([^)]*\)|\[[^\]]*\]|/[^/\n]*/")  # grammar, glosses, notes, pronunciation
_SENSE = re.compile(r"^\s*\d+\.\s*")
_SEGMENTS = re.compile(r"[,;]")


def read_dictd(index: str | Path) -> dict[str, list[str]]:
    """Lowercased headword → its translations, in the entries' order, from `index` and the entries file beside it
    (`.dict.dz` or `.dict`); the dictd header entries (`00database…`) are skipped. InputError names the file and
    line of an index line that does not parse or points past the entries."""
    index = Path(index)
    stem = index.with_suffix("")
    entries_file = next((path for path in (stem.with_suffix(".dict.dz"), stem.with_suffix(".dict")) if path.exists()),
                        None)  # fmt: skip
    if entries_file is None:
        raise InputError(index, "", f"no entries file beside it ({stem.name}.dict.dz or {stem.name}.dict)")
    check_regular(index)
    check_regular(entries_file)
    opener = gzip.open if entries_file.suffix == ".dz" else open
    with opener(entries_file, "rb") as handle:
        entries = handle.read()
    translations: dict[str, list[str]] = {}
    with open(index, encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            headword, offset, length = _index_line(index, number, line, len(entries))
            if headword.startswith("00database") or headword.startswith("00-database"):
                continue
            text = entries[offset : offset + length].decode("utf-8", errors="replace")
            found = entry_translations(text)
            if found:
                translations.setdefault(headword.lower(), []).extend(found)
    return translations


def entry_translations(text: str) -> list[str]:
    """The short translations of one entry's text (its first line, the headword's, left out)."""
    found = []
    for line in text.split("\n")[1:]:
        for segment in _SEGMENTS.split(_MARKUP.sub(" ", _SENSE.sub("", line))):
            words = segment.split()
            if words and len(words) <= MAX_WORDS:
                found.append(" ".join(words))
    return found


def _index_line(path: Path, number: int, line: str, size: int) -> tuple[str, int, int]:
    fields = line.rstrip("\n").split("\t")
    where = f"line {number}"
    if len(fields) != 3 or not all(fields[1:]) or not all(c in _DIGITS for c in fields[1] + fields[2]):
        raise InputError(path, where, f"expected 'headword TAB offset TAB length' in base-64 digits, got {line!r}")
    offset, length = (_number(field) for field in fields[1:])
    if offset + length > size:
        raise InputError(path, where, f"entry at {offset} + {length} bytes lies past the entries' {size} bytes")
    return fields[0], offset, length


def _number(digits: str) -> int:
    value = 0
    for digit in digits:
        value = value * 64 + _DIGITS[digit]
    return value
