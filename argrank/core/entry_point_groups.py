"""Entry points of the installed distributions, read once per process.

Each `importlib.metadata.entry_points(group=...)` reads every installed distribution's entry points again; the
runs file's check asks for two groups, the tracks' (tracks.registry) and spaCy's lookup tables
(tracks.section.supported_languages), in every run.
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import EntryPoint, EntryPoints, entry_points


def entry_point_group(group: str) -> tuple[EntryPoint, ...]:
    """The entry points registered under `group`."""
    return tuple(_every_entry_point().select(group=group))


@cache
def _every_entry_point() -> EntryPoints:
    """Cached: a test that installs a distribution clears it (`forget()`)."""
    return entry_points()


def forget() -> None:
    """Read the distributions' entry points afresh on the next ask (after one was installed)."""
    _every_entry_point.cache_clear()
