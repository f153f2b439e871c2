"""Paired tests over topics and their multiple-testing corrections (Holm, Bonferroni)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from argrank.evaluation.names import CORRECTIONS, TESTS
from argrank.evaluation.significance import corrected, paired_p_value


def test_holm_steps_down_and_bonferroni_multiplies_leaving_untested_alone():
    assert corrected([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert corrected([0.01, 0.04, None, 0.03], "bonferroni") == [pytest.approx(0.03), pytest.approx(0.12), None,
                                                                 pytest.approx(0.09)]  # fmt: skip
    assert corrected([0.5, 0.6]) == [1.0, 1.0]  # capped at 1
    with pytest.raises(ValueError, match="unknown correction 'fdr'"):
        corrected([0.1], "fdr")


def test_the_paired_p_value_is_scipys_test_and_undefined_where_nothing_can_be_tested():
    rng = np.random.default_rng(7)
    base = rng.random(30)
    run = base + rng.normal(0.05, 0.1, 30)
    assert paired_p_value(run, base) == pytest.approx(stats.ttest_rel(run, base).pvalue)
    assert paired_p_value(run, base, "wilcoxon") == pytest.approx(stats.wilcoxon(run, base).pvalue)
    assert paired_p_value(base, base) is None  # identical runs: nothing to test
    assert paired_p_value(np.array([0.5]), np.array([0.2])) is None  # one topic
    with pytest.raises(ValueError, match="unknown test 'z'"):
        paired_p_value(run, base, "z")


def test_holm_by_hand_with_a_step_held_at_the_earlier_value():
    # Sorted: 0.01 × 4, 0.02 × 3, 0.03 × 2, 0.5 × 1 — the third (0.06) may not fall below the second.
    assert corrected([0.5, 0.03, 0.01, 0.02]) == pytest.approx([0.5, 0.06, 0.04, 0.06])
    assert corrected([0.01, 0.012]) == pytest.approx([0.02, 0.02])  # 0.012 × 1 is held at 0.01 × 2
    assert corrected([]) == [] and corrected([None, None]) == [None, None]


def test_the_t_test_by_hand():
    # Differences 1, 2, 3: mean 2, standard deviation 1, t = 2 / (1 / √3) on 2 degrees of freedom.
    baseline = np.array([0.0, 0.0, 0.0])
    p = paired_p_value(baseline + [1.0, 2.0, 3.0], baseline)
    assert p == pytest.approx(2 * stats.t.sf(2 * np.sqrt(3), df=2))
    assert p == pytest.approx(0.07417990022744858)


@pytest.mark.parametrize("test", TESTS)
def test_every_offered_test_gives_a_p_value(test):
    assert 0 < paired_p_value(np.array([0.1, 0.5, 0.2, 0.9]), np.array([0.2, 0.1, 0.1, 0.3]), test) <= 1


@pytest.mark.parametrize("method", CORRECTIONS)
def test_every_offered_correction_leaves_a_single_p_value_alone(method):
    assert corrected([0.2, None], method) == [pytest.approx(0.2), None]
