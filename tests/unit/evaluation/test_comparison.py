"""Runs against a baseline: a paired test over topics, multiple-testing corrections (or none), against the baseline
or between every pair, wins/ties/losses, and the one significance rule every output shows."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from argrank.evaluation.comparison import Significance, compare, per_query_rows
from argrank.evaluation.comparison_text import format_comparison, format_rows, rows_csv
from argrank.evaluation.significance import corrected, paired_p_value

PER_TOPIC = {
    "base": {"1": {"m": 0.1}, "2": {"m": 0.2}, "3": {"m": 0.3}, "4": {"m": 0.4}, "5": {"m": 0.5}, "6": {"m": 0.6}},
    "better": {"1": {"m": 0.9}, "2": {"m": 0.8}, "3": {"m": 0.95}, "4": {"m": 0.7}, "5": {"m": 0.85}, "6": {"m": 0.99}},
    "mixed": {"1": {"m": 0.2}, "2": {"m": 0.2}, "3": {"m": 0.1}, "4": {"m": 0.5}, "5": {"m": 0.4}, "6": {"m": 0.6}},
}


def _scores(tag: str) -> np.ndarray:
    return np.array([PER_TOPIC[tag][t]["m"] for t in "123456"])


def test_compare_gives_mean_difference_raw_and_corrected_p_and_reject_as_pyterrier_does():
    comparison = compare("args", "relevance", PER_TOPIC, "base", ["m"], pooled={"base": {"stance_f1": 0.5}})
    data = comparison.to_json()
    assert {"track", "qrels", "baseline", "measures", "runs", "test", "correction", "alpha"} <= set(data)
    assert (data["test"], data["correction"], data["alpha"]) == ("t", "holm", 0.05)
    assert data["measures"] == ["m", "stance_f1"] and data["topics"] == 6
    assert data["runs"]["base"] == {"m": {"mean": pytest.approx(0.35)}, "stance_f1": {"mean": 0.5}}
    mixed = data["runs"]["mixed"]["m"]
    assert (mixed["wins"], mixed["ties"], mixed["losses"]) == (2, 2, 2)
    better = data["runs"]["better"]["m"]
    assert set(better) == {"mean", "difference", "p", "p_corrected", "reject", "wins", "ties", "losses"}
    assert better["difference"] == pytest.approx(0.515)
    raw = [paired_p_value(_scores(tag), _scores("base")) for tag in ("better", "mixed")]
    assert [data["runs"][tag]["m"]["p"] for tag in ("better", "mixed")] == pytest.approx(raw)
    assert [data["runs"][tag]["m"]["p_corrected"] for tag in ("better", "mixed")] == pytest.approx(corrected(raw))
    assert better["reject"] is True and mixed["reject"] is False  # t-test: 0.0028 × 2 runs < 0.05
    assert comparison.significant("better", "m") and not comparison.significant("mixed", "m")


def test_the_wilcoxon_test_and_alpha_are_chosen_and_decide_reject():
    wilcoxon = compare("args", "r", PER_TOPIC, "base", ["m"], Significance(test="wilcoxon"))
    better = wilcoxon.runs["better"]["m"]
    assert better["p"] == pytest.approx(stats.wilcoxon(_scores("better"), _scores("base")).pvalue)
    assert better["reject"] is False  # 6 topics: Wilcoxon cannot go below 0.03125, × 2 runs
    loose = compare("args", "r", PER_TOPIC, "base", ["m"], Significance(test="wilcoxon", alpha=0.1))
    assert loose.runs["better"]["m"]["reject"] is True
    with pytest.raises(ValueError, match="alpha 1.5"):
        Significance(alpha=1.5)


def test_a_run_identical_to_the_baseline_is_not_a_test_and_does_not_count_in_the_correction():
    with_copy = {**PER_TOPIC, "copy": PER_TOPIC["base"]}
    comparison = compare("args", "r", with_copy, "base", ["m"])
    copy = comparison.runs["copy"]["m"]
    assert copy["identical"] is True and copy["p"] is None and copy["p_corrected"] is None and not copy["reject"]
    assert (copy["wins"], copy["ties"], copy["losses"]) == (0, 6, 0)
    without = compare("args", "r", PER_TOPIC, "base", ["m"])
    for tag in ("better", "mixed"):  # Holm over two tests, as without the copy
        assert comparison.runs[tag]["m"]["p_corrected"] == without.runs[tag]["m"]["p_corrected"]
    assert "identical" in format_comparison(comparison)


def test_compare_refuses_an_unknown_baseline_or_runs_on_other_topics():
    with pytest.raises(ValueError, match="no run tagged 'x'"):
        compare("args", "relevance", PER_TOPIC, "x", ["m"])
    short = {**PER_TOPIC, "short": {"1": {"m": 0.1}}}
    with pytest.raises(ValueError, match="run short is scored on other topics"):
        compare("args", "relevance", short, "base", ["m"])


def test_summary_and_per_query_rows_and_their_csv():
    comparison = compare("args", "r", PER_TOPIC, "base", ["m"])
    rows = comparison.summary_rows()
    assert [(row["run"], row["baseline"]) for row in rows] == [("base", True), ("better", False), ("mixed", False)]
    assert rows[1]["reject"] is True and rows[0]["p"] is None
    csv = rows_csv(rows, ["run", "measure", "p", "reject"]).splitlines()
    assert csv[0] == "run,measure,p,reject" and csv[1] == "base,m,," and csv[2].endswith(",true")
    long = per_query_rows(PER_TOPIC)
    assert len(long) == 18 and long[0] == {"run": "base", "topic": "1", "measure": "m", "value": 0.1}
    assert format_rows(long[:1], ["run", "topic", "measure", "value"]).splitlines()[-1].split() == [
        "base", "1", "m", "0.1000"]  # fmt: skip


def test_the_randomization_test_uses_its_permutations_and_seed_and_the_holm_correction():
    settings = Significance(test="fisher", permutations=5000, seed=4)
    comparison = compare("args", "r", PER_TOPIC, "base", ["m"], settings)
    raw = [paired_p_value(_scores(tag), _scores("base"), "fisher", 5000, 4) for tag in ("better", "mixed")]
    assert [comparison.runs[tag]["m"]["p"] for tag in ("better", "mixed")] == raw
    assert [comparison.runs[tag]["m"]["p_corrected"] for tag in ("better", "mixed")] == pytest.approx(corrected(raw))
    assert comparison.to_json()["permutations"] == 5000 and comparison.to_json()["seed"] == 4
    with pytest.raises(ValueError, match="permutations 0"):
        Significance(test="fisher", permutations=0)


def test_tukeys_hsd_tests_every_pair_and_is_not_corrected_again():
    comparison = compare("args", "r", PER_TOPIC, "base", ["m"], Significance(test="tukey"))
    pairs = comparison.pairs["m"]
    assert set(pairs) == {"base", "better", "mixed"} and set(pairs["better"]) == {"base", "mixed"}
    assert pairs["better"]["mixed"] == pairs["mixed"]["better"] is not None
    for tag in ("better", "mixed"):
        entry = comparison.runs[tag]["m"]
        assert entry["p"] == entry["p_corrected"] == pairs[tag]["base"]
    assert comparison.runs["better"]["m"]["reject"] and not comparison.runs["mixed"]["m"]["reject"]
    again = type(comparison).from_json(comparison.to_json())
    assert again == comparison


def test_tukeys_hsd_is_recorded_as_its_own_adjustment_over_every_pair_whatever_was_asked():
    data = compare("args", "r", PER_TOPIC, "base", ["m"], Significance(test="tukey", correction="bonferroni")).to_json()
    assert (data["test"], data["correction"], data["pairs_tested"]) == ("tukey", "tukey-hsd", "all")
    with pytest.raises(ValueError, match="unknown correction 'tukey-hsd'"):
        Significance(correction="tukey-hsd")  # only Tukey's HSD adjusts so


def test_no_correction_leaves_the_p_values_as_the_test_gives_them():
    comparison = compare("args", "r", PER_TOPIC, "base", ["m"], Significance(correction="none"))
    for tag in ("better", "mixed"):
        entry = comparison.runs[tag]["m"]
        t_test = stats.ttest_rel(_scores(tag), _scores("base")).pvalue
        assert entry["p"] == entry["p_corrected"] == pytest.approx(t_test)
    assert comparison.to_json()["correction"] == "none"


@pytest.mark.parametrize("test", ["t", "wilcoxon", "fisher"])
def test_every_pair_is_tested_and_corrected_over_all_pairs(test):
    with_copy = {**PER_TOPIC, "copy": PER_TOPIC["base"]}
    settings = Significance(test=test, pairs_tested="all", permutations=500, seed=1)
    comparison = compare("args", "r", with_copy, "base", ["m"], settings)
    pairs = comparison.pairs["m"]
    tags = list(with_copy)
    raw = {(a, b): paired_p_value(_scores_of(with_copy, a), _scores_of(with_copy, b), test, 500, 1)
           for i, a in enumerate(tags) for b in tags[i + 1 :]}  # fmt: skip
    assert raw[("base", "copy")] is None  # identical: not a test, not counted in the correction
    adjusted = dict(zip(raw, corrected(list(raw.values()))))
    for (a, b), p in adjusted.items():
        assert pairs[a][b] == pairs[b][a] == (None if p is None else pytest.approx(p))
    for tag in ("better", "mixed"):  # a run's entries are its pair with the baseline, corrected over all pairs
        entry = comparison.runs[tag]["m"]
        assert entry["p"] == pytest.approx(raw[("base", tag)]) and entry["p_corrected"] == pairs[tag]["base"]
        assert entry["reject"] == (entry["p_corrected"] < 0.05)
    assert comparison.runs["copy"]["m"]["p"] is None and comparison.runs["copy"]["m"]["identical"]
    data = comparison.to_json()
    assert data["pairs_tested"] == "all" and data["pairs"]["m"]["better"]["mixed"] == pairs["better"]["mixed"]
    assert type(comparison).from_json(data) == comparison


def test_json_written_before_pairs_were_chosen_reads_as_baselines_only():
    data = compare("args", "r", PER_TOPIC, "base", ["m"]).to_json()
    assert data["pairs_tested"] == "baselines" and "pairs" not in data
    del data["pairs_tested"]
    assert type(compare("args", "r", PER_TOPIC, "base", ["m"])).from_json(data).significance == Significance()
    with pytest.raises(ValueError, match="unknown pairs 'some'"):
        Significance(pairs_tested="some")


def _scores_of(per_topic: dict, tag: str) -> np.ndarray:
    return np.array([per_topic[tag][t]["m"] for t in "123456"])
