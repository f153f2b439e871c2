"""Each task class's parameters listed once, not on every ask.

Luigi's `Task.get_params` finds a class's parameters by `dir()` and a `getattr` of every attribute, some 120 per
task class, and Luigi asks it of every registered class nine times as it starts (it builds its command line
three times, twice after loading the graph's module) and again for every task it makes: 836 calls in a re-run
after a change of k1, some 0.02-0.03 of its 0.7 CPU-s. A class's parameters are fixed once it is defined
(`luigi.util.inherits` sets the ones it adds right after the class body, before anything asks), so the list is
kept in the class itself: a subclass, with parameters of its own, makes its own.
"""

from __future__ import annotations

from typing import Any


class KnownParameters:
    """Mixed in before `luigi.Task` (or Config, WrapperTask) in the graph's base classes."""

    @classmethod
    def get_params(cls) -> list[tuple[str, Any]]:
        known = cls.__dict__.get("_known_parameters")
        if known is None:
            known = super().get_params()  # type: ignore[misc]
            cls._known_parameters = tuple(known)
        return list(known)
