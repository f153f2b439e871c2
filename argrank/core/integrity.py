"""Is a cached target still what its stage wrote? Each file's size, modification time and content digest, recorded
beside the target when it was written, checked whenever the graph asks whether the stage is done.

A damaged `data.npy` or Parquet file otherwise fails every later run with a traceback, or worse, reads as other
data; with the record, the stage is simply done again. The check must be cheap, since Luigi asks for every target
many times while it schedules: a `stat` per file, and the file hashed again only where its modification time is
not the one recorded (so a file damaged in place, even to the same size, is found; one merely touched is hashed
once more and taken as it is).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from argrank.core.atomic import atomic_write_text
from argrank.core.fingerprint import content_digest

DIGEST = "xxh3_128"  # the key of a file's content digest in a record (core.fingerprint.content_digest)


def record_written(target: Path) -> None:
    """Write what `target` (a file, or every file in a folder) is now beside it: each file's size, modification
    time and digest."""
    forget_written(target)
    atomic_write_text(_record_file(target), json.dumps(_describe(target), sort_keys=True))


def damage(target: Path, deep: bool = False) -> str | None:
    """What differs from the record (a file missing, of another size, or of other content), or None; None too where
    nothing was recorded (a target from before records were kept), which is taken as it is. A record that cannot
    be read is damage too: the target's own state is unknown, so its stage is done again and the record rewritten.
    `deep` hashes every file, its modification time as recorded or not (where reading it has failed)."""
    record_file = _record_file(target)
    if not record_file.exists() and not record_file.is_symlink():
        return None
    recorded = _read_record(record_file)
    if recorded is None:
        return f"{record_file}: not a record of the files written"
    for name, entry in sorted(recorded.items()):
        path = target / name if target.is_dir() else target
        try:
            stat = path.stat() if path.is_file() else None
        except OSError:
            stat = None
        if stat is None:
            return f"{path}: missing"
        if stat.st_size != entry["bytes"]:
            return f"{path}: {stat.st_size:,} bytes, written as {entry['bytes']:,}"
        if (deep or stat.st_mtime_ns != entry["mtime_ns"]) and content_digest(path) != entry[DIGEST]:
            return f"{path}: its content is not what was written (same size, changed in place)"
    return None


def forget_written(target: Path) -> None:
    """Remove the record of `target`, whatever it is (a damaged one may be a folder), and any older record of its
    sizes alone."""
    for record_file in (_record_file(target), target.with_name(f".{target.name}.sizes.json")):
        if record_file.is_dir() and not record_file.is_symlink():
            shutil.rmtree(record_file)
        else:
            record_file.unlink(missing_ok=True)


def _read_record(record_file: Path) -> dict[str, dict] | None:
    """The record's entries, or None where it is not one (a folder, not UTF-8, not JSON, entries of other types)."""
    try:
        recorded = json.loads(record_file.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(recorded, dict):
        return None
    for entry in recorded.values():
        if not isinstance(entry, dict) or not isinstance(entry.get(DIGEST), str):
            return None
        if type(entry.get("bytes")) is not int or type(entry.get("mtime_ns")) is not int:
            return None
    return recorded


def _describe(target: Path) -> dict[str, dict]:
    files = sorted(p for p in target.rglob("*") if p.is_file()) if target.is_dir() else [target]
    described = {}
    for path in files:
        if path.exists():
            stat = path.stat()
            name = path.relative_to(target).as_posix() if target.is_dir() else target.name
            described[name] = {"bytes": stat.st_size, "mtime_ns": stat.st_mtime_ns, DIGEST: content_digest(path)}
    return described


def _record_file(target: Path) -> Path:
    return target.with_name(f".{target.name}.written.json")
