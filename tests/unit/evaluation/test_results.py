"""The results evaluations return: means over the topics chosen, and JSON that reads back as what was written."""

from __future__ import annotations

import json

import pytest

from argrank.evaluation.in_sample import InSample
from argrank.evaluation.results import JUDGED_TOPICS, RUN_TOPICS, RunScores, StanceF1, TopicScores

PER_TOPIC = {"1": {"m": 1.0, "n": 0.0}, "2": {"m": 0.0, "n": 0.5}, "10": {"m": 0.5, "n": 1.0}}


def _round_trip(data: dict) -> dict:
    return json.loads(json.dumps(data))


def test_means_are_over_every_judged_topic_or_over_the_run_topics():
    every = TopicScores.of_topics(5, PER_TOPIC, ["m", "n"])
    assert every.means == {"m": 0.5, "n": 0.5} and every.topics == 3 and every.average == JUDGED_TOPICS
    some = TopicScores.of_topics(5, PER_TOPIC, ["n", "m"], RUN_TOPICS, run_topics={"2", "10", "99"})
    assert some.means == {"n": 0.75, "m": 0.25} and some.measures == ["n", "m"] and list(some.per_topic) == ["2", "10"]


def test_averaging_over_nothing_or_in_an_unknown_way_is_refused():
    with pytest.raises(ValueError, match="^the run has none of the judged topics"):
        TopicScores.of_topics(5, PER_TOPIC, ["m"], RUN_TOPICS, run_topics={"7"})
    with pytest.raises(ValueError, match="^unknown averaging 'median'; expected one of judged-topics, run-topics$"):
        TopicScores.of_topics(5, PER_TOPIC, ["m"], "median")


def test_topic_scores_read_back_from_json_in_numeric_topic_order():
    scores = TopicScores.of_topics(None, {"10": {"m": 0.5}, "2": {"m": 0.25}}, ["m"], RUN_TOPICS, ["10", "2"])
    data = scores.to_json()
    assert list(data) == ["depth", "topics", "average", "measures", "missing_topics", "m", "per_topic"]
    back = TopicScores.from_json(_round_trip(data))
    assert back == TopicScores(None, {"m": 0.375}, {"2": {"m": 0.25}, "10": {"m": 0.5}}, RUN_TOPICS)
    assert list(back.per_topic) == ["2", "10"]


def test_an_in_sample_mark_goes_into_the_json_and_reads_back():
    mark = InSample("trained on topics 1, 2", ("m",))
    scores = TopicScores(5, {"m": 0.5}, {"1": {"m": 0.5}}, JUDGED_TOPICS, mark)
    data = scores.to_json()
    assert (data["in_sample"], data["in_sample_reason"], data["in_sample_measures"]) == (True, mark.reason, ["m"])
    assert TopicScores.from_json(_round_trip(data)) == scores


def test_stance_f1_and_a_whole_run_read_back_as_written():
    stance = StanceF1(0.625, 40, {"PRO": 0.75, "CON": 0.5, "NEUTRAL": None})
    run = RunScores({"relevance": TopicScores.of_topics(5, PER_TOPIC, ["m", "n"])}, stance, {"folds": 5, "f1": 0.6})
    data = _round_trip(run.to_json())
    assert set(data) == {"relevance", "stance"}
    assert data["stance"] == {
        "stance_f1": 0.625, "stance_pairs": 40, "stance_f1_per_label": {"PRO": 0.75, "CON": 0.5, "NEUTRAL": None},
        "classifier": {"folds": 5, "f1": 0.6},
    }  # fmt: skip
    back = RunScores.from_json(data, TopicScores)
    assert back == run


def test_a_run_without_stance_has_no_stance_key_and_reads_back_without_one():
    run = RunScores({"relevance": TopicScores.of_topics(5, PER_TOPIC, ["m", "n"])})
    data = _round_trip(run.to_json())
    assert list(data) == ["relevance"]
    assert RunScores.from_json(data, TopicScores) == run


def test_a_classifier_report_without_stance_scores_is_kept():
    run = RunScores({}, None, {"folds": 5})
    assert run.to_json() == {"stance": {"classifier": {"folds": 5}}}
    assert RunScores.from_json(_round_trip(run.to_json()), TopicScores) == run
