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


def test_a_number_too_large_for_a_float_is_refused_not_a_traceback():
    with pytest.raises(ValueError, match="parameter k1 of bm25 must be a finite number"):
        resolve_params("bm25", {"k1": 10**400})
