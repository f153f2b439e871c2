"""Parameter grids: a run whose parameters list several values stands for one run per combination.

A sweep is one entry in a runs file (`k1: [0.6, 0.9, 1.2]`) rather than a file per value; each combination
gets a tag that says which values it has, so tables and cache paths stay readable.
"""

from __future__ import annotations

import itertools
import math
from typing import Any


MAX_COMBINATIONS = 1_000  # runs one grid (one runs-file entry) may make: a sweep, not a search of millions


def expand(tag: str, params: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(tag, params) per combination of the listed values, in the order written: a parameter given as a list
    adds `-<name>_<value>` to the tag; without lists, the one run as it is. ValueError for an empty list, and for
    more than MAX_COMBINATIONS combinations (counted before any is made)."""
    listed = {name: value for name, value in params.items() if isinstance(value, list)}
    for name, values in listed.items():
        if not values:
            raise ValueError(f"parameter {name} lists no value")
    combinations = math.prod(len(values) for values in listed.values())
    if combinations > MAX_COMBINATIONS:
        sizes = " × ".join(f"{len(values):,} {name}" for name, values in listed.items())
        raise ValueError(f"the grid makes {combinations:,} runs ({sizes}); at most {MAX_COMBINATIONS:,} per entry")
    if not listed:
        return [(tag, dict(params))]
    runs = []
    for combination in itertools.product(*listed.values()):
        chosen = dict(zip(listed, combination))
        suffix = "".join(f"-{name}_{_readable(value)}" for name, value in chosen.items())
        runs.append((tag + suffix, {**params, **chosen}))
    return runs


def _readable(value: Any) -> str:
    """A value as a tag shows it: 0.6, 1000, 1e-05."""
    return repr(value) if isinstance(value, float) else str(value)
