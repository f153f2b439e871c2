"""Comparative stance F1 is in-sample where the stance model's training sets hold a judged topic's object pair or
a judged passage's text, and the report says so at the stance table."""

from __future__ import annotations

from argrank.evaluation.in_sample import InSample
from argrank.evaluation.results import RunScores, StanceF1
from argrank.tracks.comparative.stance_data import StanceExample
from argrank.tracks.comparative.stance_in_sample import stance_in_sample
from argrank.tracks.comparative.stance_report import stance_section

EXAMPLES = [
    StanceExample("Which is warmer, wool or fleece?", "wool", "fleece", "Wool, no contest.", "FIRST"),
    StanceExample("Tea or coffee?", "tea", "coffee", "Coffee  keeps me\nawake.", "SECOND"),
]
JUDGED = {"1": {"p1": "FIRST", "p2": "NO"}, "2": {"p3": "SECOND"}}
TEXTS = {"p1": "Fleece dries faster.", "p2": "Nothing to say.", "p3": "I like both."}


def test_a_judged_topic_with_a_trained_object_pair_in_either_order_is_in_sample():
    objects = {"1": ("Fleece", "Wool"), "2": ("cats", "dogs")}
    mark = stance_in_sample(EXAMPLES, JUDGED, objects, TEXTS)
    assert mark.measures == ("stance_f1",)
    assert "object pairs of judged topics 1 (1 of 2)" in mark.reason and "passages" not in mark.reason


def test_a_judged_passage_whose_text_was_trained_on_is_in_sample():
    objects = {"1": ("cats", "dogs"), "2": None}
    mark = stance_in_sample(EXAMPLES, JUDGED, objects, {**TEXTS, "p3": "Coffee keeps me awake. "})
    assert "training texts include 1 judged passages" in mark.reason and "object pairs" not in mark.reason


def test_other_topics_and_passages_are_held_out():
    assert stance_in_sample(EXAMPLES, JUDGED, {"1": ("cats", "dogs"), "2": ("tea", "milk")}, TEXTS) is None


def test_the_report_marks_the_in_sample_stance_f1_and_says_why(tmp_path):
    mark = InSample("the stance model was trained on the object pairs of judged topics 1 (1 of 2)", ("stance_f1",))
    runs = {
        "trained": RunScores(stance=StanceF1(0.5, 4, {"FIRST": 0.5}, mark)),
        "other": RunScores(stance=StanceF1(0.25, 4, {"FIRST": 0.25})),
    }
    html = stance_section(None, tmp_path, runs)
    assert "<td>0.5000*</td>" in html and "<td>0.2500</td>" in html
    assert html.count("in-sample") == 1 and f"* in-sample: {mark.reason}" in html
    assert "in-sample" not in stance_section(None, tmp_path, {"other": runs["other"]})
