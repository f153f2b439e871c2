"""In-sample marks on ranking and stance results: in their JSON beside the figures, read back (and absent from
older JSON), and in the console tables with a line saying why."""

from __future__ import annotations

import dataclasses
import json

from argrank.evaluation.in_sample import InSample
from argrank.evaluation.ranking import RankingScores, evaluate
from argrank.evaluation.report import format_results, format_table
from argrank.evaluation.results import RunScores, StanceF1

from .test_report import QRELS, RUN

STANCE_MARK = InSample("the stance model was trained on topics 1, 2 of the judged ones", ("stance_f1",))
NDCG_MARK = InSample("the model was trained on these topics", ("nDCG@5",))


def test_marked_results_say_so_in_their_json_and_read_back():
    ranking = dataclasses.replace(evaluate(RUN, QRELS), in_sample=NDCG_MARK)
    scores = RunScores({"relevance": ranking}, StanceF1(0.5, 4, {"FIRST": 0.5}, STANCE_MARK))
    data = json.loads(json.dumps(scores.to_json()))
    assert data["relevance"]["in_sample"] is True and data["relevance"]["in_sample_measures"] == ["nDCG@5"]
    assert data["stance"]["in_sample_reason"] == STANCE_MARK.reason and data["stance"]["stance_f1"] == 0.5
    assert RunScores.from_json(data, RankingScores) == scores


def test_json_without_the_mark_reads_as_held_out():
    data = RunScores({"relevance": evaluate(RUN, QRELS)}, StanceF1(0.5, 4, {"FIRST": 0.5})).to_json()
    assert "in_sample" not in json.dumps(data)  # a held-out result's JSON is what it always was
    read = RunScores.from_json(data, RankingScores)
    assert read.judgments["relevance"].in_sample is None and read.stance.in_sample is None


def test_tables_mark_in_sample_figures_and_say_why_once():
    ranking = evaluate(RUN, QRELS)
    marked = dataclasses.replace(ranking, in_sample=NDCG_MARK)
    lines = format_table({"a / relevance": marked, "b / relevance": marked, "c / relevance": ranking}).splitlines()
    assert lines[2].split()[3:6] == ["0.3333*", "0.1667", "0.3333"]  # only the in-sample measure
    assert "*" not in lines[4]
    assert lines[5:] == [f"* in-sample: {NDCG_MARK.reason}"]
    runs = {
        "trained": RunScores({"relevance": ranking}, StanceF1(0.5, 4, {"FIRST": 0.5}, STANCE_MARK)),
        "held-out": RunScores({"relevance": ranking}, StanceF1(0.25, 4, {"FIRST": 0.25})),
    }
    stance = format_results(runs).split("\n\n")[1].splitlines()
    assert stance[2].split()[:2] == ["trained", "0.5000*"] and stance[3].split()[:2] == ["held-out", "0.2500"]
    assert stance[4:] == [f"* in-sample: {STANCE_MARK.reason}"]
    assert "in-sample" not in format_results({"held-out": runs["held-out"]})
