"""A track's parts of `argrank evaluate` and `argrank compare`: the module its `command_line` names, else, for a
ranking track, the shared one (workflows.commands.ranking). Imported by name, when the command is given: the
modules import what scoring needs (numpy), which a `--help` does not load."""

from __future__ import annotations

import importlib
from types import ModuleType

from argrank.tracks.track import Track

RANKING = "workflows.commands.ranking"


def command_line(track: Track) -> ModuleType:
    """The module defining `evaluate(track, args)` and `compare(track, args)` for `track` (and, for a track of its
    own shape, `add_evaluate_arguments(parser)`)."""
    return importlib.import_module(track.command_line or RANKING)
