"""Runs against a baseline: paired tests over topics, multiple-testing corrections, wins/ties/losses."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from argrank.evaluation.comparison import compare, format_comparison
from argrank.evaluation.significance import corrected, paired_p_values


def test_holm_steps_down_and_bonferroni_multiplies_leaving_untested_alone():
    assert corrected([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert corrected([0.01, 0.04, None, 0.03], "bonferroni") == [pytest.approx(0.03), pytest.approx(0.12), None,
                                                                 pytest.approx(0.09)]  # fmt: skip
    assert corrected([0.5, 0.6]) == [1.0, 1.0]  # capped at 1
    with pytest.raises(ValueError, match="unknown correction 'fdr'"):
        corrected([0.1], "fdr")


def test_paired_p_values_are_scipys_and_defined_where_the_tests_are():
    rng = np.random.default_rng(7)
    base = rng.random(30)
    run = base + rng.normal(0.05, 0.1, 30)
    p_t, p_wilcoxon = paired_p_values(run, base)
    assert p_t == pytest.approx(stats.ttest_rel(run, base).pvalue)
    assert p_wilcoxon == pytest.approx(stats.wilcoxon(run, base).pvalue)
    assert paired_p_values(base, base) == (1.0, 1.0)  # identical runs: nothing to test
    assert paired_p_values(np.array([0.5]), np.array([0.2])) == (None, None)  # one topic


PER_TOPIC = {
    "base": {"1": {"m": 0.1}, "2": {"m": 0.2}, "3": {"m": 0.3}, "4": {"m": 0.4}, "5": {"m": 0.5}, "6": {"m": 0.6}},
    "better": {"1": {"m": 0.9}, "2": {"m": 0.8}, "3": {"m": 0.95}, "4": {"m": 0.7}, "5": {"m": 0.85}, "6": {"m": 0.99}},
    "mixed": {"1": {"m": 0.2}, "2": {"m": 0.2}, "3": {"m": 0.1}, "4": {"m": 0.5}, "5": {"m": 0.4}, "6": {"m": 0.6}},
}


def test_compare_gives_the_issue_json_shape_with_only_the_mean_for_the_baseline():
    comparison = compare("args", "relevance", PER_TOPIC, "base", ["m"], pooled={"base": {"stance_f1": 0.5}})
    data = comparison.to_json()
    assert {"track", "qrels", "baseline", "measures", "runs"} <= set(data)
    assert data["measures"] == ["m", "stance_f1"] and data["topics"] == 6 and data["correction"] == "holm"
    assert data["runs"]["base"] == {"m": {"mean": pytest.approx(0.35)}, "stance_f1": {"mean": 0.5}}
    mixed = data["runs"]["mixed"]["m"]
    assert (mixed["wins"], mixed["ties"], mixed["losses"]) == (2, 2, 2)
    assert set(data["runs"]["better"]["m"]) == {"mean", "p_t", "p_wilcoxon", "wins", "ties", "losses"}
    raw = [paired_p_values(np.array([PER_TOPIC[tag][t]["m"] for t in "123456"]),
                           np.array([PER_TOPIC["base"][t]["m"] for t in "123456"]))[0] for tag in ("better", "mixed")]  # fmt: skip
    assert [data["runs"][tag]["m"]["p_t"] for tag in ("better", "mixed")] == pytest.approx(corrected(raw))
    assert comparison.significant("better", "m") is False  # 6 topics: Wilcoxon cannot go below 0.03125 × 2 runs


def test_compare_refuses_an_unknown_baseline_or_runs_on_other_topics():
    with pytest.raises(ValueError, match="no run tagged 'x'"):
        compare("args", "relevance", PER_TOPIC, "x", ["m"])
    short = {**PER_TOPIC, "short": {"1": {"m": 0.1}}}
    with pytest.raises(ValueError, match="run short is scored on other topics"):
        compare("args", "relevance", short, "base", ["m"])


def test_the_table_marks_significant_p_values_and_names_the_baseline():
    text = format_comparison(compare("args", "relevance", PER_TOPIC, "base", ["m"]), alpha=0.5)
    assert text.splitlines()[0].startswith("args / relevance: 6 topics, baseline base; p-values Holm-corrected")
    better = next(line for line in text.splitlines() if line.startswith("better"))
    assert "base (baseline)" in text and better.split()[1:] == ["0.8650", "+0.5150", "0.0028*", "0.0625*", "6/0/0"]
