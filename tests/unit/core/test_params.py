"""Named numeric parameters: each known to its owner, a finite number, and inside its declared range."""

from __future__ import annotations

import math

import pytest

from argrank.core.params import Range, checked_params

KNOWN = {"k1": 0.9, "b": 0.4, "depth": 100}
RANGES = {"k1": Range(), "b": Range(0, 1), "depth": Range(1, integer=True)}


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


def test_known_values_in_range_come_back_as_floats():
    checked = checked_params("bm25", {"k1": 1, "b": 0.75, "depth": 10.0}, KNOWN, RANGES)
    assert checked == {"k1": 1.0, "b": 0.75, "depth": 10.0}
    assert all(type(value) is float for value in checked.values())
    assert checked_params("bm25", {}, KNOWN, RANGES) == {}


def test_unknown_parameters_are_named_sorted_with_the_known_ones():
    with pytest.raises(ValueError, match=r"^unknown parameter\(s\) a, k3 for bm25 \(known: k1, b, depth\)$"):
        checked_params("bm25", {"k3": 1, "k1": 1, "a": 2}, KNOWN, RANGES)


@pytest.mark.parametrize("value", [True, "0.9", None, math.nan, math.inf, -math.inf, 10**400, [1]])
def test_what_is_not_a_finite_number_is_refused(value):
    with pytest.raises(ValueError) as error:
        checked_params("bm25", {"k1": value}, KNOWN, RANGES)
    assert str(error.value) == f"parameter k1 of bm25 must be a finite number, got {value!r}"


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"b": 1.5}, "parameter b of bm25 must be a number from 0 to 1, got 1.5"),
        ({"k1": -0.1}, "parameter k1 of bm25 must be a number of at least 0, got -0.1"),
        ({"depth": 2.5}, "parameter depth of bm25 must be an integer of at least 1, got 2.5"),
        ({"depth": 0}, "parameter depth of bm25 must be an integer of at least 1, got 0"),
    ],
)
def test_a_value_out_of_its_range_is_refused_saying_the_range(params, message):
    with pytest.raises(ValueError) as error:
        checked_params("bm25", params, KNOWN, RANGES)
    assert str(error.value) == message
