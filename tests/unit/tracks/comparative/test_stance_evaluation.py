"""Stance macro-F1: hand-computed cases, runs without stance, bad column 2, and the Touché 2022 reference figures."""

from __future__ import annotations

import re

import pytest

from argrank.evaluation.ranking import evaluate
from argrank.formats.qrels import read_qrels
from argrank.formats.runfile import RunLine, read_run
from argrank.formats.topics import read_topics
from argrank.formats.runfile import watched
from argrank.tracks.comparative.stance_evaluation import JudgedStances, evaluate_stance, format_stance
from argrank.tracks.comparative.stance_labels import LABELS
from argrank.tracks.comparative.stance_qrels import read_stance_qrels
from argrank.tracks.track import RunProblem

STANCE_QRELS = {"1": {"a": "FIRST", "b": "SECOND", "c": "NEUTRAL", "d": "NO"}, "2": {"x": "FIRST"}}


def run_of(*rows: tuple[str, str, str, float]) -> list[RunLine]:
    """Run lines whose file ranks are deliberately backwards: a depth cut must order by score only."""
    return [RunLine(qid, stance, doc, len(rows) - i, score, "t") for i, (qid, stance, doc, score) in enumerate(rows)]


RUN = run_of(
    ("1", "NO", "e", 1.0),  # not stance-judged: not a pair
    ("1", "NEUTRAL", "c", 2.0),
    ("1", "FIRST", "a", 3.0),  # ties with b: evaluation's order puts the larger id, b, first
    ("1", "FIRST", "b", 3.0),
    ("2", "FIRST", "x", 1.0),
    ("3", "NO", "z", 9.0),  # topic without stance judgments
)  # d is judged but not in the run


def test_hand_computed_macro_f1_over_pooled_pairs():
    result = evaluate_stance(RUN, STANCE_QRELS)
    # Pairs (truth, run): (FIRST, FIRST) twice, (SECOND, FIRST), (NEUTRAL, NEUTRAL).
    # FIRST: precision 2/3, recall 1 → 0.8; SECOND 0; NEUTRAL 1; NO neither predicted nor true → 0.
    assert result.pairs == 4
    assert result.per_label == pytest.approx({"FIRST": 0.8, "SECOND": 0.0, "NEUTRAL": 1.0, "NO": 0.0})
    assert result.macro == pytest.approx(1.8 / 4)
    assert list(result.per_label) == list(LABELS)


def test_depth_keeps_each_topics_top_documents_by_score():
    # Top 1 of topic 1 is b (tie with a, larger id first), of topic 2 x: pairs (SECOND, FIRST), (FIRST, FIRST).
    result = evaluate_stance(RUN, STANCE_QRELS, depth=1)
    assert result.pairs == 2
    assert result.macro == pytest.approx((2 / 3) / 4)
    assert evaluate_stance(RUN, STANCE_QRELS, depth=3).pairs == 4
    with pytest.raises(ValueError, match="depth must be at least 1"):
        evaluate_stance(RUN, STANCE_QRELS, depth=0)


def test_a_run_with_q0_throughout_has_no_stance_and_no_pairs():
    run = run_of(("1", "Q0", "a", 2.0), ("1", "Q0", "b", 1.0))
    result = evaluate_stance(run, STANCE_QRELS)
    assert result.to_json() == {"stance_f1": None, "stance_pairs": 0, "stance_f1_per_label": dict.fromkeys(LABELS)}
    assert "no pairs to score" in format_stance("run / qrels", result)


def test_no_judged_pair_means_no_f1():
    result = evaluate_stance(run_of(("7", "FIRST", "a", 1.0)), STANCE_QRELS)
    assert result.macro is None and result.pairs == 0


@pytest.mark.parametrize(
    ("rows", "problem"),
    [
        (
            (("1", "FIRST", "a", 3.0), ("1", "NO", "b", 2.0), ("2", "Q0", "x", 1.0)),
            "topic 2, document x: column 2 is 'Q0', expected a stance label (FIRST, SECOND, NEUTRAL, NO)",
        ),
        ((("1", "Q0", "a", 3.0), ("1", "SECOND", "b", 2.0)), "topic 1, document b: column 2 is 'SECOND', expected Q0"),
        ((("1", "FIRST", "a", 3.0), ("1", "PRO", "b", 2.0)), "topic 1, document b: column 2 is 'PRO'"),
    ],
)
def test_column_2_mixing_q0_and_labels_or_other_values_names_the_first_offender(rows, problem):
    with pytest.raises(RunProblem, match=re.escape(problem)):  # the run's problem, not the judgments'
        evaluate_stance(run_of(*rows), STANCE_QRELS)
    kept = JudgedStances(STANCE_QRELS)  # a run read once checks every line on the way, judged or not
    with pytest.raises(RunProblem, match=re.escape(problem)):
        list(watched(run_of(*rows), kept))


def test_judged_stances_keep_only_judged_lines_and_score_as_the_whole_run():
    kept = JudgedStances(STANCE_QRELS)
    assert list(watched(RUN, kept)) == RUN  # the lines pass through unchanged, for the relevance scores
    assert [(line.qid, line.doc) for line in kept.lines] == [("1", "c"), ("1", "a"), ("1", "b"), ("2", "x")]
    assert evaluate_stance(kept.lines, STANCE_QRELS) == evaluate_stance(RUN, STANCE_QRELS)


def test_format_stance_shows_macro_and_per_label_f1():
    text = format_stance("r / q", evaluate_stance(RUN, STANCE_QRELS))
    assert text.splitlines() == [
        "stance  r / q: macro-F1 0.4500 over 4 pairs",
        "        FIRST 0.8000  SECOND 0.0000  NEUTRAL 1.0000  NO 0.0000",
    ]


@pytest.fixture(scope="module")
def task2(shared_data):
    """The 2022 runs folder and the relevance, quality and stance qrels, checked against the 2022 topics."""
    folder = shared_data / "touche-task2"
    topics = [topic.number for topic in read_topics(folder / "topics-task2-2022.xml")]
    qrels = {
        kind: read_qrels(folder / f"touche-task2-2022-{kind}.qrels", topics) for kind in ("relevance", "quality")
    }
    return folder / "runs-2022", qrels, read_stance_qrels(folder / "touche-task2-2022-stance.qrels", topics)


@pytest.mark.parametrize(
    ("run", "relevance", "quality", "stance_f1", "pairs"),
    [
        ("Puss-in-Boots-run1", 0.4687, 0.4763, 0.1584, 1328),
        ("Grimjack-run1", 0.3761, 0.3635, 0.2071, 1282),
        ("Grimjack-run3", 0.4218, 0.4027, 0.2071, 1282),
        ("Aldo-Nadi-run3", 0.6954, 0.7738, None, 0),
        ("Captain-Tempesta-run1", 0.5745, 0.5886, None, 0),
        ("Asuna-run1", 0.2626, 0.3322, 0.1056, 578),
    ],
)
def test_touche_2022_reference_figures(task2, run, relevance, quality, stance_f1, pairs):
    runs, qrels, stance_qrels = task2
    lines = read_run(runs / f"{run}.txt")
    assert evaluate(lines, qrels["relevance"]).means["nDCG@5"] == pytest.approx(relevance, abs=5e-5)
    assert evaluate(lines, qrels["quality"]).means["nDCG@5"] == pytest.approx(quality, abs=5e-5)
    result = evaluate_stance(lines, stance_qrels)
    assert result.pairs == pairs
    assert result.macro == pytest.approx(stance_f1, abs=5e-5)  # approx(None) is None only
    kept = JudgedStances(stance_qrels)
    assert sum(1 for _ in watched(lines, kept)) == len(lines)
    assert evaluate_stance(kept.lines, stance_qrels) == result
    assert len(kept.lines) < len(lines) / 2  # what a run read once holds of its lines for its stance


def test_katana_run_read_with_its_recovered_tag(task2):
    # Our own measurement, not an organisers' figure: Katana-run1 is malformed as submitted (quoted tag with
    # spaces); the lenient reader recovers the tag and the run scores like any other.
    runs, _, stance_qrels = task2
    lines = read_run(runs / "Katana-run1.txt")
    assert {line.tag for line in lines} == {"Colbert fine tune on touche data"}
    result = evaluate_stance(lines, stance_qrels)
    assert result.pairs == 940
    assert result.macro == pytest.approx(0.2116, abs=5e-5)
