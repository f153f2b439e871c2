"""The tracks by name, so the runs file, the graph, the report and the commands look a track up instead of naming it.

Each package under `argrank.tracks` defines `TRACK` (a `tracks.track.Track`) in its `__init__`; a track
from another distribution names its `TRACK` under the entry-point group `argrank.tracks`. Names are found without
importing any track (a command's `--help` needs only them); a track's package is imported when it is first asked for.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from argrank.core.entry_point_groups import entry_point_group

if TYPE_CHECKING:
    from argrank.tracks.track import Track

GROUP = "argrank.tracks"  # the entry-point group a track of another distribution is registered under


@cache
def locations() -> dict[str, str]:
    """Track name → `module:attribute` of its TRACK, ours first, in name order within each kind. Cached: a test
    that installs a track's entry point clears it, and core.entry_point_groups's (`forget()`)."""
    package = __name__.rpartition(".")[0]  # argrank.tracks, this module's folder
    found = pkgutil.iter_modules([str(Path(__file__).parent)])
    ours = {m.name: f"{package}.{m.name}:TRACK" for m in found if m.ispkg}
    theirs = {point.name: point.value for point in entry_point_group(GROUP) if point.name not in ours}
    return {**dict(sorted(ours.items())), **dict(sorted(theirs.items()))}


def track_names() -> list[str]:
    """Every registered track's name, without importing one."""
    return list(locations())


def track(name: str) -> Track:
    """The named track; ValueError naming the known ones for any other name."""
    if name not in locations():
        raise ValueError(f"unknown track {name!r} (known: {', '.join(locations())})")
    return _load(name)


@cache
def _load(name: str) -> Track:
    module, _, attribute = locations()[name].partition(":")
    loaded = getattr(importlib.import_module(module), attribute or "TRACK")
    if loaded.name != name:
        raise ValueError(f"{locations()[name]} is registered as track {name!r} but calls itself {loaded.name!r}")
    return loaded
