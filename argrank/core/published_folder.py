"""Folders published under fixed names (a track's submission, an experiment's report): all or nothing.

A publication is written into a new temporary folder beside the published one, with its manifest (the signature it
was made from, its files' sizes and digests) last, and then takes the published folder's place by two renames:
whatever stops a run, the folder holds one whole publication or none (a run killed between the two renames leaves
none, and the next run publishes again), never a new run file beside an old score table. Nothing is deleted by the
names a manifest lists, so a damaged or tampered manifest cannot remove files anywhere; the folder replaced is
removed whole. Temporary folders of interrupted publications are removed on the next one (core.atomic).
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from argrank.core.atomic import FOLDER, output_path, pause_before_rename, remove_leftovers, temporary_folder
from argrank.core.fingerprint import content_digest
from argrank.core.integrity import DIGEST

MANIFEST = "manifest.json"


def is_published(folder: Path, signature: str) -> bool:
    """Whether `folder` holds the whole publication made from `signature`: every file its manifest lists, of the
    size and content it was written with (a truncated evaluation.json was taken as published, and every reader of
    it failed; a run file overwritten with as many other bytes stayed published). A publication is a few small
    files, so each is hashed every time."""
    manifest = read_manifest(folder)
    files = manifest.get("files")
    if manifest.get("signature") != signature or not isinstance(files, dict):
        return False
    return all(_inside(folder, name) and _as_written(folder / name, entry) for name, entry in files.items())


def _as_written(path: Path, entry: object) -> bool:
    """Whether the file is the one a manifest's entry describes ({"bytes": size, DIGEST: digest})."""
    if not isinstance(entry, dict) or _size(path) != entry.get("bytes"):
        return False
    return content_digest(path) == entry.get(DIGEST)


def publish(folder: Path, signature: str, write: Callable[[Path], list[str]]) -> None:
    """Publish what `write` puts into the folder it is given (it returns the names of the files it wrote) as
    `folder`, all at once (where `folder` is a link, the folder it leads to). ValueError if `write` names a file
    twice or one outside the folder; InputError where something other than a folder stands at `folder`."""
    folder = output_path(folder, FOLDER)
    remove_leftovers(folder.parent)
    staging = temporary_folder(folder)
    files = write(staging)
    if len(set(files)) != len(files) or MANIFEST in files:
        raise ValueError(f"{folder}: two files of the publication have one name ({', '.join(sorted(files))})")
    outside = [name for name in files if not _inside(staging, name)]
    if outside:
        raise ValueError(f"{folder}: file name {outside[0]!r} would be written outside the folder")
    described = {name: {"bytes": (staging / name).stat().st_size, DIGEST: content_digest(staging / name)}
                 for name in files}  # fmt: skip
    (staging / MANIFEST).write_text(json.dumps({"signature": signature, "files": described}, indent=2) + "\n", "utf-8")
    staging.chmod(0o777 & ~_umask())  # a temporary folder is the owner's alone; a published one is as mkdir makes it
    pause_before_rename(folder)
    replaced = None
    with _locked(folder):  # two runs publishing one folder at once: the second rename found it taken, and failed
        output_path(folder, FOLDER)  # again: nothing else may have taken its place meanwhile
        if folder.exists():
            replaced = temporary_folder(folder)
            os.replace(folder, replaced / folder.name)
        os.replace(staging, folder)
    if replaced is not None:
        shutil.rmtree(replaced, ignore_errors=True)


@contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """Hold the lock file beside `folder` (`.<name>.lock`, kept: removing it would race with a waiting writer)."""
    with open(folder.parent / f".{folder.name}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def read_manifest(folder: Path) -> dict:
    """What a published folder's manifest says (empty if there is none or it is damaged)."""
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):  # missing, a folder, not UTF-8, not JSON: published again
        return {}
    return manifest if isinstance(manifest, dict) else {}


def _size(path: Path) -> int | None:
    """A regular file's size, None for anything else (missing, a folder, a link to nothing)."""
    try:
        return path.stat().st_size if path.is_file() else None
    except OSError:
        return None


def _inside(folder: Path, name: object) -> bool:
    """Whether `name` is a plain relative path that stays inside `folder`."""
    if not isinstance(name, str) or not name or Path(name).is_absolute():
        return False
    return (folder / name).resolve().is_relative_to(folder.resolve())
