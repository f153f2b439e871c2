"""tracks/stance_settings.py: the stance classifier's settings over a track's defaults, a run's stance switch and
the need for a training set, each mistake named by file and key."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from argrank.core.errors import InputError
from argrank.tracks.comparative.track import ComparativeRun
from argrank.tracks.stance_settings import (
    STANCE_MODEL_DEFAULTS,
    check_stance_training,
    read_stance_model,
    read_stance_switch,
)

RUNS_FILE = Path("experiments/runs.yaml")
WHERE = "demo.stance_model"


def test_no_settings_give_the_tracks_defaults_and_given_ones_override_them_one_by_one():
    defaults = {"c": 0.5, "folds": 4}
    assert read_stance_model(RUNS_FILE, WHERE, None, defaults) == {"c": 0.5, "folds": 4}
    assert read_stance_model(RUNS_FILE, WHERE, {}, STANCE_MODEL_DEFAULTS) == STANCE_MODEL_DEFAULTS
    assert read_stance_model(RUNS_FILE, WHERE, {"folds": 10}, defaults) == {"c": 0.5, "folds": 10}
    assert read_stance_model(RUNS_FILE, WHERE, {"c": 3, "folds": 2}, defaults) == {"c": 3.0, "folds": 2}
    assert defaults == {"c": 0.5, "folds": 4}  # the track's defaults are read, never changed


def test_c_is_returned_as_a_float_and_folds_as_an_integer():
    resolved = read_stance_model(RUNS_FILE, WHERE, {"c": 2}, STANCE_MODEL_DEFAULTS)
    assert type(resolved["c"]) is float and type(resolved["folds"]) is int


@pytest.mark.parametrize("settings", [[1.0, 5], "c=1", 0.3])
def test_settings_that_are_not_a_mapping_are_named_at_the_key(settings):
    with pytest.raises(InputError) as caught:
        read_stance_model(RUNS_FILE, WHERE, settings, STANCE_MODEL_DEFAULTS)
    assert (caught.value.path, caught.value.where) == (str(RUNS_FILE), WHERE)
    assert caught.value.problem == "expected a mapping with c and folds"


def test_unknown_settings_are_listed_in_order_with_the_known_ones():
    with pytest.raises(InputError) as caught:
        read_stance_model(RUNS_FILE, WHERE, {"kernel": "rbf", "c": 1, "alpha": 2}, STANCE_MODEL_DEFAULTS)
    assert caught.value.where == WHERE
    assert caught.value.problem == "unknown setting(s) alpha, kernel (known: c, folds)"


@pytest.mark.parametrize("c", [-0.5, 0.0, math.inf, math.nan, True, "1", None])
def test_a_c_that_is_not_a_positive_finite_number_is_named(c):
    with pytest.raises(InputError) as caught:
        read_stance_model(RUNS_FILE, WHERE, {"c": c}, STANCE_MODEL_DEFAULTS)
    assert (caught.value.where, caught.value.problem) == (f"{WHERE}.c", "expected a positive number")


@pytest.mark.parametrize("folds", [1, 0, -3, 2.0, 5.5, True, "5"])
def test_folds_that_are_not_an_integer_of_at_least_two_are_named(folds):
    with pytest.raises(InputError) as caught:
        read_stance_model(RUNS_FILE, WHERE, {"folds": folds}, STANCE_MODEL_DEFAULTS)
    assert (caught.value.where, caught.value.problem) == (f"{WHERE}.folds", "expected an integer of at least 2")


def test_bad_defaults_are_refused_too_since_they_are_checked_once_merged():
    with pytest.raises(InputError, match=r"demo.stance_model.folds: expected an integer of at least 2"):
        read_stance_model(RUNS_FILE, WHERE, None, {"c": 1.0, "folds": 1})


def test_a_runs_stance_switch_is_off_unless_set_and_only_true_or_false():
    where = "demo.runs.r1"
    assert read_stance_switch(RUNS_FILE, where, {}) is False
    assert read_stance_switch(RUNS_FILE, where, {"stance": True}) is True
    assert read_stance_switch(RUNS_FILE, where, {"stance": False}) is False
    for value in (1, "true", None, [True]):
        with pytest.raises(InputError) as caught:
            read_stance_switch(RUNS_FILE, where, {"stance": value})
        assert (caught.value.where, caught.value.problem) == ("demo.runs.r1.stance", "expected true or false")


def _runs(*stances: bool) -> tuple[ComparativeRun, ...]:
    return tuple(ComparativeRun(f"r{i}", "bm25", {}, "title", stance=s) for i, s in enumerate(stances))


@pytest.mark.parametrize("training", [None, (), ""])
def test_a_run_with_stance_and_no_training_set_names_the_missing_key(training):
    with pytest.raises(InputError) as caught:
        check_stance_training(RUNS_FILE, "demo", training, _runs(False, True))
    assert (caught.value.path, caught.value.where) == (str(RUNS_FILE), "demo.stance_training")
    assert "runs with stance need a stance training set" in caught.value.problem


def test_a_training_set_or_runs_without_stance_pass():
    check_stance_training(RUNS_FILE, "demo", (Path("train.tsv"),), _runs(True, True))
    check_stance_training(RUNS_FILE, "demo", Path("training-qrels.txt"), _runs(True))
    check_stance_training(RUNS_FILE, "demo", None, _runs(False, False))
    check_stance_training(RUNS_FILE, "demo", None, ())
