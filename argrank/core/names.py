"""One rule for every name a runs file gives that becomes part of a path: run tags (`<tag>.txt`), qrels names
(`<tag>.<qrels>.per-topic.csv`) and experiment names (`experiments/<name>/`).

Such a name must stay one plain file-name part inside its folder: no separator or `..` that leads out of it, no
leading '.' (hidden, and our temporary files' prefix), and none of the names the publishers write themselves, so
that a run tagged `evaluation` cannot be overwritten by `evaluation.txt`.
"""

from __future__ import annotations

import re
from typing import Any

_PLAIN = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]*")
# Stems of the files and folders published beside the named ones (evaluation.txt/.json, manifest.json,
# report/), compared case-insensitively for file systems that do.
RESERVED = ("evaluation", "manifest", "report")
# A published file joins two names (`<tag>.<qrels>.per-topic.csv`) and is written under a temporary name some 25
# characters longer: two names of this length stay within the 255 bytes a file name may have.
MAX_LENGTH = 100
RULE = f"at most {MAX_LENGTH} letters, digits, '.', '_' or '-' (no spaces), not starting with '.' and without '..'"


def name_problem(name: Any) -> str | None:
    """Why `name` cannot be part of a path, or None when it can."""
    if not isinstance(name, str) or not _PLAIN.fullmatch(name) or ".." in name:
        return f"a name is {RULE} (got {name!r})"
    if len(name) > MAX_LENGTH:
        return f"a name is {RULE} (got {len(name)} characters: {name[:40]!r}…)"
    if name.casefold() in RESERVED:
        return f"{name!r} is reserved for a published file (reserved: {', '.join(RESERVED)})"
    return None
