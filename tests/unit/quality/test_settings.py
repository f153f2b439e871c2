"""quality/settings.py: the re-ranking's defaults lie in their ranges, each range's bounds, what its ends mean."""

from __future__ import annotations

import pyarrow as pa
import pytest

from argrank.core.params import checked_params
from argrank.quality.rerank import Quality, rerank
from argrank.quality.settings import DEFAULTS, RANGES

OWNER = "the quality re-ranking"


def test_every_setting_has_a_default_and_a_range_and_no_more():
    assert list(DEFAULTS) == ["weight", "depth", "nonargument_penalty", "min_words"]
    assert set(RANGES) == set(DEFAULTS)


def test_the_defaults_pass_their_own_check():
    assert checked_params(OWNER, DEFAULTS, DEFAULTS, RANGES) == {
        "weight": 0.5,
        "depth": 100.0,
        "nonargument_penalty": 0.0,
        "min_words": 0.0,
    }


@pytest.mark.parametrize(
    ("name", "value"),
    [("weight", 0), ("weight", 1), ("weight", 0.25), ("depth", 1), ("depth", 1000.0), ("nonargument_penalty", 0),
     ("nonargument_penalty", 7.5), ("min_words", 0), ("min_words", 25)],
)  # fmt: skip
def test_values_inside_the_ranges_are_accepted(name, value):
    assert value in RANGES[name]
    assert checked_params(OWNER, {name: value}, DEFAULTS, RANGES) == {name: float(value)}


@pytest.mark.parametrize(
    ("name", "value", "problem"),
    [
        ("weight", -0.1, "parameter weight of the quality re-ranking must be a number from 0 to 1, got -0.1"),
        ("weight", 1.5, "parameter weight of the quality re-ranking must be a number from 0 to 1, got 1.5"),
        ("depth", 0, "parameter depth of the quality re-ranking must be an integer of at least 1, got 0"),
        ("depth", 2.5, "parameter depth of the quality re-ranking must be an integer of at least 1, got 2.5"),
        ("nonargument_penalty", -1, "must be a number of at least 0, got -1"),
        ("min_words", -1, "parameter min_words of the quality re-ranking must be an integer of at least 0, got -1"),
        ("min_words", 0.5, "must be an integer of at least 0, got 0.5"),
    ],
)
def test_values_outside_the_ranges_are_refused_by_name(name, value, problem):
    assert value not in RANGES[name]
    with pytest.raises(ValueError, match=problem.replace(".", r"\.")):
        checked_params(OWNER, {name: value}, DEFAULTS, RANGES)


def _ranking() -> pa.Table:
    """One topic, retrieval order a, b, c; the predicted quality orders them c, b, a."""
    schema = pa.schema([("qid", pa.string()), ("doc", pa.string()), ("rank", pa.int32()), ("score", pa.float64())])
    return pa.table({"qid": ["1"] * 3, "doc": ["a", "b", "c"], "rank": [1, 2, 3], "score": [3.0, 2.0, 1.0]}, schema)


QUALITY = Quality(
    expected={"a": 0.0, "b": 1.0, "c": 2.0}, argument=dict.fromkeys("abc", 1.0), words=dict.fromkeys("abc", 50)
)


@pytest.mark.parametrize(("weight", "order"), [(0, ["a", "b", "c"]), (1, ["c", "b", "a"])])
def test_the_ends_of_the_weights_range_are_the_retrieval_order_and_quality_alone(weight, order):
    assert rerank(_ranking(), QUALITY, {"weight": weight})["doc"].to_pylist() == order


def test_the_default_settings_are_what_a_run_without_settings_gets():
    assert rerank(_ranking(), QUALITY, {}).equals(rerank(_ranking(), QUALITY, DEFAULTS))
