"""once_per_task: a task's answer computed once per task object, and afresh for the next build's objects."""

from __future__ import annotations

import luigi

from tasks.base import once_per_task
from workflows.setup import fresh_build


class Counted(luigi.Task):
    name = luigi.Parameter()
    computed: list[str] = []

    @once_per_task
    def signature(self) -> str:
        """The task's name, counted each time it is computed."""
        self.computed.append(self.name)
        return f"signed {self.name}"


def test_an_answer_is_computed_once_per_task_object_and_again_for_a_new_build():
    Counted.computed.clear()
    first, other = Counted(name="a"), Counted(name="b")
    assert [first.signature(), first.signature(), other.signature(), Counted(name="a").signature()] == [
        "signed a", "signed a", "signed b", "signed a",
    ]  # fmt: skip
    assert Counted.computed == ["a", "b"]  # Luigi gives the same object for the same parameters
    assert Counted.signature.__doc__ == "The task's name, counted each time it is computed."
    fresh_build()
    assert Counted(name="a") is not first
    assert Counted(name="a").signature() == "signed a"
    assert Counted.computed == ["a", "b", "a"]
