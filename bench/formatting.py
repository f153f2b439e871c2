"""Figures as the benchmark's Markdown shows them (standard library only: the driver imports this)."""

from __future__ import annotations

MIB = 2**20
GIB = 2**30


def secs(seconds) -> str:
    if seconds is None:
        return "—"
    if seconds >= 100:
        return f"{seconds:,.0f} s"
    if seconds >= 1:
        return f"{seconds:.2f} s"
    return f"{seconds * 1000:.1f} ms"


def wall_cpu(seconds, cpu_seconds) -> str:
    """A timing with its CPU-seconds beside it."""
    return f"{secs(seconds)} ({secs(cpu_seconds)} CPU)" if cpu_seconds is not None else secs(seconds)


def mib(value) -> str:
    return "—" if value is None else f"{value / MIB:,.0f} MiB"


def times(value, digits=2) -> str:
    return "—" if value is None else f"{value:.{digits}f}×"


def table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return lines
