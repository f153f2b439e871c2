"""Is a cached target still what its stage wrote? Each file's size, times and content digest, recorded beside the
target when it was written, checked whenever the graph asks whether the stage is done.

A damaged `data.npy` or Parquet file otherwise fails every later run with a traceback, or worse, reads as other
data; with the record, the stage is simply done again. The check must be cheap, since Luigi asks for every target
many times while it schedules: a `stat` per file, and the file hashed again only where its modification time or
its status-change time (ctime) is not the one recorded. Writing a file sets both; setting the modification time
back sets the ctime, which no program can set back, so a file changed in place, even to the same size and time, is
found. One merely touched, linked or copied is hashed once more and, its content the same, its record brought up
to date.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import xxhash

from argrank.core.atomic import atomic_write_text
from argrank.core.fingerprint import content_digest

DIGEST = "xxh3_128"  # the key of a file's content digest in a record (core.fingerprint.content_digest)
_RECORD = ".written.json"  # a target's record is `.<target's name>.written.json` beside it
CHECKSUM = "\0checksum"  # the record's own checksum, under a key no file name can be (file names hold no NUL)


def record_written(target: Path) -> None:
    """Write what `target` (a file, or every file in a folder) is now beside it: each file's size, modification and
    status-change times and digest."""
    forget_written(target)
    atomic_write_text(_record_file(target), _record_text(_describe(target)))


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
    changed_times = False
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
        times = {"mtime_ns": stat.st_mtime_ns, "ctime_ns": stat.st_ctime_ns}
        changed = any(entry.get(key) != value for key, value in times.items())
        if deep or changed:
            if content_digest(path) != entry[DIGEST]:
                return f"{path}: its content is not what was written (same size, changed in place)"
            changed_times |= changed
            entry.update(times)
    if changed_times:  # the same content: hashed once, not at every check from now on
        _rewrite_record(record_file, recorded)
    return None


def _rewrite_record(record_file: Path, recorded: dict[str, dict]) -> None:
    """The record with its files' times brought up to date; where it cannot be written (a read-only output folder),
    the files are simply hashed again next time."""
    try:
        atomic_write_text(record_file, _record_text(recorded))
    except OSError:
        pass


def _record_text(recorded: dict[str, dict]) -> str:
    """A record as written: its entries and, under CHECKSUM, an XXH3-64 of them, so that a changed digit of a
    recorded digest or size is found when the record is read, not taken for the target's state."""
    entries = json.dumps(recorded, sort_keys=True)
    return json.dumps({**recorded, CHECKSUM: xxhash.xxh3_64_hexdigest(entries.encode())}, sort_keys=True)


def remove_damaged(root: Path) -> list[str]:
    """Hash every file of every recorded target under `root` against its record, and remove each target that is
    not what was written, with its record, so that a build makes it again: what the cheap check cannot see (bytes a
    disk changed without any time changing) is found here. What was found and removed, a line per target."""
    found = []
    for record_file in sorted(root.rglob(f".*{_RECORD}")):
        target = record_file.with_name(record_file.name[1 : -len(_RECORD)])
        damaged = damage(target, deep=True) if target.exists() else None
        if damaged:
            forget_written(target)
            remove_target(target)
            found.append(f"{damaged}: {target.name} removed, to be made again")
    return found


def remove_target(target: Path) -> None:
    """Remove a stage's target, a file or a folder, whatever is left of it."""
    if target.is_dir() and not target.is_symlink():
        shutil.rmtree(target, ignore_errors=True)
    else:
        target.unlink(missing_ok=True)


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
    checksum = recorded.pop(CHECKSUM, None)  # a record written before checksums were kept has none
    if checksum is not None and checksum != xxhash.xxh3_64_hexdigest(json.dumps(recorded, sort_keys=True).encode()):
        return None
    for entry in recorded.values():
        if not isinstance(entry, dict) or not isinstance(entry.get(DIGEST), str):
            return None
        if type(entry.get("bytes")) is not int or type(entry.get("mtime_ns")) is not int:
            return None
        if type(entry.get("ctime_ns", 0)) is not int:  # a record written before ctimes were kept has none
            return None
    return recorded


def _describe(target: Path) -> dict[str, dict]:
    files = sorted(p for p in target.rglob("*") if p.is_file()) if target.is_dir() else [target]
    described = {}
    for path in files:
        if path.exists():
            stat = path.stat()
            name = path.relative_to(target).as_posix() if target.is_dir() else target.name
            described[name] = {"bytes": stat.st_size, "mtime_ns": stat.st_mtime_ns, "ctime_ns": stat.st_ctime_ns,
                               DIGEST: content_digest(path)}  # fmt: skip
    return described


def _record_file(target: Path) -> Path:
    return target.with_name(f".{target.name}{_RECORD}")
