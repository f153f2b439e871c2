"""Each of the graph's task classes lists its parameters once (tasks/known_parameters.py): the same list, in the
same order, as Luigi's own listing, and a subclass or an inheriting class its own."""

from __future__ import annotations

import luigi
from luigi.task_register import Register
from luigi.util import inherits

import workflows.graph  # noqa: F401 (registers the graph's shared task classes)
from argrank.tracks.registry import track_names
from tasks.base import CachedTask
from tasks.known_parameters import KnownParameters
from tasks.tracks import track_tasks


def luigis_own(cls: type) -> list:
    return luigi.Task.get_params.__func__(cls)


def test_every_graph_class_lists_what_luigi_lists():
    for name in track_names():
        track_tasks(name)  # registers the track's own task classes
    ours = [cls for cls in Register._get_reg().values() if isinstance(cls, type) and issubclass(cls, KnownParameters)]
    assert len(ours) > 30
    for cls in ours:
        assert cls.get_params() == luigis_own(cls), cls.__name__
        assert cls.get_params() == luigis_own(cls), cls.__name__  # from the class's own list, the second time
        assert "_known_parameters" in cls.__dict__, cls.__name__


def test_a_subclass_and_an_inheriting_class_list_their_own_parameters():
    class ListedBase(CachedTask):
        alpha = luigi.IntParameter(default=1)

    assert [name for name, _ in ListedBase.get_params()] == ["alpha"]

    class ListedChild(ListedBase):
        beta = luigi.IntParameter(default=2)

    @inherits(ListedChild)
    class ListedHeir(CachedTask):
        gamma = luigi.IntParameter(default=3)

    assert [name for name, _ in ListedChild.get_params()] == ["alpha", "beta"]
    assert sorted(name for name, _ in ListedHeir.get_params()) == ["alpha", "beta", "gamma"]
    assert ListedHeir.get_params() == luigis_own(ListedHeir)


def test_the_list_handed_out_is_a_copy():
    params = CachedTask.get_params()
    params.append(("intruder", luigi.Parameter()))
    assert CachedTask.get_params() == luigis_own(CachedTask)
