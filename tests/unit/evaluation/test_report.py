"""Presentation of evaluation results: the console table and the per-topic CSV, also from results read back from JSON."""

from __future__ import annotations

import csv
import html
import io
import json
import re
from pathlib import Path

from argrank.config import load_config
from argrank.evaluation.ranking import RankingScores, evaluate
from argrank.evaluation.report import format_results, format_table, per_topic_csv
from argrank.evaluation.results import RunScores, StanceF1
from argrank.formats.runfile import RunLine
from argrank.reporting.plots import difference_plot, sweep_plot, trend_plot
from argrank.reporting.sweep import Sweep, sweeps, tables
from argrank.tracks.images.evaluation import ImageScores, evaluate_images

QRELS = {"2": {"a": 1.0}, "10": {"b": 2.0, "a": 0.0}, "9": {"c": 1.0}}
RUN = [
    RunLine("10", "Q0", "b", 1, 2.0, "t"),
    RunLine("10", "Q0", "x", 2, 1.0, "t"),
    RunLine("2", "Q0", "z", 1, 1.0, "t"),
    RunLine("9", "Q0", "y", 1, 1.0, "t"),
]


def test_table_has_one_aligned_row_per_result_with_four_decimals():
    result = evaluate(RUN, QRELS)
    table = format_table({"short / relevance": result, "a-much-longer-run-name / quality": result})
    lines = table.splitlines()
    assert lines[0].split() == ["run", "/", "qrels", "nDCG@5", "Judged@5", "condensed-nDCG@5", "topics"]
    assert set(lines[1]) == {"-", " "}
    # Judged@5: topic 10 returns two documents, one judged (1/2); 2 and 9 return one unjudged each.
    assert lines[2].split() == ["short", "/", "relevance", "0.3333", "0.1667", "0.3333", "3"]
    assert lines[3].startswith("a-much-longer-run-name / quality  ")
    assert len({len(line) for line in lines}) == 1  # every row as wide as the header: columns line up
    assert lines[2].index("0.3333") == lines[3].index("0.3333")


def test_a_run_lacking_judged_topics_is_said_to_lack_them_and_how_they_count():
    lacking = evaluate(RUN[:3], QRELS)  # no line for topic 9
    header, _, full, part, note = format_table({"all": evaluate(RUN, QRELS), "part": lacking}).splitlines()
    assert header.split()[-2:] == ["topics", "missing"]
    assert full.split()[-2:] == ["3", "0"] and part.split()[-2:] == ["3", "1"]
    assert note == "part: 1 judged topic missing from the run, each counted as 0 (as Touché's evaluation and trec_eval -c)"
    left_out = evaluate(RUN[:3], QRELS, average="run-topics")
    assert format_table({"part": left_out}).splitlines()[-1].endswith("left out of the mean (as trec_eval without -c)")
    assert left_out.to_json()["missing_topics"] == ["9"] and left_out.topics == 2


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


# The experiment report's plots and sweeps.


def _texts(svg: Path) -> list[str]:
    """The text an SVG shows (the plots write text as text)."""
    return [html.unescape(found) for found in re.findall(r"<text[^>]*>([^<]*)</text>", svg.read_text())]


def test_a_grid_entry_is_one_sweep_whose_runs_know_their_values(tmp_path):
    runs_file = tmp_path / "runs.yaml"
    (tmp_path / "c").write_text('{"arguments": []}')  # read with the runs file
    runs_file.write_text(
        "args:\n  corpus: c\n  topics: t.xml\n  quality_training: q.csv\n  runs:\n    plain: {params: {k1: 1.2}}\n"
        "    grid: {params: {k1: [0.9, 1.2], b: [0.5, 0.75]}, quality: {weight: [0.5, 1]}}\n"
    )
    runs = load_config(runs_file)["args"].runs
    assert runs[0].swept == () and runs[1].entry == "grid"
    assert runs[1].tag == "grid-k1_0.9-b_0.5-weight_0.5"
    assert runs[1].swept == (("k1", 0.9), ("b", 0.5), ("weight", 0.5))
    [found] = sweeps(runs)
    assert found.names == ("k1", "b", "weight") and len(found.runs) == 8
    assert found.runs[(1.2, 0.75, 1)] == "grid-k1_1.2-b_0.75-weight_1"


def test_a_sweep_of_three_parameters_is_a_table_per_pair_each_cell_the_best_over_the_third():
    tags = {(k1, b, w): f"r-{k1}-{b}-{w}" for k1 in (1, 2) for b in (3, 4) for w in (5, 6)}
    means = {tag: k1 * 10 + b + (0.5 if w == 5 else 0) for (k1, b, w), tag in tags.items()}
    by_k1_b, by_k1_w, by_b_w = tables(Sweep("r", ("k1", "b", "w"), tags), means)
    assert (by_k1_b.row, by_k1_b.column, by_k1_b.over) == ("k1", "b", ("w",))
    assert by_k1_b.cells == [[13.5, 14.5], [23.5, 24.5]]
    assert by_k1_w.cells == [[14.5, 14], [24.5, 24]] and by_b_w.cells == [[23.5, 23], [24.5, 24]]
    [row] = tables(Sweep("r", ("k1",), {(1,): "a", (2,): "b"}), {"a": 0.25, "b": None})
    assert (row.row, row.column, row.cells) == (None, "k1", [[0.25, None]])


def test_difference_panels_share_one_scale_and_topics_read_horizontally(tmp_path):
    small, large = {"1": 0.02, "2": -0.01}, {"1": -0.15, "2": 0.05}
    difference_plot(tmp_path / "d.svg", "nDCG@5", "base", {"small": small, "large": large})
    texts = _texts(tmp_path / "d.svg")
    ticks = [t for t in texts if re.fullmatch(r"−?0\.\d+", t)]
    assert ticks and all(ticks.count(tick) == 2 for tick in ticks)  # each x tick in both panels: one scale
    assert "−0.15" in ticks or "−0.2" in ticks
    assert {"1", "2", "small", "large"} <= set(texts)
    angles = re.findall(r'rotate\((-?\d+)[^>]*>(?:1|2)</text>', (tmp_path / "d.svg").read_text())
    assert angles == ["-0", "-0"]  # the topics, once, down the side and not turned


def test_a_sweep_plot_writes_every_mean_and_frames_the_best(tmp_path):
    runs = {(0.9, 0.5): "a", (0.9, 0.75): "b", (1.2, 0.5): "c"}  # (1.2, 0.75) missing: an empty cell
    [grid] = tables(Sweep("g", ("k1", "b"), runs), {"a": 0.1, "b": 0.3, "c": 0.2})
    sweep_plot(tmp_path / "s.svg", "sweep g", {"nDCG@5": grid})
    svg = (tmp_path / "s.svg").read_text()
    assert {"0.1000", "0.3000", "0.2000", "k1", "b", "nDCG@5"} <= set(_texts(tmp_path / "s.svg"))
    assert re.findall(r"<text[^>]*font(?:-weight)?: 700[^>]*>([^<]*)</text>", svg) == ["0.3000"]
    assert svg.count("stroke: #cf222e") == 1  # the one frame
    [tied] = tables(Sweep("g", ("k1", "b"), runs), {"a": 0.3, "b": 0.3, "c": 0.2})
    sweep_plot(tmp_path / "tied.svg", "sweep g", {"nDCG@5": tied})
    tied_svg = (tmp_path / "tied.svg").read_text()
    assert re.findall(r"<text[^>]*font(?:-weight)?: 700[^>]*>([^<]*)</text>", tied_svg) == ["0.3000", "0.3000"]
    assert tied_svg.count("stroke: #cf222e") == 2


def test_a_trend_is_small_multiples_with_one_legend_and_the_same_svg_each_time(tmp_path):
    charts = {
        f"relevance: {measure}": {run: [("2025-01-01T02:30:00Z", 0.5), ("2025-01-02T02:30:00Z", 0.6)] for run in "ab"}
        for measure in ("nDCG@5", "Judged@5", "condensed-nDCG@5", "P@10")
    }
    trend_plot(tmp_path / "t.svg", "args", charts)
    texts = _texts(tmp_path / "t.svg")
    assert texts.count("a") == texts.count("b") == 1  # one legend for the four charts
    assert all(texts.count(title) == 1 for title in charts)
    trend_plot(tmp_path / "again.svg", "args", charts)
    assert (tmp_path / "t.svg").read_bytes() == (tmp_path / "again.svg").read_bytes()
