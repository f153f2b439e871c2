"""What every benchmark stage uses: the stage registry, best-of timing on the wall and CPU clocks, and the fields
a phase's times become in a stage's result.

Kept apart from the stages themselves so that ours (`bench.stages`) and the peers' (`bench.peers`) register into
one registry without importing each other.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.measure import Phases

STAGES: dict[str, Callable[[dict, Phases], dict]] = {}


def stage(function: Callable[[dict, Phases], dict]) -> Callable[[dict, Phases], dict]:
    STAGES[function.__name__] = function
    return function


@dataclass
class BestOf:
    """Repeats of one piece of work: each one's wall and CPU seconds (process user + system, all threads)."""

    all_seconds: list[float]
    all_cpu_seconds: list[float]
    result: Any  # the last repeat's

    @property
    def best(self) -> int:
        return self.all_seconds.index(min(self.all_seconds))

    def time(self, work: Callable[[], object]) -> None:
        """Run `work` once, its wall and CPU seconds added to the repeats and its result kept."""
        start, cpu = time.perf_counter(), time.process_time()
        self.result = work()
        self.all_seconds.append(time.perf_counter() - start)
        self.all_cpu_seconds.append(time.process_time() - cpu)

    def fields(self, prefix: str) -> dict:
        """`prefix`_seconds is the fastest repeat's wall time and `prefix`_cpu_seconds that same repeat's CPU time,
        so the two columns of a report describe one run; every repeat's are kept beside them."""
        return {
            f"{prefix}_seconds": self.all_seconds[self.best],
            f"{prefix}_cpu_seconds": self.all_cpu_seconds[self.best],
            f"{prefix}_all_seconds": self.all_seconds,
            f"{prefix}_all_cpu_seconds": self.all_cpu_seconds,
        }


def best_of(repeats: int, work: Callable[[], object]) -> BestOf:
    """Run `work` `repeats` times (at least once), the garbage of earlier work collected once, before the first.

    Not before each: a full collection walks every object of the process and the work right after it pays for that,
    so each repeat would measure that aftermath, not the steady state a best of several shows. A collection that
    the repeats' own garbage sets off lands in one repeat, which the best leaves out."""
    gc.collect()
    runs = BestOf([], [], None)
    for _ in range(max(1, repeats)):
        runs.time(work)
    return runs


def alternating(repeats: int, ours: Callable[[], object], theirs: Callable[[], object]) -> tuple[BestOf, BestOf]:
    """`repeats` rounds of both pieces of work, one right after the other (`ours` first in even rounds, `theirs` in
    odd ones): each one's repeats, as `best_of` gives them. A machine that slows down for a while (other work on a shared host) slows
    both alike, so the best of each comes from the same conditions and their ratio is fair."""
    gc.collect()
    mine, peer = BestOf([], [], None), BestOf([], [], None)
    for round_ in range(max(1, repeats)):
        pairs = ((ours, mine), (theirs, peer))
        for work, runs in pairs if round_ % 2 == 0 else reversed(pairs):
            runs.time(work)
    return mine, peer


def again(first: BestOf, repeats: int, work: Callable[[], object]) -> BestOf:
    """`first` with `repeats` − 1 more runs of `work`, each result dropped at once: a build repeated for its time
    without a second copy in memory (the peak RSS is measured on the first)."""

    def dropped() -> None:
        work()

    more = best_of(repeats - 1, dropped) if repeats > 1 else BestOf([], [], None)
    return BestOf(first.all_seconds + more.all_seconds, first.all_cpu_seconds + more.all_cpu_seconds, first.result)


def phase_fields(phases: Phases, name: str, prefix: str) -> dict:
    """A phase's wall and CPU seconds as `prefix`_seconds and `prefix`_cpu_seconds."""
    record = phases.phases[name]
    return {f"{prefix}_seconds": record["seconds"], f"{prefix}_cpu_seconds": record["cpu_seconds"]}


def tree_bytes(path: Path) -> int:
    path = Path(path)
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def package_version(distribution: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(distribution)
    except PackageNotFoundError:
        return None


def held_bytes(holder: object, prefix: str = "") -> dict[str, int]:
    """The bytes each array attribute of `holder` holds (numpy's or Arrow's; a Postings- or Index-like attribute is
    opened one level down, as `postings.indices`): what a stage keeps in memory, by name, largest first."""
    sizes: dict[str, int] = {}
    for name, value in vars(holder).items():
        size = getattr(value, "nbytes", None)
        if isinstance(size, int) and not callable(size):
            sizes[prefix + name.lstrip("_")] = size
        elif not prefix and hasattr(value, "__dict__") and not isinstance(value, type):
            sizes.update(held_bytes(value, f"{name.lstrip('_')}."))
    return dict(sorted(sizes.items(), key=lambda item: -item[1]))

