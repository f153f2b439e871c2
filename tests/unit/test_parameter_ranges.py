"""Every ranking parameter has a declared range, and values outside it are refused before any stage runs."""

from __future__ import annotations

import pytest

from argrank.retrieval.registry import Range, RankingModel, models, resolve_params


def test_every_registered_model_declares_a_range_its_defaults_fall_in():
    for model in models().values():
        assert set(model.ranges) == set(model.defaults)
        assert all(model.defaults[name] in model.ranges[name] for name in model.defaults)


def test_a_model_without_a_range_for_a_parameter_is_refused_when_registered():
    with pytest.raises(ValueError, match="a range for each parameter"):
        RankingModel("m", object, {"k": 1.0}, {}, "a model")
    with pytest.raises(ValueError, match="parameter k of m must be a number from 0 to 1, got 2.0"):
        RankingModel("m", object, {"k": 2.0}, {"k": Range(0, 1)}, "a model")


@pytest.mark.parametrize(
    "bounds, inside, outside, said",
    [
        (Range(), [0, 0.0, 3], [-0.001], "a number of at least 0"),
        (Range(0, 1), [0, 0.5, 1], [-0.1, 1.01], "a number from 0 to 1"),
        (Range(low_open=True), [1e-9, 2000], [0, -5], "a number greater than 0"),
        (Range(integer=True), [0, 10, 10.0], [2.5, -1], "an integer of at least 0"),
    ],
)
def test_ranges_hold_their_bounds_and_say_them(bounds, inside, outside, said):
    assert all(value in bounds for value in inside) and not any(value in bounds for value in outside)
    assert str(bounds) == said


def test_a_number_too_large_for_a_float_is_refused_not_a_traceback():
    with pytest.raises(ValueError, match="parameter k1 of bm25 must be a finite number"):
        resolve_params("bm25", {"k1": 10**400})
