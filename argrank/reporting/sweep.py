"""Parameter sweeps as grids: which runs came from one runs-file entry that lists values, and the table of means a
heat map draws.

A sweep's runs are worth reading as one picture (which k1 with which b), not as a row each in a long table. A
grid of more than two parameters is drawn as one table per pair, each cell the best mean over the values of the
others: the best setting is in the best cell of every pair, and no cell hides behind an arbitrary choice of the
third parameter.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Sweep:
    """The runs of one entry: the parameters it lists (in the order written) and each run's tag by its values."""

    entry: str
    names: tuple[str, ...]
    runs: dict[tuple[Any, ...], str]

    def values(self, position: int) -> list[Any]:
        """The values of parameter `position`, in the order the entry lists them."""
        return list(dict.fromkeys(key[position] for key in self.runs))


@dataclass(frozen=True)
class Table:
    """What one heat map shows: rows of `row` values by columns of `column` values (`column` None: a single row of
    one parameter's values), each cell a mean or None where no run has it."""

    row: str | None
    column: str
    row_values: list[Any]
    column_values: list[Any]
    cells: list[list[float | None]]
    over: tuple[str, ...] = ()  # the parameters each cell is the best over


def sweeps(runs: Iterable[Any]) -> list[Sweep]:
    """The sweeps among a track's runs (RunSpec: `entry`, `swept`), in the order of their first run; an entry of
    one run is none."""
    found: dict[str, dict[tuple[Any, ...], str]] = {}
    names: dict[str, tuple[str, ...]] = {}
    for spec in runs:
        if spec.swept:
            names[spec.entry] = tuple(name for name, _ in spec.swept)
            found.setdefault(spec.entry, {})[tuple(value for _, value in spec.swept)] = spec.tag
    return [Sweep(entry, names[entry], by_values) for entry, by_values in found.items() if len(by_values) > 1]


def tables(sweep: Sweep, means: dict[str, float]) -> list[Table]:
    """The heat maps of one measure (`means`: run tag → mean): a row of values for one parameter, the grid for two,
    one grid per pair for more."""
    if len(sweep.names) == 1:
        values = sweep.values(0)
        return [Table(None, sweep.names[0], [None], values, [[means.get(sweep.runs[(v,)]) for v in values]])]
    return [_pair(sweep, means, row, column) for row, column in itertools.combinations(range(len(sweep.names)), 2)]


def _pair(sweep: Sweep, means: dict[str, float], row: int, column: int) -> Table:
    """Parameter `row` against parameter `column`, each cell the best mean over the other parameters' values."""
    best: dict[tuple[Any, Any], float] = {}
    for key, tag in sweep.runs.items():
        if means.get(tag) is not None:
            cell = (key[row], key[column])
            best[cell] = max(best.get(cell, means[tag]), means[tag])
    rows, columns = sweep.values(row), sweep.values(column)
    others = tuple(name for position, name in enumerate(sweep.names) if position not in (row, column))
    cells = [[best.get((r, c)) for c in columns] for r in rows]
    return Table(sweep.names[row], sweep.names[column], rows, columns, cells, others)
