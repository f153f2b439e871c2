"""Content fingerprints, so a cached target is reused exactly when its inputs and parameters are unchanged."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

_CHUNK = 1 << 20
_file_digests: dict[tuple[str, int, int], str] = {}


def file_digest(path: str | Path) -> str:
    """BLAKE2b of a file's bytes; remembered per (path, size, mtime) because Luigi asks for outputs many times."""
    path = Path(path).resolve()
    stat = path.stat()
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    if key not in _file_digests:
        digest = hashlib.blake2b(digest_size=16)
        with open(path, "rb") as handle:
            while chunk := handle.read(_CHUNK):
                digest.update(chunk)
        _file_digests[key] = digest.hexdigest()
    return _file_digests[key]


def digest(*parts: Any) -> str:
    """A short stable hash of JSON-serialisable parts."""
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.blake2b(text.encode("utf-8"), digest_size=8).hexdigest()


def files_digest(paths: list[str | Path]) -> str:
    """One hash for a set of files, by name and content (names matter: the args.me layout is five named files)."""
    return digest(sorted((os.path.basename(p), file_digest(p)) for p in paths))
