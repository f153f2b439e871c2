"""Presentation of evaluation results: the console table and the per-topic CSV, also from results read back from JSON."""

from __future__ import annotations

import csv
import io
import json

from argrank.evaluation.ranking import RankingScores, evaluate
from argrank.evaluation.report import format_results, format_table, per_topic_csv
from argrank.evaluation.results import RunScores, StanceF1
from argrank.formats.runfile import RunLine
from argrank.tracks.images.evaluation import ImageScores, evaluate_images

QRELS = {"2": {"a": 1.0}, "10": {"b": 2.0, "a": 0.0}, "9": {"c": 1.0}}
RUN = [
    RunLine("10", "Q0", "b", 1, 2.0, "t"),
    RunLine("10", "Q0", "x", 2, 1.0, "t"),
    RunLine("2", "Q0", "z", 1, 1.0, "t"),
]


def test_table_has_one_aligned_row_per_result_with_four_decimals():
    result = evaluate(RUN, QRELS)
    table = format_table({"short / relevance": result, "a-much-longer-run-name / quality": result})
    lines = table.splitlines()
    assert lines[0].split() == ["run", "/", "qrels", "nDCG@5", "Judged@5", "condensed-nDCG@5", "topics"]
    assert set(lines[1]) == {"-", " "}
    # Judged@5: topic 10 returns two documents, one judged (1/2); 2 returns one unjudged; 9 none.
    assert lines[2].split() == ["short", "/", "relevance", "0.3333", "0.1667", "0.3333", "3"]
    assert lines[3].startswith("a-much-longer-run-name / quality  ")
    assert len({len(line) for line in lines}) == 1  # every row as wide as the header: columns line up
    assert lines[2].index("0.3333") == lines[3].index("0.3333")


def test_table_of_results_with_different_depths_marks_missing_measures():
    table = format_table({"at 5": evaluate(RUN, QRELS), "at 10": evaluate(RUN, QRELS, depth=10)})
    header, _, at5, at10 = table.splitlines()
    assert "nDCG@5" in header and "nDCG@10" in header
    assert at5.split().count("-") == 3 and at10.split().count("-") == 3


def test_per_topic_csv_sorts_topics_numerically_even_after_a_json_round_trip():
    result = RankingScores.from_json(json.loads(json.dumps(evaluate(RUN, QRELS).to_json(), sort_keys=True)))
    text = per_topic_csv(result)
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["topic", "nDCG@5", "Judged@5", "condensed-nDCG@5"]
    assert [row[0] for row in rows[1:]] == ["2", "9", "10"]
    assert rows[3] == ["10", "1.000000", "0.500000", "1.000000"]
    assert rows[1] == ["2", "0.000000", "0.000000", "0.000000"]
    assert text.endswith("\n") and "\r" not in text


IMAGE_QRELS = {"3": {"a": {"ONTOPIC": 1, "PRO": 1, "CON": 0}}, "20": {"b": {"ONTOPIC": 0, "PRO": 0, "CON": 0}}}
IMAGE_RUN = [RunLine("3", "PRO", "a", 1, 1.0, "t"), RunLine("20", "CON", "b", 1, 1.0, "t")]


def test_a_result_that_names_its_measures_gets_those_columns_beside_ndcg_results():
    stored = json.dumps(evaluate_images(IMAGE_RUN, IMAGE_QRELS).to_json(), sort_keys=True)  # key order lost
    images = ImageScores.from_json(json.loads(stored))
    header, _, image_row, ndcg_row = format_table({"images": images, "ndcg": evaluate(RUN, QRELS)}).splitlines()
    image_measures = ["on_topic@10", "argumentative@10", "on_stance@10", "judged@10"]
    ndcg_measures = ["nDCG@5", "Judged@5", "condensed-nDCG@5"]
    assert header.split() == ["run", "/", "qrels", *image_measures, *ndcg_measures, "topics"]
    # Topic 3: one on-topic, argumentative, on-stance image of 20 slots → 0.05; topic 20 judged only → 0.05; means.
    assert image_row.split() == ["images", "0.0250", "0.0250", "0.0250", "0.0500", "-", "-", "-", "2"]
    assert ndcg_row.split()[1:5] == ["-"] * 4


def test_per_topic_csv_of_an_image_result():
    rows = list(csv.reader(io.StringIO(per_topic_csv(evaluate_images(IMAGE_RUN, IMAGE_QRELS)))))
    assert rows == [
        ["topic", "on_topic@10", "argumentative@10", "on_stance@10", "judged@10"],
        ["3", "0.050000", "0.050000", "0.050000", "0.050000"],
        ["20", "0.000000", "0.000000", "0.000000", "0.050000"],
    ]


def test_a_run_read_back_from_json_is_the_run_written_and_its_stance_table_says_what_was_scored():
    trained = RunScores({"relevance": evaluate(RUN, QRELS)}, StanceF1(0.5, 4, {"FIRST": 0.5}), {"cv_macro_f1": 0.75})
    untrained = RunScores({"relevance": evaluate(RUN, QRELS)}, StanceF1(None, 0, {"FIRST": None}))
    for scores in (trained, untrained):
        assert RunScores.from_json(json.loads(json.dumps(scores.to_json())), RankingScores) == scores
    lines = format_results({"trained": trained, "untrained": untrained, "plain": RunScores(trained.judgments)})
    table, stance = lines.split("\n\n")
    assert [row.split()[0] for row in table.splitlines()[2:]] == ["trained", "untrained", "plain"]
    assert [row.split() for row in stance.splitlines()[2:]] == [
        ["trained", "0.5000", "4", "0.7500"],
        ["untrained", "-", "0", "-"],
    ]
