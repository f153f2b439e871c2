"""A year's published runs, as the organizers lay them out: `runs/TEAM/output/runN.txt`, a README beside the team
folders, and now and then a team's notes or a log next to its runs; or simply a flat folder of run files.

Every file under the folder (hidden ones aside, sub-folders included) whose first line is a run line (six fields,
or five and a tag in double quotes, an integer rank and a number for the score) is a run; any other file is skipped
and counted, and an empty one is skipped too, both for the caller to warn about. Runs are named as everywhere
(formats.run_names): by stem, or by their path below the folder where stems repeat (`Grimjack/run1`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from argrank.formats.run_names import run_names
from argrank.formats.runfile import FIELDS, quoted_tag

SNIFFED = 1 << 16  # bytes of a file read to find its first line


@dataclass(frozen=True)
class ParticipantRuns:
    """The runs of a folder by name, in the order of their paths, and what was not read: files that are no runs
    (`skipped`) and empty files (`empty`)."""

    runs: dict[str, Path]
    skipped: list[Path] = field(default_factory=list)
    empty: list[Path] = field(default_factory=list)

    def notes(self, folder: Path) -> list[str]:
        """One warning line for the files skipped and one for the empty files, naming them below `folder`."""
        out = []
        for what, files in (("not a run file", self.skipped), ("empty", self.empty)):
            if files:
                shown = ", ".join(str(path.relative_to(folder)) for path in files[:5])
                more = f" and {len(files) - 5} more" if len(files) > 5 else ""
                out.append(f"{folder}: {len(files)} file{'s' if len(files) > 1 else ''} skipped, {what}: {shown}{more}")
        return out


def participant_runs(folder: Path) -> ParticipantRuns:
    """The runs under `folder` (module docstring). ValueError for a path that is no folder, one with no run file,
    and two runs that would share a name."""
    if not folder.is_dir():
        raise ValueError(f"{folder}: not a folder of run files")
    runs, skipped, empty = [], [], []
    for path in _files(folder):
        kind = _kind(path)
        (runs if kind == "run" else empty if kind == "empty" else skipped).append(path)
    if not runs:
        raise ValueError(f"{folder}: no run file in it ({len(skipped) + len(empty)} other files)")
    return ParticipantRuns(dict(zip(run_names(runs), runs)), skipped, empty)


def _files(folder: Path) -> list[Path]:
    """Every regular file under `folder`, hidden files and folders aside, in path order; links to folders are not
    followed (a link could lead back up)."""
    found = []
    for root, folders, files in os.walk(folder):
        folders[:] = [name for name in folders if not name.startswith(".")]
        found += [Path(root) / name for name in files if not name.startswith(".") and (Path(root) / name).is_file()]
    return sorted(found)


def _kind(path: Path) -> str:
    """"run", "empty" (nothing but white space) or "other", from the file's first line."""
    try:
        with path.open("rb") as file:
            head = file.read(SNIFFED)
    except OSError:
        return "other"
    if not head.strip():
        return "empty" if path.stat().st_size == len(head) else "other"
    first = next(line for line in head.splitlines() if line.strip())
    try:
        fields = first.decode("utf-8").lstrip("\ufeff").split()
    except UnicodeDecodeError:
        return "other"
    if len(fields) > len(FIELDS) and quoted_tag(fields) is not None:
        fields = fields[: len(FIELDS) - 1] + ["tag"]
    if len(fields) != len(FIELDS):
        return "other"
    try:
        int(fields[3])
        float(fields[4])
    except ValueError:
        return "other"
    return "run"
