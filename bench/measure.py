"""Measuring a process: wall time and peak RSS of a child (os.wait4), and phases inside the current process.

Standard library only: the benchmark's driver imports this and must stay small, because a child started by
vfork/exec inherits its parent's peak RSS as a floor of its own `ru_maxrss` (the kernel folds the old address
space's high-water mark in at exec). With a driver of a few tens of MiB that floor is far below any stage's peak.
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Mapping, Sequence

KIB = 1024


@dataclass
class ChildResult:
    returncode: int
    wall_seconds: float  # from spawn to exit, interpreter start included
    peak_rss_bytes: int  # ru_maxrss: the largest peak of the child and its waited-for descendants, each alone
    tree_peak_rss_bytes: int | None = None  # the largest sum of RSS over the child and all its descendants, sampled
    cpu_seconds: float = 0.0  # user + system time of the child and its waited-for descendants


def run_child(
    command: Sequence[str], log_path: Path, cwd: Path, env: Mapping[str, str], sample_tree: bool = False
) -> ChildResult:
    """Run `command` to completion with stdout and stderr appended to `log_path`; its wall time and peak RSS.

    The files written so far are flushed to disk first, untimed: otherwise the kernel writes them back while the
    child runs (after a generated 10× corpus, gigabytes), and the child is measured on a busier machine.

    `sample_tree`: also sum the RSS of the child and every descendant every SAMPLE_SECONDS (processes working at
    once, e.g. Luigi's workers, add up; ru_maxrss only gives the largest of them). Shared pages count in each.
    """
    log_path.parent.mkdir(parents=True, exist_ok=True)
    os.sync()
    with open(log_path, "ab") as log:
        log.write(f"$ {' '.join(map(str, command))}\n".encode())
        log.flush()
        start = time.perf_counter()
        process = subprocess.Popen(list(map(str, command)), stdout=log, stderr=subprocess.STDOUT, cwd=cwd, env=dict(env))
        sampler = _TreeSampler(process.pid) if sample_tree else None
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        tree_peak = sampler.stop() if sampler else None
    process.returncode = os.waitstatus_to_exitcode(status)  # reaped here; Popen must not wait for it again
    peak = usage.ru_maxrss * KIB  # KiB on Linux
    return ChildResult(
        process.returncode, wall, peak, None if tree_peak is None else max(tree_peak, peak), usage.ru_utime + usage.ru_stime
    )


SAMPLE_SECONDS = 0.2
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


class _TreeSampler:
    """A thread summing the RSS of a process and its descendants (from /proc) until stopped; keeps the maximum."""

    def __init__(self, root: int):
        self.root, self.peak, self._done = root, 0, threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._done.is_set():
            self.peak = max(self.peak, _tree_rss(self.root))
            self._done.wait(SAMPLE_SECONDS)

    def stop(self) -> int:
        self._done.set()
        self._thread.join()
        return self.peak


def _tree_rss(root: int) -> int:
    parents: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/stat", encoding="ascii", errors="replace") as stat:
                    ppid = int(stat.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            parents.setdefault(ppid, []).append(int(entry.name))
    total, pending = 0, [root]
    while pending:
        pid = pending.pop()
        pending.extend(parents.get(pid, ()))
        try:
            with open(f"/proc/{pid}/statm", encoding="ascii") as statm:
                total += int(statm.read().split()[1]) * _PAGE
        except (OSError, ValueError, IndexError):
            pass
    return total


def _status_kib(field: str) -> int | None:
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def current_rss() -> int | None:
    """This process's resident set size now, in bytes (None where /proc is missing)."""
    kib = _status_kib("VmRSS")
    return None if kib is None else kib * KIB


def peak_rss() -> int | None:
    """This process's peak resident set size (VmHWM) since start or the last `reset_peak_rss`, in bytes."""
    kib = _status_kib("VmHWM")
    return None if kib is None else kib * KIB


def reset_peak_rss() -> bool:
    """Set VmHWM back to the current RSS (Linux ≥ 4.0: write 5 to /proc/self/clear_refs); False if not possible."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as refs:
            refs.write("5")
        return True
    except OSError:
        return False


class Phases:
    """Named phases of a child's work: seconds, RSS before, and peak RSS during each (the peak is reset at each
    phase's start, so a phase's peak is its own, input already held included)."""

    def __init__(self) -> None:
        self.start_peak = peak_rss()  # interpreter and imports, before any phase
        self.phases: dict[str, dict] = {}
        self.resettable = reset_peak_rss()
        self.process_peak = self.start_peak or 0

    @contextmanager
    def phase(self, name: str) -> Iterator[dict]:
        record: dict = {}
        self.process_peak = max(self.process_peak, peak_rss() or 0)
        reset_peak_rss()
        record["rss_before_bytes"] = current_rss()
        start, cpu = time.perf_counter(), time.process_time()
        yield record
        record["seconds"] = time.perf_counter() - start
        record["cpu_seconds"] = time.process_time() - cpu  # all threads of the process: less sensitive to load
        record["peak_rss_bytes"] = peak_rss()
        self.process_peak = max(self.process_peak, record["peak_rss_bytes"] or 0)
        self.phases[name] = record

    def peak_through(self, *names: str) -> int:
        """The process's peak RSS over the given phases (each includes what earlier phases left in memory)."""
        return max((self.phases[n]["peak_rss_bytes"] or 0) for n in names)

    def result(self) -> dict:
        self.process_peak = max(self.process_peak, peak_rss() or 0)
        return {
            "phases": self.phases,
            "peak_rss_resettable": self.resettable,
            "startup_peak_rss_bytes": self.start_peak,
            "process_peak_rss_bytes": self.process_peak,
        }
