"""An images run's on-stance precision is in-sample over topics its stance model was trained on, and the report's
images section says so."""

from __future__ import annotations

import dataclasses

from argrank.evaluation.report import format_table
from argrank.evaluation.results import RunScores
from argrank.formats.runfile import RunLine
from argrank.tracks.images.evaluation import ImageScores, evaluate_images
from argrank.tracks.images.stance_in_sample import image_stance_in_sample
from argrank.tracks.images.track import in_sample_notes

QRELS = {topic: {"i1": {"ONTOPIC": 1, "PRO": 1}} for topic in ("1", "2", "10")}
RUN = [RunLine(topic, "PRO", "i1", 1, 1.0, "t") for topic in ("1", "2", "10")]


def test_on_stance_is_in_sample_over_trained_topics_only():
    mark = image_stance_in_sample({"10", "5", "2"}, ["1", "2", "10"])
    assert mark.measures == ("on_stance@10",)
    assert "scored topics 2, 10 (2 of 3)" in mark.reason
    assert image_stance_in_sample({"5", "6"}, ["1", "2", "10"]) is None


def test_the_table_marks_on_stance_only_and_the_report_names_the_run():
    scores = evaluate_images(RUN, QRELS)
    marked = dataclasses.replace(scores, in_sample=image_stance_in_sample({"1"}, scores.per_topic))
    assert ImageScores.from_json(marked.to_json()) == marked
    row = format_table({"img / relevance": marked}).splitlines()[2].split()
    assert row[3:7] == ["0.0500", "0.0500", "0.0500*", "0.0500"]  # one hit of 20 slots
    html = in_sample_notes({"img": RunScores({"relevance": marked}), "other": RunScores({"relevance": scores})})
    assert html.count("<p>") == 1 and "img / relevance, on_stance@10: * in-sample: the image stance model" in html
