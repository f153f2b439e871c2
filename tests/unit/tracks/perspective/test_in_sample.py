"""Perspective scores on queries the ranker learned from are marked in-sample: in the JSON, the console table and the
report; held-out queries and older JSON without the mark are not."""

from __future__ import annotations

import dataclasses
import json

from argrank.tracks.perspective.data import Query
from argrank.tracks.perspective.evaluation import PerspectiveScores, evaluate_perspective, format_means
from argrank.tracks.perspective.in_sample import CROSS_VALIDATE, perspective_in_sample
from argrank.tracks.perspective.report import perspective_section

from .test_evaluation import GENDERS

BASELINE_TRAIN = [Query("1", "Tax meat?", [1, 2, 3], None), Query("2", "Ban cars?", [4, 5], None)]
PERSPECTIVE_TRAIN = [Query("3", "Tax meat?", [1, 3], {"gender": "w"})]
TRAINING = BASELINE_TRAIN + PERSPECTIVE_TRAIN
HELD_OUT = [Query("7", "Build dams?", [6, 7], {"gender": "m"}), Query("8", "Build dams?", [8], {"gender": "w"})]
MEASURES = ("nDCG@4", "rKL@4")


def test_queries_asking_training_questions_are_in_sample_for_every_scenario():
    for scenario in ("baseline", "explicit", "implicit"):
        mark = perspective_in_sample(scenario, PERSPECTIVE_TRAIN, TRAINING, MEASURES)
        assert mark.measures == MEASURES
        assert "issue concepts and known answers" in mark.reason and "(1 of 1)" in mark.reason
        assert mark.reason.endswith(CROSS_VALIDATE)
        assert ("implicit property guess" in mark.reason) == (scenario == "implicit")


def test_implicit_queries_whose_relevant_arguments_trained_the_guess_are_in_sample():
    """A new question whose answers the guess learned from is in-sample for the implicit scenario only."""
    queries = [Query("9", "Meat tax, really?", [2], {"gender": "w"})]
    assert perspective_in_sample("explicit", queries, TRAINING, MEASURES) is None
    mark = perspective_in_sample("implicit", queries, TRAINING, MEASURES)
    assert "implicit property guess" in mark.reason and "1 of 1 queries" in mark.reason


def test_held_out_queries_are_not_in_sample():
    for scenario in ("baseline", "explicit", "implicit"):
        assert perspective_in_sample(scenario, HELD_OUT, TRAINING, MEASURES) is None
    assert perspective_in_sample("implicit", HELD_OUT, [Query("1", "Build dams?", None, None)], MEASURES) is None


def _scores(in_sample: bool) -> PerspectiveScores:
    queries = [Query("2", "Build dams?", [1, 3], None), Query("10", "Ban cars?", [2], None)]
    result = evaluate_perspective(GENDERS, queries, {"2": [1, 3], "10": [4]}, "baseline")
    training = queries if in_sample else []
    return dataclasses.replace(result, in_sample=perspective_in_sample("baseline", queries, training, result.means))


def test_json_table_and_report_say_in_sample(tmp_path):
    result = _scores(in_sample=True)
    summary = result.summary_json()
    assert summary["in_sample"] is True and summary["in_sample_measures"] == list(result.means)
    assert summary["in_sample_reason"] == result.in_sample.reason
    assert PerspectiveScores.from_json(result.to_json()) == result
    lines = format_means(result).splitlines()
    assert lines[1].split()[1] == f"{result.means['nDCG@4']:.4f}*"
    assert lines[-1] == f"* in-sample: {result.in_sample.reason}"
    (tmp_path / "evaluation.json").write_text(json.dumps({"baseline/train": summary}))
    html = perspective_section(tmp_path)
    assert f"{result.means['nDCG@4']:.4f}*" in html and "in-sample: the ranker learned" in html


def test_held_out_and_older_json_are_unmarked(tmp_path):
    result = _scores(in_sample=False)
    summary = result.summary_json()
    assert not {"in_sample", "in_sample_reason", "in_sample_measures"} & set(summary)
    assert PerspectiveScores.from_json(result.to_json()).in_sample is None
    assert "*" not in format_means(result) and "in-sample" not in format_means(result)
    (tmp_path / "evaluation.json").write_text(json.dumps({"baseline/dev": summary}))
    assert "in-sample" not in perspective_section(tmp_path)
