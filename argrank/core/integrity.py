"""Is a cached target still what its stage wrote? Each file's size, recorded beside the target when it was
written, checked whenever the graph asks whether the stage is done.

A truncated `data.npy` or Parquet file otherwise fails every later run with a traceback; with the sizes on record
the stage is simply done again. Sizes, not checksums: checking must cost a `stat`, since Luigi asks for every
target many times while it schedules, and a truncated or overwritten-in-place file changes size.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from argrank.core.atomic import atomic_write_text


def record_sizes(target: Path) -> None:
    """Write the sizes of `target` (a file, or every file in a folder) beside it."""
    forget_sizes(target)
    atomic_write_text(_sizes_file(target), json.dumps(_sizes(target), sort_keys=True))


def damage(target: Path) -> str | None:
    """What differs from the recorded sizes (a file missing, or of another size), or None; None too where no sizes
    were recorded (a target from before they were), which is taken as it is. A record that cannot be read as
    sizes is damage too: the target's own state is unknown, so its stage is done again and the record rewritten."""
    sizes_file = _sizes_file(target)
    if not sizes_file.exists() and not sizes_file.is_symlink():
        return None
    try:
        recorded = json.loads(sizes_file.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):  # a folder, not UTF-8, not JSON
        recorded = None
    if not isinstance(recorded, dict) or not all(type(size) is int for size in recorded.values()):
        return f"{sizes_file}: not a record of sizes"
    found = _sizes(target)
    for name, size in sorted(recorded.items()):
        if name not in found:
            return f"{target / name if target.is_dir() else target}: missing"
        if found[name] != size:
            path = target / name if target.is_dir() else target
            return f"{path}: {found[name]:,} bytes, written as {size:,}"
    return None


def forget_sizes(target: Path) -> None:
    """Remove the record of `target`'s sizes, whatever it is (a damaged one may be a folder)."""
    sizes_file = _sizes_file(target)
    if sizes_file.is_dir() and not sizes_file.is_symlink():
        shutil.rmtree(sizes_file)
    else:
        sizes_file.unlink(missing_ok=True)


def _sizes(target: Path) -> dict[str, int]:
    if target.is_dir():
        return {p.relative_to(target).as_posix(): p.stat().st_size for p in sorted(target.rglob("*")) if p.is_file()}
    return {target.name: target.stat().st_size} if target.exists() else {}


def _sizes_file(target: Path) -> Path:
    return target.with_name(f".{target.name}.sizes.json")
