"""evaluation/folds.py: a figure's spread over the folds, and its figures over draws of the folds."""

from __future__ import annotations

import math

import pytest

from argrank.evaluation.folds import draws_summary, draws_text, fold_spread


def test_the_spread_is_the_sample_deviation_least_and_greatest():
    assert fold_spread([0.5, 0.7, 0.9]) == pytest.approx({"sd": 0.2, "min": 0.5, "max": 0.9})
    assert fold_spread([0.4]) == {"sd": 0.0, "min": 0.4, "max": 0.4}
    empty = fold_spread([])
    assert all(math.isnan(value) for value in empty.values())


def test_draws_keep_each_seeds_figure_their_mean_and_spread():
    draws = draws_summary([3, 4, 5], {"f1": [0.5, 0.7, 0.9], "accuracy": [0.8, 0.8, 0.8]})
    assert draws["seeds"] == [3, 4, 5] and draws["f1"] == [0.5, 0.7, 0.9]
    assert draws["mean_f1"] == pytest.approx(0.7) and draws["mean_accuracy"] == pytest.approx(0.8)
    assert draws["f1_spread"] == pytest.approx({"sd": 0.2, "min": 0.5, "max": 0.9})
    text = draws_text(draws, {"f1": "F1"})
    assert text == "over 3 draws of the folds (seeds 3 to 5): F1 mean 0.7000, 0.5000 to 0.9000 (sd 0.2000)"


def test_draws_refuse_figures_that_do_not_match_the_seeds():
    with pytest.raises(ValueError, match="f1: 2 figures for 3 seeds"):
        draws_summary([0, 1, 2], {"f1": [0.5, 0.7]})
