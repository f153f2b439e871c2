"""evaluation/folds.py: a figure's spread over the folds."""

from __future__ import annotations

import math

import pytest

from argrank.evaluation.folds import fold_spread


def test_the_spread_is_the_sample_deviation_least_and_greatest():
    assert fold_spread([0.5, 0.7, 0.9]) == pytest.approx({"sd": 0.2, "min": 0.5, "max": 0.9})
    assert fold_spread([0.4]) == {"sd": 0.0, "min": 0.4, "max": 0.4}
    empty = fold_spread([])
    assert all(math.isnan(value) for value in empty.values())
