"""Each track's Luigi tasks, found through the track (argrank.tracks.registry): the module its `tasks` names defines
`TASKS`, what the shared stages and publishers need of it. Nothing outside a track's module names its tasks, and
the shared stages import none: a track's task module (tasks.tracks) is loaded by name, where a graph asks for it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from argrank.tracks.registry import track

if TYPE_CHECKING:
    import luigi

    from argrank.tracks.section import RunSpec, TrackSection


@dataclass(frozen=True)
class TrackTasks:
    """A track's tasks: its ingest (the documents' table every later stage reads), its publisher (the track's
    folder of an experiment) and, for a ranking track, the task writing one configured run and the task evaluating
    it (None where the shared ones do: tasks.runs.ranking_run, tasks.evaluate.ranking_evaluation)."""

    ingest: type[luigi.Task]
    publisher: type[luigi.Task] | None = None  # None: tasks.publish.PublishTrack
    run_task: Callable[[TrackSection, RunSpec], Any] | None = None  # (section, run) → the task writing the run
    evaluation_task: Callable[[Any, TrackSection], Any] | None = None  # (that task, section) → the task evaluating it


@cache
def track_tasks(name: str) -> TrackTasks:
    """The tasks of the registered track `name`."""
    return importlib.import_module(track(name).tasks).TASKS
