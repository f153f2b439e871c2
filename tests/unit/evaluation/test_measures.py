"""Measure names: trec_eval's and ir_measures' names in any case stored under ir_measures' name, old names as
aliases, and one line for a name that is unknown, several measures, or computed only by a missing provider."""

from __future__ import annotations

import ir_measures
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from argrank.evaluation.measures import by_topic, canonical, judged_and_first, old_name, per_topic_scores, ranks_read
from argrank.formats.runfile import RunLine


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("P_10", "P@10"), ("P.10", "P@10"), ("map", "AP"), ("ndcg_cut_10", "nDCG@10"), ("ndcg_cut.5", "nDCG@5"),
        ("recip_rank", "RR"), ("bpref", "Bpref"), ("recall_1000", "R@1000"), ("map_cut_10", "AP@10"),
        ("ndcg@5", "nDCG@5"), ("NDCG@5", "nDCG@5"), ("ERR@10", "ERR@10"), ("err@10", "ERR@10"), ("MAP", "AP"),
        ("mrr", "RR"), ("judged@5", "Judged@5"), ("condensed-ndcg@05", "condensed-nDCG@5"),
        ("alpha_nDCG@10", "alpha_nDCG@10"), ("RBP(rel=1)", "RBP(rel=1)"),
    ],
)  # fmt: skip
def test_trec_eval_names_and_any_case_are_stored_under_ir_measures_name(typed, stored):
    assert canonical(typed) == stored


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("ndcg_cut", "measure 'ndcg_cut' is trec_eval's name for 9 measures (nDCG@5, nDCG@10, nDCG@15, "),
        ("P", "measure 'P' is trec_eval's name for 9 measures (P@5, P@10, "),
        ("P_5,10", "measure 'P_5,10' is trec_eval's name for 2 measures (P@5, P@10); name one"),
        ("official", "measure 'official' is trec_eval's name for a set of measures; name them one by one"),
    ],
)
def test_a_trec_eval_name_for_several_measures_is_refused_with_what_it_stands_for(name, problem):
    with pytest.raises(ValueError) as error:
        canonical(name)
    assert str(error.value).startswith(problem) and "\n" not in str(error.value)


@pytest.mark.parametrize(
    ("name", "closest"),
    [
        ("nDGC@5", "nDCG@5"),
        ("ndgc_cut_10", "ndcg_cut_10"),
        ("condensd-nDCG@5", "condensed-nDCG@5"),
        ("recip_rnak", "recip_rank"),
        ("ndcg_cut_1O", "ndcg_cut"),  # not nDCG@1: ir_measures alone would read only the name's start
    ],
)
def test_an_unknown_name_gets_one_line_with_the_closest_known_names(name, closest):
    with pytest.raises(ValueError) as error:
        canonical(name)
    line = str(error.value)
    assert line.startswith(f"unknown measure {name!r}; closest: {closest}") and "\n" not in line


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("P@100001", "measure 'P@100001': the cut-off must be at most 100,000"),
        ("ndcg_cut_1000000000", "measure 'ndcg_cut_1000000000': the cut-off must be at most 100,000"),
        ("P@99999999999999999999", "measure 'P@99999999999999999999': the cut-off must be at most 100,000"),
        ("judged@100001", "measure 'Judged@100001': the cut-off must be at most 100,000"),  # the alias resolved
        ("condensed-nDCG@100001", "measure 'condensed-nDCG@100001': the cut-off must be at most 100,000"),
        ("alpha_nDCG@21", "measure 'alpha_nDCG@21': ir_measures' pyndeval computes cut-offs up to 20 only"),
    ],
)
def test_a_cut_off_beyond_what_any_run_or_library_reaches_is_refused_naming_the_measure(name, problem):
    """P@99999999999999999999 reached pytrec_eval as P@2**63−1 and ended in a KeyError, alpha_nDCG@21 in ndeval's
    assertion; a cut-off of 100,000 is still a measure."""
    with pytest.raises(ValueError) as error:
        canonical(name)
    assert str(error.value) == problem
    assert canonical("P@100000") == "P@100000" and canonical("alpha_nDCG@20") == "alpha_nDCG@20"


def test_a_measure_only_an_uninstalled_provider_computes_names_the_package(monkeypatch):
    monkeypatch.setattr(ir_measures.providers.registry["pyndeval"], "_is_available", False)
    with pytest.raises(ValueError, match=r"'alpha_nDCG@10' needs ir_measures' pyndeval provider, not installed here: "
                       r"pip install ir-measures\[pyndeval\]"):  # fmt: skip
        canonical("alpha_nDCG@10")
    with pytest.raises(ValueError, match="'RBP': ir_measures computes it only with trectools, which argrank does not"):
        canonical("RBP")  # cwl_eval computes RBP(rel=1)


def test_the_old_name_of_a_measure_that_had_one():
    assert old_name("Judged@5") == "judged@5"
    assert old_name("condensed-nDCG@10") == "nDCG@10_judged_only"
    assert old_name("nDCG@10") is None and old_name("P@5") is None


def _run(*rows: tuple[str, str, float]) -> list[RunLine]:
    return [RunLine(topic, "Q0", doc, rank, score, "t") for rank, (topic, doc, score) in enumerate(rows, 1)]


def test_per_topic_scores_by_hand_with_a_missed_topic_scoring_zero():
    qrels = {"1": {"a": 1.0, "b": 0.0}, "2": {"x": 1.0}, "3": {"y": 1.0}}
    run = _run(("1", "b", 2.0), ("1", "a", 1.0), ("3", "z", 1.0), ("3", "y", 0.5), ("9", "a", 1.0))
    scores = per_topic_scores(["P@1", "RR", "condensed-nDCG@1"], run, qrels)
    assert list(scores) == ["1", "2", "3"]  # judged topics only
    assert scores["1"] == {"P@1": 0.0, "RR": 0.5, "condensed-nDCG@1": 0.0}
    assert scores["2"] == {"P@1": 0.0, "RR": 0.0, "condensed-nDCG@1": 0.0}
    # z is unjudged: the condensed list starts with y.
    assert scores["3"] == {"P@1": 0.0, "RR": 0.5, "condensed-nDCG@1": 1.0}


def test_a_topic_judged_only_as_spam_scores_zero_instead_of_crashing_trec_eval():
    scores = per_topic_scores(["nDCG@5", "P@5"], _run(("1", "a", 1.0)), {"1": {"a": -2.0, "b": -3.0}})
    assert scores == {"1": {"nDCG@5": 0.0, "P@5": 0.0}}


def test_how_far_down_the_measures_look_at_documents_without_judgments():
    assert ranks_read(["nDCG@5", "Judged@5", "condensed-nDCG@5"]) == 5
    assert ranks_read(["P@10", "nDCG@3"]) == 10
    assert ranks_read(["condensed-nDCG@5"]) == 0  # judged-only: they leave before the cut
    assert ranks_read(["nDCG@5", "AP"]) is None and ranks_read(["RR"]) is None  # the whole ranking


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["1", "2", "3"]), st.integers(0, 30), st.sampled_from([1.0, 2.0, 2.5, 3.0])),
                min_size=10, max_size=120),
       st.lists(st.tuples(st.sampled_from(["1", "2"]), st.integers(0, 30), st.sampled_from([-2, 0, 1, 2])), min_size=1,
                max_size=20),
       st.sampled_from([["nDCG@5", "Judged@5", "condensed-nDCG@5"], ["P@3", "nDCG@10"], ["condensed-nDCG@3"]]))  # fmt: skip
def test_keeping_what_the_cut_offs_see_scores_as_the_whole_run_does(lines, judgments, names):
    """Every judged document and those without judgments that may rank among the first k (ties kept): the same
    scores, bit for bit, as the whole run, on runs full of tied scores."""
    run = list({(topic, f"d{doc}"): RunLine(topic, "Q0", f"d{doc}", 1, score, "t")
                for topic, doc, score in lines}.values())  # fmt: skip
    qrels: dict[str, dict[str, float]] = {}
    for topic, doc, label in judgments:
        qrels.setdefault(topic, {})[f"d{doc}"] = label
    depth = ranks_read(names)
    assert per_topic_scores(names, judged_and_first(run, qrels, depth), qrels) == per_topic_scores(names, run, qrels)
    assert set(judged_and_first(run, qrels, depth)) == set(by_topic(run))  # every topic of the run, judged or not
