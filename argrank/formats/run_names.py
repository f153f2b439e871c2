"""One name per run file, everywhere a run is shown: `fuse`, `evaluate`, `compare`, `--participants`, the Python
API and the report.

A run is named by its file's stem while the stems differ. The organizers publish a year's runs as
`runs/TEAM/output/runN.txt`, where stems repeat across teams: there every file is named by its path relative to the
folder the files share, without its extension and without the organizers' `output` folder (`Captain-Levi/run5`).
Names given by the user win. Two files that would still get one name are refused, naming both, so that no figure
is ever reported under a name that belongs to two runs.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path, PurePosixPath

from argrank.core.errors import printable

OUTPUT_FOLDER = "output"  # the organizers' folder of a team's runs, left out of a name


def run_names(paths: Sequence[str | Path], names: Sequence[str] | None = None, kind: str = "run") -> list[str]:
    """A name per file of `paths`, in order: `names` where given (one per file), else the stems, else (stems
    repeat) each path relative to the files' common folder, without extension and `output` folders. ValueError
    where two files would share a name, naming both (`kind`: what the files are, for the message)."""
    if names:
        if len(names) != len(paths):
            raise ValueError(f"{len(names)} names for {len(paths)} {kind} files: give one name per {kind}")
        for name in names:
            if not name or name != name.strip() or any(not char.isprintable() for char in name):
                raise ValueError(f"{kind} name {printable(name)!r}: expected visible text, no line breaks")
        return _unique(paths, list(names), kind)
    stems = [Path(path).stem for path in paths]
    if len(set(stems)) == len(stems):
        return stems
    return _unique(paths, _relative_names(paths), kind)


def _relative_names(paths: Sequence[str | Path]) -> list[str]:
    """Each path relative to the folder all share, as a POSIX path without the file's extension and without the
    organizers' `output` folders."""
    absolute = [Path(os.path.abspath(path)) for path in paths]
    common = Path(os.path.commonpath([path.parent for path in absolute]))
    named = []
    for path in absolute:
        parts = [part for part in path.relative_to(common).with_suffix("").parts[:-1] if part != OUTPUT_FOLDER]
        named.append(str(PurePosixPath(*parts, path.stem)))
    return named


def _unique(paths: Sequence[str | Path], names: list[str], kind: str) -> list[str]:
    """`names`, or ValueError naming the first two files that share one."""
    refuse_shared(list(zip(names, paths)), kind)
    return names


def refuse_shared(named: Sequence[tuple[str, str | Path]], kind: str = "run") -> None:
    """ValueError where two (name, source) pairs share a name, naming both sources: runs of different origins (an
    experiment's tags, run files, a participants folder) shown in one table."""
    first: dict[str, str | Path] = {}
    for name, source in named:
        if name in first:
            raise ValueError(f"two {kind}s would be named {printable(name)!r}: {printable(str(first[name]))} and "
                             f"{printable(str(source))} (name them apart with --name)")  # fmt: skip
        first[name] = source
