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


# The cost curve's section of docs/benchmarks.md, which `make bench-scale` writes and `make bench` keeps.
SCALE_BEGIN = "<!-- scale:begin (bench/scale.py writes this section) -->"
SCALE_END = "<!-- scale:end -->"


def with_section(text: str, section: str, begin: str = SCALE_BEGIN, end: str = SCALE_END) -> str:
    """`text` with its part from `begin` to `end` replaced by `section` (which carries the markers), or `section`
    appended where `text` has none; an empty `section` leaves `text` as it is."""
    if not section:
        return text
    start, stop = text.find(begin), text.find(end)
    if start >= 0 and stop > start:
        text = text[:start] + section.strip("\n") + text[stop + len(end):]
    else:
        text = text.rstrip("\n") + "\n\n" + section.strip("\n") + "\n"
    return text if text.endswith("\n") else text + "\n"


def section_of(text: str, begin: str = SCALE_BEGIN, end: str = SCALE_END) -> str:
    """The part of `text` from `begin` to `end`, markers included; empty where it has none."""
    start, stop = text.find(begin), text.find(end)
    return text[start : stop + len(end)] + "\n" if start >= 0 and stop > start else ""

