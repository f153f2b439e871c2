"""Where an image collection lies and a fingerprint of its files, apart from the ingest (collection.py): the graph
checks these for every image task, and importing the ingest's parsers (lxml, Pillow) cost each process 0.025 s."""

from __future__ import annotations

import os
from pathlib import Path

from argrank.core.errors import InputError
from argrank.core.fingerprint import digest


def collection_root(location: str | Path) -> Path:
    """The collection folder, the one holding `images/`; InputError if `location` is not one."""
    location = Path(location)
    if (location / "images").is_dir():
        return location
    problem = "no images/ folder: not a Touché image collection" if location.is_dir() else "folder not found"
    raise InputError(location, "", problem)


def collection_digest(root: str | Path) -> str:
    """A fingerprint of the files under `images/` by relative path, size and modification time.

    Not by content: hashing 56,000 images and their MB-size DOMs would read the whole collection each time a
    cache is checked. A changed file changes size or mtime; a copy that keeps mtimes keeps the fingerprint.
    """
    images = Path(root) / "images"
    return digest([(path.name, _entry_digest(path, images)) for path in sorted(images.iterdir())])


def _entry_digest(path: Path, images: Path) -> str:
    """Digest of one entry of `images/`: a shard folder's files, or one stray file."""
    files = [path] if path.is_file() else (Path(top) / name for top, _, names in os.walk(path) for name in names)
    return digest(sorted((file.relative_to(images).as_posix(), *_size_and_mtime(file)) for file in files))


def _size_and_mtime(path: Path) -> tuple[int, int]:
    """The file's, or where it is a link to nothing, the link's own (ingest skips it, counted)."""
    status = path.stat() if path.exists() else path.lstat()
    return status.st_size, status.st_mtime_ns
