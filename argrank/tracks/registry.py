"""The tracks by name, so the runs file, the graph, the report and the commands look a track up instead of naming it.

Each package under `argrank.tracks` defines `TRACK` (a `tracks.adapter.TrackAdapter`) in its `__init__`; a track
from another distribution names its `TRACK` under the entry-point group `argrank.tracks`. Names are found without
importing any track (a command's `--help` needs only them); a track's package is imported when it is first asked for.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from typing import TYPE_CHECKING

from argrank.core.entry_point_groups import entry_point_group

if TYPE_CHECKING:
    from argrank.tracks.adapter import TrackAdapter

GROUP = "argrank.tracks"  # the entry-point group a track of another distribution is registered under


@cache
def locations() -> dict[str, str]:
    """Track name → `module:attribute` of its TRACK, ours first, in name order within each kind. Cached: a test
    that installs a track's entry point clears it, and core.entry_point_groups's (`forget()`)."""
    import argrank.tracks as package

    ours = {m.name: f"{package.__name__}.{m.name}:TRACK" for m in pkgutil.iter_modules(package.__path__) if m.ispkg}
    theirs = {point.name: point.value for point in entry_point_group(GROUP) if point.name not in ours}
    return {**dict(sorted(ours.items())), **dict(sorted(theirs.items()))}


def track_names() -> list[str]:
    """Every registered track's name, without importing one."""
    return list(locations())


def track(name: str) -> TrackAdapter:
    """The named track; ValueError naming the known ones for any other name."""
    if name not in locations():
        raise ValueError(f"unknown track {name!r} (known: {', '.join(locations())})")
    return _load(name)


@cache
def _load(name: str) -> TrackAdapter:
    module, _, attribute = locations()[name].partition(":")
    adapter = getattr(importlib.import_module(module), attribute or "TRACK")
    if adapter.name != name:
        raise ValueError(f"{locations()[name]} is registered as track {name!r} but calls itself {adapter.name!r}")
    return adapter
