"""The CPU time of one step of a benchmark, with the garbage of the steps before it collected first.

Benchmarked steps can be short (predicting a few dozen passages), and a full collection of what earlier steps left
behind (training allocates millions of objects) takes about as long: uncollected, it lands in whichever step is
timed next, and that step's figure then depends on what ran before it.
"""

from __future__ import annotations

import gc
import time
from typing import Callable, TypeVar

T = TypeVar("T")


def timed(step: Callable[[], T]) -> tuple[T, float]:
    """`step()`'s result and the CPU-seconds it took."""
    gc.collect()
    started = time.process_time()
    result = step()
    return result, time.process_time() - started
