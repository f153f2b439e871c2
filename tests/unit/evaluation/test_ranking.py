"""Ranking measures: hand-computed cases, trec_eval's exact ties, ir_measures' names, averaging, and every real run
in ../shared cross-checked topic by topic against trec_eval's own code (pytrec_eval, called directly)."""

from __future__ import annotations

from itertools import pairwise
from math import log2, prod
from pathlib import Path
from statistics import mean

import ir_measures
import pytest
import pytrec_eval

from argrank.evaluation.measures import canonical
from argrank.evaluation.ranking import default_measures, evaluate
from argrank.evaluation.results import JUDGED_TOPICS, RUN_TOPICS
from argrank.evaluation.trec_order import ranked_documents
from argrank.formats.qrels import read_qrels
from argrank.formats.runfile import RunLine, read_run
from argrank.formats.topics import topic_order

QRELS = {
    "1": {"a": 2.0, "b": 1.0, "c": -2.0, "d": 0.0},
    "2": {"x": 1.0},  # not in the run: scores 0
    "3": {"y": -2.0},  # nothing relevant: ideal DCG 0, so nDCG 0; and only −2, which crashes bare pytrec_eval
}
ALL = ["nDCG@5", "Judged@5", "condensed-nDCG@5", "nDCG(judged_only=True)@5"]


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
    topic = evaluate(RUN, QRELS, measures=ALL).per_topic["1"]
    ideal = 2 / log2(2) + 1 / log2(3)  # gains 2, 1, 0, 0
    # Ranked u, c, b, a, d: gains 0, 0, 1, 2, 0.
    assert topic["nDCG@5"] == pytest.approx((1 / log2(4) + 2 / log2(5)) / ideal, abs=1e-12)
    # Judged@5 takes a before b (ascending ties): u, c, a, b, d — four judged.
    assert topic["Judged@5"] == pytest.approx(4 / 5)
    # The organisers' condensed list drops only the unjudged u and e: c, b, a, d, gains 0, 1, 2, 0.
    assert topic["condensed-nDCG@5"] == pytest.approx((1 / log2(3) + 2 / log2(4)) / ideal, abs=1e-12)
    # trec_eval -J (ir_measures' judged_only) also drops c, judged -2: b, a, d, gains 1, 2, 0.
    assert topic["nDCG(judged_only=True)@5"] == pytest.approx((1 / log2(2) + 2 / log2(3)) / ideal, abs=1e-12)


def test_means_are_over_every_judged_topic_by_default_and_over_the_runs_on_request():
    result = evaluate(RUN, QRELS, measures=ALL)
    assert result.depth == 5 and result.topics == 3 and result.average == "judged-topics"
    assert list(result.per_topic) == ["1", "2", "3"]
    assert result.per_topic["2"] == dict.fromkeys(ALL, 0.0)
    # Topic 3's only document is judged: ir_measures' Judged divides by the documents returned when fewer than k.
    assert result.per_topic["3"] == {**dict.fromkeys(ALL, 0.0), "Judged@5": 1.0}
    for name in ALL:
        assert result.means[name] == pytest.approx(sum(t[name] for t in result.per_topic.values()) / 3, abs=1e-15)
    common = evaluate(RUN, QRELS, measures=ALL, average=RUN_TOPICS)
    assert list(common.per_topic) == ["1", "3"] and common.average == RUN_TOPICS
    assert common.means["nDCG@5"] == pytest.approx(result.means["nDCG@5"] * 3 / 2, abs=1e-15)
    for average in (RUN_TOPICS, JUDGED_TOPICS):  # a run of other topics: zeros that say nothing, refused
        with pytest.raises(ValueError, match="the run shares no topic with the judgments .the run's: 9; judged: 1"):
            evaluate(run_of(("9", "a", 1.0)), QRELS, average=average)


def test_a_run_whose_documents_are_none_of_the_judged_ones_is_scored_with_a_warning(caplog):
    result = evaluate(run_of(("1", "zz", 1.0), ("3", "yy", 0.5)), QRELS)
    assert all(value == 0 for value in result.means.values())
    assert "0 of the" in caplog.text and "the run has 'zz'" in caplog.text
    caplog.clear()
    evaluate(RUN, QRELS)
    assert "none of the judged" not in caplog.text


def test_default_measures_at_a_depth_and_their_json_with_the_old_names_as_aliases():
    result = evaluate(RUN, QRELS, depth=1)
    assert result.measures == default_measures(1) == ["nDCG@1", "Judged@1", "condensed-nDCG@1"]
    data = result.to_json()
    assert list(data) == [
        "depth", "topics", "average", "measures", "missing_topics", "nDCG@1", "Judged@1", "condensed-nDCG@1",
        "judged@1", "nDCG@1_judged_only", "per_topic",
    ]  # fmt: skip
    assert data["judged@1"] == data["Judged@1"] and data["nDCG@1_judged_only"] == data["condensed-nDCG@1"]
    # Top document u is unjudged; the condensed list starts with c (gain 0).
    assert result.per_topic["1"] == {"nDCG@1": 0.0, "Judged@1": 0.0, "condensed-nDCG@1": 0.0}
    assert evaluate(RUN, QRELS, depth=10).per_topic["1"]["Judged@10"] == pytest.approx(4 / 6)  # 6 returned


def test_measures_are_named_as_ir_measures_names_them_and_old_names_still_work():
    assert [canonical(name) for name in ("judged@5", "nDCG@5_judged_only", "P@10", "R@1000")] == [
        "Judged@5", "condensed-nDCG@5", "P@10", "R@1000",
    ]  # fmt: skip
    result = evaluate(RUN, QRELS, measures=["nDCG@10", "judged@5", "AP"])
    assert result.depth == 5 and result.measures == ["nDCG@10", "Judged@5", "AP"]
    for bad, problem in [
        ("nDCG@0", "cut-off must be at least 1"),
        ("P_0", "cut-off must be at least 1"),
        ("condensed-nDCG@0", "cut-off must be at least 1"),
    ]:
        with pytest.raises(ValueError, match=problem):
            evaluate(RUN, QRELS, measures=[bad])


def test_one_measure_under_two_names_is_one_column_with_the_library_name():
    result = evaluate(RUN, QRELS, measures=["P_10", "P@10", "map", "AP", "ndcg_cut.5", "nDCG@5", "ndcg@5"])
    assert result.measures == ["P@10", "AP", "nDCG@5"]
    data = result.to_json()
    assert data["measures"] == ["P@10", "AP", "nDCG@5"] and not {"P_10", "map", "ndcg_cut.5"} & set(data)
    assert result.per_topic == evaluate(RUN, QRELS, measures=["P@10", "AP", "nDCG@5"]).per_topic


def test_err_and_rbp_by_hand_and_alpha_ndcg_as_ir_measures_computes_it():
    qrels = {"1": {"a": 2.0, "b": 1.0, "c": 0.0}, "2": {"x": 1.0}}
    run = run_of(("1", "c", 3.0), ("1", "a", 2.0), ("1", "b", 1.0), ("2", "y", 1.0))
    topic = evaluate(run, qrels, measures=["ERR@10", "RBP(rel=1,p=0.5)", "alpha_nDCG@10"]).per_topic
    # gdeval's ERR: stop probability (2^label − 1) / 2^4 at each rank, 4 its highest label.
    stop = [0.0, 3 / 16, 1 / 16]
    expected = sum(p / rank * prod(1 - q for q in stop[: rank - 1]) for rank, p in enumerate(stop, 1))
    assert topic["1"]["ERR@10"] == pytest.approx(expected, abs=1e-4)  # gdeval prints 4 decimals
    assert topic["1"]["RBP(rel=1,p=0.5)"] == pytest.approx(0.5 * (0.5 + 0.25), abs=1e-12)
    assert topic["2"] == {"ERR@10": 0.0, "RBP(rel=1,p=0.5)": 0.0, "alpha_nDCG@10": 0.0}
    library = ir_measures.calc_aggregate([ir_measures.alpha_nDCG @ 10], qrels_ints(qrels), run_dict(run))
    assert mean(t["alpha_nDCG@10"] for t in topic.values()) == pytest.approx(library[ir_measures.alpha_nDCG @ 10])


def qrels_ints(qrels):
    return {topic: {doc: int(label) for doc, label in judged.items()} for topic, judged in qrels.items()}


def run_dict(run):
    return {qid: {line.doc: line.score for line in run if line.qid == qid} for qid in {line.qid for line in run}}


@pytest.mark.parametrize("measure", ["P.2", "map", "recip_rank", "recall.1000", "ndcg_cut.10", "ndcg"])
def test_standard_measures_are_trec_evals_own_figures(measure):
    """Each ir_measures name gives what trec_eval computes under its own name, topic by topic."""
    name = {"P.2": "P@2", "map": "AP", "recip_rank": "RR", "recall.1000": "R@1000", "ndcg_cut.10": "nDCG@10"}
    ours = evaluate(RUN, QRELS, measures=[name.get(measure, "nDCG")]).per_topic
    expected = trec_eval(RUN, QRELS, measure)
    for topic, scores in ours.items():
        assert list(scores.values()) == [pytest.approx(expected.get(topic, 0.0), abs=1e-12)], topic


def test_scores_equal_in_single_precision_tie_and_the_larger_id_ranks_first_like_trec_eval():
    qrels = {"1": {"a": 2.0, "b": 0.0}}
    near_tie = run_of(("1", "a", 1.00000002), ("1", "b", 1.00000001))  # one float32 value: a tie
    apart = run_of(("1", "a", 1.0002), ("1", "b", 1.0001))  # two float32 values: a first
    for run, first, ndcg in [(near_tie, "b", 0.0), (apart, "a", 1.0)]:
        assert ranked_documents(run)["1"][0][1] == first
        result = evaluate(run, qrels, measures=["nDCG@1", "condensed-nDCG@1", "nDCG(judged_only=True)@1"])
        assert result.per_topic["1"] == dict.fromkeys(result.measures, ndcg)
        assert trec_eval(run, qrels, "ndcg_cut.1")["1"] == ndcg


def test_topic_order_is_numeric_when_possible():
    assert topic_order(["10", "9", "100", "1"]) == ["1", "9", "10", "100"]
    assert topic_order(["b", "10", "9"]) == ["10", "9", "b"]


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="depth"):
        evaluate(RUN, QRELS, depth=0)
    with pytest.raises(ValueError, match="no judged topics"):
        evaluate(RUN, {})
    with pytest.raises(ValueError, match="topic 1: a document appears more than once"):
        ranked_documents(run_of(("1", "a", 1.0), ("1", "a", 2.0)))
    with pytest.raises(ValueError, match="topic 1, document a: label 1.5 is not an integer"):
        evaluate(RUN, {"1": {"a": 1.5}})


def test_judged_ties_go_to_the_smaller_id():
    result = evaluate(run_of(("1", "a", 1.0), ("1", "b", 1.0)), {"1": {"a": 0.0}}, depth=1)
    assert result.per_topic["1"]["Judged@1"] == 1.0


def trec_eval(run: list[RunLine], qrels: dict[str, dict[str, float]], measure: str, judged_only: bool = False) -> dict:
    """topic → trec_eval's value of `measure` (its own name), from pytrec_eval called directly. A topic judged only
    −2 or lower would crash it (see measures._integer_qrels) and has nothing relevant: it is left out (0)."""
    by_topic: dict[str, dict[str, float]] = {}
    for line in run:
        by_topic.setdefault(line.qid, {})[line.doc] = line.score
    integer = {
        t: {doc: int(label) for doc, label in docs.items()} for t, docs in qrels.items() if max(docs.values()) > -2
    }
    flag = 1 if judged_only else 0
    evaluated = pytrec_eval.RelevanceEvaluator(integer, {measure}, judged_docs_only_flag=flag).evaluate(by_topic)
    key = measure.replace(".", "_")
    return {topic: values[key] for topic, values in evaluated.items()}


def condensed_by_hand(run: list[RunLine], qrels: dict[str, dict[str, float]], depth: int) -> dict[str, float]:
    """The organisers' judged-only nDCG written out: trec_eval's order, documents without a judgment dropped,
    negative labels gain 0, ideal from the topic's judged gains."""
    ranked = ranked_documents(run)
    scores = {}
    for topic, judged in qrels.items():
        gains = [max(judged[doc], 0.0) for _, doc in ranked.get(topic, []) if doc in judged][:depth]
        ideal = sorted((max(label, 0.0) for label in judged.values()), reverse=True)[:depth]
        dcg = sum(gain / log2(i + 2) for i, gain in enumerate(gains))
        best = sum(gain / log2(i + 2) for i, gain in enumerate(ideal))
        scores[topic] = dcg / best if best else 0.0
    return scores


# ---- real runs -------------------------------------------------------------------------------------------------

QRELS_2021 = "touche-task1/touche2021-task1-51-100-relevance.qrels"
QRELS_2020 = "touche-task1/touche2020-task1-relevance-args-me-corpus-version-2020-04-01-corrected.qrels"
TASK2 = ["Aldo-Nadi-run3", "Asuna-run1", "Captain-Tempesta-run1", "Grimjack-run1", "Grimjack-run3", "Katana-run1",
         "Puss-in-Boots-run1"]  # fmt: skip

# (run, qrels, nDCG@5, Judged@5, topics), as ../shared/README.md lists them.
REFERENCE = [
    ("touche-task1/runs-2021-elrond/ElrondKRun.txt", QRELS_2021, 0.7198, 1.0, 50),
    ("touche-task1/runs-2021-elrond/ElrondOpenNlpRun.txt", QRELS_2021, 0.6745, 1.0, 50),
    ("touche-task1/runs-2021-elrond/ElrondSimpleRun.txt", QRELS_2021, 0.6742, 1.0, 50),
    ("touche-task1/runs-2021-elrond/ElrondTaskBodyRun.txt", QRELS_2021, 0.6149, 1.0, 50),
    ("touche-task1/runs-2020-elrond/ElrondKRun.txt", QRELS_2020, 0.6257, 0.673, 49),
]
# Every real run in ../shared with every relevance-like judgments file it was submitted for.
REAL = [(run, qrels) for run, qrels, *_ in REFERENCE] + [
    (f"touche-task2/runs-2022/{run}.txt", f"touche-task2/touche-task2-2022-{kind}.qrels")
    for run in TASK2
    for kind in ("relevance", "quality")
]


@pytest.mark.parametrize(("run", "qrels", "ndcg", "judged", "topics"), REFERENCE)
def test_reference_figures(shared_data, run, qrels, ndcg, judged, topics):
    result = evaluate(read_run(shared_data / run), read_qrels(shared_data / qrels))
    assert result.topics == topics
    assert result.means["nDCG@5"] == pytest.approx(ndcg, abs=5e-5)
    assert result.means["Judged@5"] == pytest.approx(judged, abs=5e-4)


@pytest.mark.parametrize(("run", "qrels"), REAL, ids=[f"{Path(r).stem}-{Path(q).stem[-9:]}" for r, q in REAL])
def test_every_real_run_gets_trec_evals_figures_topic_by_topic(shared_data, run, qrels):
    """trec_eval's own code, called directly, is the second opinion on nDCG@5 and the -J variant; the organisers'
    condensed list is checked against its definition written out."""
    judged = read_qrels(shared_data / qrels)
    lines = read_run(shared_data / run)
    ours = evaluate(lines, judged, measures=["nDCG@5", "condensed-nDCG@5", "nDCG(judged_only=True)@5"]).per_topic
    ndcg = trec_eval(lines, judged, "ndcg_cut.5")
    judged_only = trec_eval(lines, judged, "ndcg_cut.5", judged_only=True)
    condensed = condensed_by_hand(lines, judged, 5)
    assert set(ndcg) <= set(ours) == set(judged)
    for topic, scores in ours.items():
        assert scores["nDCG@5"] == pytest.approx(ndcg.get(topic, 0.0), abs=1e-9), topic
        assert scores["nDCG(judged_only=True)@5"] == pytest.approx(judged_only.get(topic, 0.0), abs=1e-9), topic
        assert scores["condensed-nDCG@5"] == pytest.approx(condensed[topic], abs=1e-9), topic


def test_real_runs_hold_single_precision_ties_that_only_trec_evals_order_breaks(shared_data):
    """Captain-Tempesta's 2022 run has scores that differ only beyond single precision: our order treats them as
    trec_eval does (a tie, larger id first), not as their doubles would."""
    lines = read_run(shared_data / "touche-task2/runs-2022/Captain-Tempesta-run1.txt")
    ranked = ranked_documents(lines)
    doubles = {(line.qid, line.doc): line.score for line in lines}
    flipped = [
        (topic, first, second)
        for topic, pairs in ranked.items()
        for (s1, first), (s2, second) in pairwise(pairs)
        if s1 == s2 and doubles[topic, first] < doubles[topic, second]
    ]
    assert flipped, "expected near-ties whose double order differs from trec_eval's"


@pytest.mark.parametrize(
    ("run", "topic", "unjudged"),
    [("ElrondOpenNlpRun.txt", "68", "Sb2548ce9-A5edc8c49"), ("ElrondSimpleRun.txt", "75", "Sf3afbb4f-A96809fea")],
)
def test_judged_breaks_ties_by_ascending_id_while_ndcg_keeps_trec_evals_order(shared_data, run, topic, unjudged):
    """A judged and an unjudged document tie at ranks 5–6. trec_eval's order (larger id first) would put the
    unjudged one in the top 5 (Judged@5 0.8); ir_measures' Judged order keeps the judged one (1.0), which is the
    organisers' figure. nDCG@5 is unaffected here because the judged document's gain is 0.
    """
    qrels = read_qrels(shared_data / QRELS_2021)
    lines = [line for line in read_run(shared_data / "touche-task1/runs-2021-elrond" / run) if line.qid == topic]
    fifth, sixth = sorted(lines, key=lambda line: (line.score, line.doc), reverse=True)[4:6]
    assert fifth.score == sixth.score and fifth.doc == unjudged and unjudged not in qrels[topic]
    assert qrels[topic][sixth.doc] <= 0
    assert evaluate(lines, qrels).per_topic[topic]["Judged@5"] == 1.0
