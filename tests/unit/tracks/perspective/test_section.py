"""tracks/perspective/section.py: the runs file's perspective section, its defaults, and each mistake named."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from argrank.core.errors import InputError
from argrank.tracks.perspective.crosslingual import DEFAULTS
from argrank.tracks.perspective.ranking import DEFAULT_DIVERSIFY
from argrank.tracks.perspective.section import NAME, PerspectiveSection, read_perspective_section
from argrank.tracks.perspective.translation import DICTIONARIES


@pytest.fixture
def runs(tmp_path) -> Path:
    return tmp_path / "experiments" / "runs.yaml"


def test_only_data_is_needed_and_everything_else_has_its_default(runs):
    section = read_perspective_section(runs, {"data": "../release"})
    assert section == PerspectiveSection(
        name=NAME,
        corpus=(runs.parent.parent / "release").resolve(),
        language="de,fr,it",
        scenarios=("baseline", "explicit", "implicit"),
        splits=("dev", "test"),
        depth=1000,
        params={},
        diversify=DEFAULT_DIVERSIFY,
        implicit_stance=True,
        dictionaries=DICTIONARIES,
    )
    assert NAME == "perspective"


def test_every_setting_given_is_kept_and_paths_are_relative_to_the_runs_file(runs):
    section = read_perspective_section(
        runs,
        {"data": "release", "language": "fr", "scenarios": ["implicit", "baseline"], "splits": ["train"], "depth": 50,
         "params": {"k1": 0.9, "feedback": 0}, "diversify": 0, "implicit_stance": False, "dictionaries": "dicts"},
    )  # fmt: skip
    assert section.corpus == (runs.parent / "release").resolve()
    assert section.dictionaries == str((runs.parent / "dicts").resolve())
    assert (section.language, section.scenarios, section.splits, section.depth) == ("fr", ("implicit", "baseline"),
                                                                                    ("train",), 50)  # fmt: skip
    assert section.params == {"k1": 0.9, "feedback": 0.0}
    assert set(section.params) <= set(DEFAULTS)
    assert (section.diversify, section.implicit_stance) == (0.0, False)
    assert isinstance(section.diversify, float)


@pytest.mark.parametrize(
    ("settings", "where", "problem"),
    [
        (["data"], "perspective", "expected a mapping"),
        ({"data": "r", "corpus": "x", "depht": 3}, "perspective",
         ("unknown setting(s) corpus, depht (known: data, depth, dictionaries, diversify, implicit_stance, language, "
          "params, scenarios, splits)")),
        ({}, "perspective.data", "expected the path of a release directory"),
        ({"data": ""}, "perspective.data", "expected the path of a release directory"),
        ({"data": 3}, "perspective.data", "expected the path of a release directory"),
        ({"data": "r", "scenarios": ["explicit", "explicit"]}, "perspective.scenarios",
         "expected a list drawn from baseline, explicit, implicit"),
        ({"data": "r", "scenarios": []}, "perspective.scenarios", "expected a list drawn from"),
        ({"data": "r", "scenarios": "baseline"}, "perspective.scenarios", "expected a list drawn from"),
        ({"data": "r", "splits": ["validation"]}, "perspective.splits", "expected a list drawn from train, dev, test"),
        ({"data": "r", "depth": 0}, "perspective.depth", "expected an integer from 1 to 1000"),
        ({"data": "r", "depth": 1001}, "perspective.depth", "expected an integer from 1 to 1000"),
        ({"data": "r", "depth": 10.0}, "perspective.depth", "expected an integer from 1 to 1000"),
        ({"data": "r", "depth": True}, "perspective.depth", "expected an integer from 1 to 1000"),
        ({"data": "r", "params": [1]}, "perspective.params", "expected a mapping of k1, b, feedback"),
        ({"data": "r", "params": {"k3": 1}}, "perspective.params",
         "unknown parameter(s) k3 for the perspective ranker"),
        ({"data": "r", "params": {"b": 2}}, "perspective.params",
         "parameter b of the perspective ranker must be a number from 0 to 1, got 2"),
        ({"data": "r", "params": {"feedback": 2.5}}, "perspective.params", "must be an integer"),
        ({"data": "r", "diversify": 1.5}, "perspective.diversify", "expected a number from 0 (off) to 1"),
        ({"data": "r", "diversify": "high"}, "perspective.diversify", "expected a number from 0 (off) to 1"),
        ({"data": "r", "implicit_stance": "yes"}, "perspective.implicit_stance", "expected true or false"),
        ({"data": "r", "dictionaries": ""}, "perspective.dictionaries", "expected the path of a folder of FreeDict"),
    ],
)  # fmt: skip
def test_each_mistake_is_one_input_error_naming_the_file_and_key(runs, settings, where, problem):
    with pytest.raises(InputError) as caught:
        read_perspective_section(runs, settings)
    assert (caught.value.path, caught.value.where) == (str(runs), where)
    assert problem in caught.value.problem


def test_empty_params_are_the_rankers_defaults(runs):
    for params in (None, {}):
        assert read_perspective_section(runs, {"data": "r", "params": params}).params == {}


def test_a_bad_language_is_named_at_its_key(runs):
    with pytest.raises(InputError, match=re.escape(f"{runs}: perspective.language: ")):
        read_perspective_section(runs, {"data": "r", "language": "klingon"})
