"""nDCG@k, judged@k and the judged-only variant: hand-computed cases, trec_eval (pytrec_eval) agreement, real figures."""

from __future__ import annotations

from math import log2

import pytest
import pytrec_eval

from argrank.evaluation.ndcg import evaluate
from argrank.formats.qrels import read_qrels
from argrank.formats.runfile import RunLine, read_run
from argrank.formats.topics import topic_order

QRELS = {
    "1": {"a": 2.0, "b": 1.0, "c": -2.0, "d": 0.0},
    "2": {"x": 1.0},  # not in the run: scores 0
    "3": {"y": -2.0},  # nothing relevant: ideal DCG 0, so nDCG 0
}


def run_of(*rows: tuple[str, str, float]) -> list[RunLine]:
    """Run lines whose file ranks are deliberately backwards: evaluation must order by score only."""
    return [RunLine(qid, "Q0", doc, len(rows) - i, score, "t") for i, (qid, doc, score) in enumerate(rows)]


RUN = run_of(
    ("1", "e", 0.5),  # unjudged, 6th
    ("1", "a", 3.0),  # ties with b: trec_eval puts the larger id first, so b (3rd) before a (4th)
    ("1", "u", 5.0),  # unjudged, 1st
    ("1", "d", 1.0),  # label 0, 5th
    ("1", "b", 3.0),
    ("1", "c", 4.0),  # label -2 counts as 0, 2nd
    ("3", "y", 1.0),
    ("4", "z", 1.0),  # topic not in the qrels: ignored
)


def test_hand_computed_topic_with_ties_negative_labels_and_unjudged_documents():
    topic = evaluate(RUN, QRELS).per_topic["1"]
    ideal = 2 / log2(2) + 1 / log2(3)  # gains 2, 1, 0, 0
    # Ranked u, c, b, a, d: gains 0, 0, 1, 2, 0.
    assert topic["nDCG@5"] == pytest.approx((1 / log2(4) + 2 / log2(5)) / ideal, abs=1e-12)
    # judged@5 takes a before b (ascending ties): u, c, a, b, d — still four judged.
    assert topic["judged@5"] == pytest.approx(4 / 5)
    # Condensed list c, b, a, d: gains 0, 1, 2, 0.
    assert topic["nDCG@5_judged_only"] == pytest.approx((1 / log2(3) + 2 / log2(4)) / ideal, abs=1e-12)


def test_means_are_over_the_qrels_topics_including_ones_the_run_lacks():
    result = evaluate(RUN, QRELS)
    assert result.depth == 5 and result.topics == 3
    assert list(result.per_topic) == ["1", "2", "3"]
    assert result.per_topic["2"] == {"nDCG@5": 0.0, "judged@5": 0.0, "nDCG@5_judged_only": 0.0}
    # One judged document of a 5-deep cut: judged divides by k, not by the documents returned.
    assert result.per_topic["3"] == {"nDCG@5": 0.0, "judged@5": 0.2, "nDCG@5_judged_only": 0.0}
    for name in ("nDCG@5", "judged@5", "nDCG@5_judged_only"):
        assert result.means[name] == pytest.approx(sum(t[name] for t in result.per_topic.values()) / 3, abs=1e-15)


def test_depth_names_the_keys_and_cuts_the_list():
    result = evaluate(RUN, QRELS, depth=1)
    assert set(result.to_json()) == {"depth", "topics", "nDCG@1", "judged@1", "nDCG@1_judged_only", "per_topic"}
    # Top document u is unjudged; the condensed list starts with c (gain 0).
    assert result.per_topic["1"] == {"nDCG@1": 0.0, "judged@1": 0.0, "nDCG@1_judged_only": 0.0}
    deep = evaluate(RUN, QRELS, depth=10).per_topic["1"]
    assert deep["judged@10"] == pytest.approx(4 / 10)


def test_a_perfect_ranking_scores_one():
    run = run_of(("1", "a", 4.0), ("1", "b", 3.0), ("1", "d", 2.0), ("1", "c", 1.0))
    topic = evaluate(run, {"1": QRELS["1"]}).per_topic["1"]
    assert topic == {"nDCG@5": pytest.approx(1.0), "judged@5": pytest.approx(0.8), "nDCG@5_judged_only": pytest.approx(1.0)}


def test_score_ties_are_broken_by_document_id_descending_like_trec_eval():
    qrels = {"1": {"a": 1, "b": 0}}
    tied = {"1": {"a": 1.0, "b": 1.0}}
    expected = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.1"}).evaluate(tied)["1"]["ndcg_cut_1"]
    result = evaluate(run_of(("1", "a", 1.0), ("1", "b", 1.0)), {"1": {"a": 1.0, "b": 0.0}}, depth=1)
    assert expected == 0.0 and result.means["nDCG@1"] == expected  # b ranks first


def test_topic_order_is_numeric_when_possible():
    assert topic_order(["10", "9", "100", "1"]) == ["1", "9", "10", "100"]
    assert topic_order(["b", "10", "9"]) == ["10", "9", "b"]


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="depth"):
        evaluate(RUN, QRELS, depth=0)
    with pytest.raises(ValueError, match="no judged topics"):
        evaluate(RUN, {})
    with pytest.raises(ValueError, match="topic 1: a document appears more than once"):
        evaluate(run_of(("1", "a", 1.0), ("1", "a", 2.0)), QRELS)


# ---- real runs -------------------------------------------------------------------------------------------------

QRELS_2021 = "touche2021-task1-51-100-relevance.qrels"
QRELS_2020 = "touche2020-task1-relevance-args-me-corpus-version-2020-04-01-corrected.qrels"

# (run, qrels, nDCG@5, judged@5, topics), nDCG@5 as /work/shared/README.md lists it.
REFERENCE = [
    ("runs-2021-elrond/ElrondKRun.txt", QRELS_2021, 0.7198, 1.0, 50),
    ("runs-2021-elrond/ElrondOpenNlpRun.txt", QRELS_2021, 0.6745, 1.0, 50),
    ("runs-2021-elrond/ElrondSimpleRun.txt", QRELS_2021, 0.6742, 1.0, 50),
    ("runs-2021-elrond/ElrondTaskBodyRun.txt", QRELS_2021, 0.6149, 1.0, 50),
    ("runs-2020-elrond/ElrondKRun.txt", QRELS_2020, 0.6257, 0.673, 49),
]


@pytest.mark.parametrize(("run", "qrels", "ndcg", "judged", "topics"), REFERENCE)
def test_reference_figures(shared_data, run, qrels, ndcg, judged, topics):
    task1 = shared_data / "touche-task1"
    result = evaluate(read_run(task1 / run), read_qrels(task1 / qrels))
    assert result.topics == topics
    assert result.means["nDCG@5"] == pytest.approx(ndcg, abs=5e-5)
    assert result.means["judged@5"] == pytest.approx(judged, abs=5e-4)


@pytest.mark.parametrize(
    ("run", "topic", "unjudged"),
    [("ElrondOpenNlpRun.txt", "68", "Sb2548ce9-A5edc8c49"), ("ElrondSimpleRun.txt", "75", "Sf3afbb4f-A96809fea")],
)
def test_judged_breaks_ties_by_ascending_id_while_ndcg_keeps_trec_evals_order(shared_data, run, topic, unjudged):
    """A judged and an unjudged document tie at ranks 5–6. trec_eval's order (larger id first) would put the
    unjudged one in the top 5 (judged@5 0.8); ir_measures' Judged order keeps the judged one (1.0), which is the
    organisers' figure. nDCG@5 is unaffected here because the judged document's gain is 0.
    """
    task1 = shared_data / "touche-task1"
    qrels = read_qrels(task1 / QRELS_2021)
    lines = [line for line in read_run(task1 / "runs-2021-elrond" / run) if line.qid == topic]
    fifth, sixth = sorted(lines, key=lambda line: (line.score, line.doc), reverse=True)[4:6]
    assert fifth.score == sixth.score and fifth.doc == unjudged and unjudged not in qrels[topic]
    assert qrels[topic][sixth.doc] <= 0
    assert evaluate(lines, qrels).per_topic[topic]["judged@5"] == 1.0


def test_judged_ties_go_to_the_smaller_id():
    qrels = {"1": {"a": 0.0}}
    result = evaluate(run_of(("1", "a", 1.0), ("1", "b", 1.0)), qrels, depth=1)
    assert result.per_topic["1"]["judged@1"] == 1.0


@pytest.mark.parametrize(("run", "qrels"), [(run, qrels) for run, qrels, *_ in REFERENCE])
def test_per_topic_ndcg_agrees_with_trec_eval(shared_data, run, qrels):
    """trec_eval's own code (pytrec_eval) is the second opinion, topic by topic, on every real run."""
    task1 = shared_data / "touche-task1"
    judged = read_qrels(task1 / qrels)
    lines = read_run(task1 / run)
    by_topic: dict[str, dict[str, float]] = {}
    for line in lines:
        by_topic.setdefault(line.qid, {})[line.doc] = line.score
    integer_qrels = {topic: {doc: int(label) for doc, label in docs.items()} for topic, docs in judged.items()}
    expected = pytrec_eval.RelevanceEvaluator(integer_qrels, {"ndcg_cut.5"}).evaluate(by_topic)
    ours = evaluate(lines, judged).per_topic
    assert set(expected) <= set(ours)
    for topic, scores in ours.items():
        reference = expected[topic]["ndcg_cut_5"] if topic in expected else 0.0
        assert scores["nDCG@5"] == pytest.approx(reference, abs=1e-12), topic
