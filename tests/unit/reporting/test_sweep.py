"""reporting/sweep.py: which runs form a sweep, values in written order, and its tables of means by hand."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from argrank.reporting.sweep import Sweep, Table, sweeps, tables


@dataclass(frozen=True)
class Run:
    """What sweeps reads of a run (config.RunSpec): its tag, its runs-file entry and the listed values it took."""

    tag: str
    entry: str
    swept: tuple[tuple[str, Any], ...] = ()


def test_the_runs_of_one_entry_listing_values_are_one_sweep_keyed_by_their_values():
    runs = [
        Run("plain", "plain"),
        Run("g-k1_0.9-b_0.5", "g", (("k1", 0.9), ("b", 0.5))),
        Run("g-k1_0.9-b_0.75", "g", (("k1", 0.9), ("b", 0.75))),
        Run("g-k1_1.2-b_0.5", "g", (("k1", 1.2), ("b", 0.5))),
    ]
    assert sweeps(runs) == [
        Sweep(
            "g",
            ("k1", "b"),
            {(0.9, 0.5): "g-k1_0.9-b_0.5", (0.9, 0.75): "g-k1_0.9-b_0.75", (1.2, 0.5): "g-k1_1.2-b_0.5"},
        )
    ]


def test_sweeps_come_in_the_order_of_their_first_run_and_an_entry_of_one_run_is_none():
    runs = [
        Run("w-0.5", "w", (("weight", 0.5),)),
        Run("k-1", "k", (("k1", 1),)),
        Run("single-2", "single", (("k1", 2),)),  # a list of one value: one run, nothing to compare
        Run("w-1", "w", (("weight", 1),)),
        Run("k-2", "k", (("k1", 2),)),
    ]
    assert [found.entry for found in sweeps(runs)] == ["w", "k"]
    assert sweeps([Run("a", "a"), Run("b", "b")]) == []


def test_values_are_in_the_order_the_entry_lists_them_each_once():
    found = Sweep("g", ("k1", "b"), {(1.2, 0.75): "a", (1.2, 0.5): "b", (0.9, 0.75): "c", (0.9, 0.5): "d"})
    assert found.values(0) == [1.2, 0.9]
    assert found.values(1) == [0.75, 0.5]


def test_one_parameter_is_a_single_row_with_none_where_a_run_has_no_mean():
    found = Sweep("w", ("weight",), {(0,): "a", (0.5,): "b", (1,): "c"})
    assert tables(found, {"a": 0.25, "c": 0.5}) == [Table(None, "weight", [None], [0, 0.5, 1], [[0.25, None, 0.5]])]


def test_two_parameters_are_one_grid_rows_by_the_first_and_a_missing_run_is_an_empty_cell():
    found = Sweep("g", ("k1", "b"), {(0.9, 0.5): "a", (0.9, 0.75): "b", (1.2, 0.5): "c"})
    [grid] = tables(found, {"a": 0.1, "b": 0.3, "c": 0.2})
    assert grid == Table("k1", "b", [0.9, 1.2], [0.5, 0.75], [[0.1, 0.3], [0.2, None]], ())


def test_four_parameters_are_a_grid_per_pair_each_cell_the_best_over_the_other_two():
    runs = {(a, b, c, d): f"r{a}{b}{c}{d}" for a in (0, 1) for b in (0, 1) for c in (0, 1) for d in (0, 1)}
    means = {tag: 8 * a + 4 * b + 2 * c + d for (a, b, c, d), tag in runs.items()}  # all distinct
    grids = tables(Sweep("r", ("a", "b", "c", "d"), runs), means)
    assert [(grid.row, grid.column, grid.over) for grid in grids] == [
        ("a", "b", ("c", "d")), ("a", "c", ("b", "d")), ("a", "d", ("b", "c")),
        ("b", "c", ("a", "d")), ("b", "d", ("a", "c")), ("c", "d", ("a", "b")),
    ]  # fmt: skip
    # a × b: the best over c and d is with c = d = 1, so 8a + 4b + 3.
    assert grids[0].cells == [[3, 7], [11, 15]]
    # c × d: the best over a and b is with a = b = 1, so 12 + 2c + d.
    assert grids[5].cells == [[12, 13], [14, 15]]


def test_a_cells_best_skips_runs_without_a_mean_and_is_none_when_all_lack_one():
    runs = {(1, 1, "x"): "a", (1, 1, "y"): "b", (1, 2, "x"): "c", (2, 1, "x"): "d"}
    grids = tables(Sweep("r", ("k1", "b", "q"), runs), {"a": None, "b": 0.4, "c": None, "d": 0.1})
    by_k1_b = grids[0]
    assert (by_k1_b.row, by_k1_b.column) == ("k1", "b")
    assert by_k1_b.cells == [[0.4, None], [0.1, None]]
