"""Measure names as researchers type them: ir_measures' or trec_eval's, in any case where that names one measure,
and otherwise one line with the closest known names."""

from __future__ import annotations

import ir_measures
import pytest

from argrank.evaluation.spelling import CLOSEST, closest, parse


@pytest.mark.parametrize(
    ("name", "measure"),
    [
        ("P@10", ir_measures.P @ 10), ("P_10", ir_measures.P @ 10), ("ndcg_cut.5", ir_measures.nDCG @ 5),
        ("ndcg@5", ir_measures.nDCG @ 5), ("map", ir_measures.AP), ("mrr", ir_measures.RR),
        ("recall_100", ir_measures.R @ 100), ("ndcg", ir_measures.nDCG),
    ],
)  # fmt: skip
def test_names_of_either_library_in_any_case_parse_to_one_measure(name, measure):
    assert parse(name) == measure


def test_a_trec_eval_name_must_match_whole():
    with pytest.raises(ValueError, match="^unknown measure 'P_1O'; closest: "):
        parse("P_1O")  # ir_measures alone would read its start, P_1


def test_trec_eval_sets_of_measures_are_refused():
    with pytest.raises(ValueError, match="^measure 'all_trec' is trec_eval's name for a set of measures"):
        parse("all_trec")


def test_a_name_like_nothing_known_says_so():
    with pytest.raises(ValueError, match=r"^unknown measure 'qqqqqqqq'; closest: none$"):
        parse("qqqqqqqq")


def test_the_closest_names_carry_the_cut_off_typed_and_include_our_own():
    assert closest("nDGC@5")[0] == "nDCG@5"
    assert closest("ndcg_cat_10")[0] == "ndcg_cut_10"
    assert "condensed-nDCG@7" in closest("condensd-ndcg@7", ["condensed-nDCG@{k}"])
    assert "condensed-nDCG@7" not in closest("condensd-ndcg@7")
    assert len(closest("P@1")) <= CLOSEST
