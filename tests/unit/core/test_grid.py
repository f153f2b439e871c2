"""Parameter grids: a run listing several values is one run per combination, each tagged with its values."""

from __future__ import annotations

import pytest

from argrank.core import grid
from argrank.core.grid import expand


def test_a_run_without_lists_is_the_one_run_as_written_in_a_copy():
    params = {"k1": 0.9, "b": 0.4}
    runs = expand("bm25", params)
    assert runs == [("bm25", {"k1": 0.9, "b": 0.4})]
    assert runs[0][1] is not params


def test_each_combination_in_the_order_written_with_its_values_in_the_tag():
    runs = expand("bm25", {"k1": [0.6, 1.2], "b": [0.5, 1], "depth": 100})
    assert runs == [
        ("bm25-k1_0.6-b_0.5", {"k1": 0.6, "b": 0.5, "depth": 100}),
        ("bm25-k1_0.6-b_1", {"k1": 0.6, "b": 1, "depth": 100}),
        ("bm25-k1_1.2-b_0.5", {"k1": 1.2, "b": 0.5, "depth": 100}),
        ("bm25-k1_1.2-b_1", {"k1": 1.2, "b": 1, "depth": 100}),
    ]


def test_floats_read_as_python_writes_them():
    assert [tag for tag, _ in expand("ql", {"mu": [1000, 1e-05, 2.50]})] == ["ql-mu_1000", "ql-mu_1e-05", "ql-mu_2.5"]


def test_an_empty_list_is_refused_naming_the_parameter():
    with pytest.raises(ValueError, match="parameter b lists no value"):
        expand("bm25", {"k1": [0.9], "b": []})


def test_a_grid_of_a_million_runs_is_refused_before_any_is_made(monkeypatch):
    """1,000 × 1,000 values ended in a MemoryError in Luigi's scheduling after minutes."""
    monkeypatch.setattr(grid.itertools, "product", None)  # counted, never built
    with pytest.raises(ValueError, match=r"the grid makes 1,000,000 runs \(1,000 k1 × 1,000 b\); at most 1,000"):
        expand("bm25", {"k1": [i / 100 for i in range(1000)], "b": [i / 1000 for i in range(1000)]})
    monkeypatch.undo()
    assert len(expand("bm25", {"k1": list(range(40)), "b": list(range(25))})) == 1000
