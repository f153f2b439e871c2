"""Timing a benchmark step: its result and the CPU time it took, not the wall time."""

from __future__ import annotations

import time

from argrank.core.cpu_time import timed


def _spin(seconds: float) -> str:
    start = time.process_time()
    while time.process_time() - start < seconds:
        pass
    return "done"


def test_the_result_and_at_least_the_cpu_time_spent_are_returned():
    result, seconds = timed(lambda: _spin(0.05))
    assert result == "done"
    assert 0.05 <= seconds < 5


def test_sleeping_costs_no_cpu_time():
    result, seconds = timed(lambda: time.sleep(0.2))
    assert result is None
    assert seconds < 0.15
