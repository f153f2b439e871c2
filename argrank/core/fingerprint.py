"""Content fingerprints, so a cached target is reused exactly when its inputs and parameters are unchanged."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import shutil
from pathlib import Path
from typing import Any

import xxhash

from argrank.core.atomic import atomic_write_text
from argrank.core.input_file import check_regular

_CHUNK = 1 << 20
ALGORITHM = "xxh3_128"  # in the name of each kept digest: a record of another hash is never read as this one's
_DIGEST = re.compile(r"[0-9a-f]{32}")  # what content_digest returns
_RECORD = re.compile(r"([0-9a-f]{32}) ([0-9a-f]{16})")  # a kept digest and its record's own checksum
log = logging.getLogger(__name__)
_file_digests: dict[tuple[str, int, int], str] = {}
_store: Path | None = None


def remember_digests_in(folder: str | Path | None) -> None:
    """Keep file digests in `folder` too, so a new process need not read a whole corpus again to find it
    unchanged. Like make, this trusts a file with the same path, size and modification
    time (to the nanosecond) to have the same bytes."""
    global _store
    _store = Path(folder) if folder is not None else None


def file_digest(path: str | Path) -> str:
    """XXH3-128 of a file's bytes, in hex; remembered per (path, size, mtime) because Luigi asks for outputs many
    times."""
    check_regular(path)
    path = Path(path).resolve()
    stat = path.stat()
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    if key not in _file_digests:
        stored = _store / digest(ALGORITHM, *key) if _store is not None else None
        remembered = _remembered(stored) if stored is not None else None
        if remembered is not None:
            _file_digests[key] = remembered
        else:
            _file_digests[key] = content_digest(path)
            if stored is not None:
                try:
                    atomic_write_text(stored, _record(stored, _file_digests[key]))
                except OSError:  # a read-only or full output folder: remembering is only a saving
                    pass
    return _file_digests[key]


def _record(stored: Path, found: str) -> str:
    """A kept digest's record: the digest and a checksum of it and of the record's name, so that a changed digit
    (or a record moved under another name) is found, not trusted."""
    return f"{found} {xxhash.xxh3_64_hexdigest(f'{stored.name}:{found}'.encode())}"


def _remembered(stored: Path) -> str | None:
    """The digest kept in `stored`, None where there is none; a damaged record is removed with a warning (the
    file is hashed again, and its digest kept anew). A record of the earlier form, a digest without its checksum,
    is hashed again quietly."""
    if not stored.exists() and not stored.is_symlink():
        return None
    problem = record_problem(stored)
    if problem is None:
        return _RECORD.fullmatch(stored.read_text(encoding="utf-8")).group(1)
    if problem != _EARLIER:
        log.warning("damaged digest record %s (%s): the file it stands for is hashed again", stored, problem)
    _remove(stored)
    return None


_EARLIER = "a record of the earlier form, without its checksum"


def record_problem(stored: Path) -> str | None:
    """What is wrong with a kept digest's record, or None where it is sound."""
    try:
        text = stored.read_text(encoding="utf-8") if stored.is_file() and not stored.is_symlink() else None
    except (OSError, UnicodeDecodeError):
        text = None
    if text is None:
        return "not a readable file"
    if _DIGEST.fullmatch(text):
        return _EARLIER
    found = _RECORD.fullmatch(text)
    if found is None:
        return "not a digest and its checksum"
    if _record(stored, found.group(1)) != text:
        return "its checksum does not match"
    return None


def remove_damaged_records(folder: Path) -> list[str]:
    """Every kept digest's record under `folder` checked: a damaged one removed (the file it stands for is hashed
    again when next needed). What was found, a line per record."""
    found = []
    for stored in sorted(folder.iterdir()) if folder.is_dir() else []:
        problem = record_problem(stored)
        if problem is not None and problem != _EARLIER:
            _remove(stored)
            found.append(f"{stored}: {problem}: removed, its file to be hashed again")
    return found


def _remove(stored: Path) -> None:
    if stored.is_dir() and not stored.is_symlink():
        shutil.rmtree(stored, ignore_errors=True)
    else:
        stored.unlink(missing_ok=True)


def content_digest(path: str | Path) -> str:
    """The file's bytes hashed afresh (no memo), XXH3-128 in hex. Not a cryptographic hash: the digest names a
    cache entry or checks one, nobody gains by forging one, and it hashes at memory speed, where SHA-256, even with
    the processor's instructions for it, would make hashing the corpus a noticeable part of the first run on it."""
    hashed = xxhash.xxh3_128()
    with open(path, "rb") as handle:
        while chunk := handle.read(_CHUNK):
            hashed.update(chunk)
    return hashed.hexdigest()


def digest(*parts: Any) -> str:
    """A short stable hash of JSON-serialisable parts."""
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.blake2b(text.encode("utf-8"), digest_size=8).hexdigest()


def files_digest(paths: list[str | Path]) -> str:
    """One hash for a set of files, by name and content (names matter: the args.me layout is five named files)."""
    return digest(sorted((os.path.basename(p), file_digest(p)) for p in paths))
