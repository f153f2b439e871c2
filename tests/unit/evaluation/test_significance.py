"""Paired tests over topics (t, Wilcoxon, randomization), Tukey's HSD over all runs, and the multiple-testing
corrections (Holm, Bonferroni, none)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy import stats

from argrank.evaluation.names import CORRECTIONS, TESTS, TUKEY
from argrank.evaluation.significance import corrected, paired_p_value, tukey_p_values

PAIRED = [test for test in TESTS if test != TUKEY]


def test_holm_steps_down_and_bonferroni_multiplies_leaving_untested_alone():
    assert corrected([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert corrected([0.01, 0.04, None, 0.03], "bonferroni") == [pytest.approx(0.03), pytest.approx(0.12), None,
                                                                 pytest.approx(0.09)]  # fmt: skip
    assert corrected([0.5, 0.6]) == [1.0, 1.0]  # capped at 1
    with pytest.raises(ValueError, match="unknown correction 'fdr'"):
        corrected([0.1], "fdr")


def test_no_correction_leaves_every_p_value_as_it_is():
    assert corrected([0.01, 0.04, None, 0.03], "none") == [0.01, 0.04, None, 0.03]
    assert "none" in CORRECTIONS


def test_the_paired_p_value_is_scipys_test_and_undefined_where_nothing_can_be_tested():
    rng = np.random.default_rng(7)
    base = rng.random(30)
    run = base + rng.normal(0.05, 0.1, 30)
    assert paired_p_value(run, base) == pytest.approx(stats.ttest_rel(run, base).pvalue)
    assert paired_p_value(run, base, "wilcoxon") == pytest.approx(stats.wilcoxon(run, base).pvalue)
    assert paired_p_value(base, base) is None  # identical runs: nothing to test
    assert paired_p_value(np.array([0.5]), np.array([0.2])) is None  # one topic
    with pytest.raises(ValueError, match="unknown paired test 'z'"):
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


@pytest.mark.parametrize("test", PAIRED)
def test_every_offered_test_gives_a_p_value(test):
    assert 0 < paired_p_value(np.array([0.1, 0.5, 0.2, 0.9]), np.array([0.2, 0.1, 0.1, 0.3]), test) <= 1


@pytest.mark.parametrize("method", CORRECTIONS)
def test_every_offered_correction_leaves_a_single_p_value_alone(method):
    assert corrected([0.2, None], method) == [pytest.approx(0.2), None]


def _exact_randomization(run: np.ndarray, baseline: np.ndarray) -> float:
    """Fisher's two-sided p-value by enumerating every sign flip of the differences."""
    differences = run - baseline
    observed = abs(differences.mean())
    flips = [abs((differences * signs).mean()) for signs in itertools.product((1, -1), repeat=len(differences))]
    return sum(value >= observed - 1e-12 for value in flips) / len(flips)


def test_the_randomization_test_on_a_tiny_case_is_the_exact_enumeration():
    baseline = np.array([0.2, 0.5, 0.1, 0.4, 0.3, 0.6, 0.0])
    run = baseline + np.array([0.3, 0.1, 0.25, -0.05, 0.2, 0.15, 0.1])
    exact = _exact_randomization(run, baseline)
    # 2^7 = 128 sign flips, fewer than the permutations asked for: scipy enumerates them all.
    assert paired_p_value(run, baseline, "fisher", permutations=1000) == pytest.approx(exact, abs=1e-12)
    assert exact == pytest.approx(4 / 128)  # by hand: all positive, or all but the -0.05, and their mirror images


def test_the_randomization_test_samples_close_to_the_exact_value_and_repeats_with_its_seed():
    rng = np.random.default_rng(3)
    baseline = rng.random(14)
    run = baseline + rng.normal(0.04, 0.1, 14)
    exact = _exact_randomization(run, baseline)
    sampled = paired_p_value(run, baseline, "fisher", permutations=20_000, seed=1)
    assert sampled == pytest.approx(exact, abs=0.01)
    assert paired_p_value(run, baseline, "fisher", permutations=20_000, seed=1) == sampled
    assert paired_p_value(run, baseline, "fisher", permutations=200, seed=2) != sampled


def test_tukeys_hsd_of_two_runs_is_the_paired_t_test():
    rng = np.random.default_rng(5)
    base = rng.random(25)
    run = base + rng.normal(0.03, 0.08, 25)
    p = tukey_p_values(np.array([run, base]))
    assert p[0, 1] == p[1, 0] == pytest.approx(stats.ttest_rel(run, base).pvalue, rel=1e-5)
    assert np.isnan(p[0, 0]) and np.isnan(p[1, 1])


def test_tukeys_hsd_takes_topics_as_blocks_and_follows_the_studentized_range_by_hand():
    scores = np.array([[0.5, 0.7, 0.2, 0.9], [0.4, 0.6, 0.2, 0.7], [0.1, 0.5, 0.0, 0.6]])
    p = tukey_p_values(scores)
    # Two-way ANOVA by hand: residual sum of squares over (3 − 1)(4 − 1) = 6 degrees of freedom.
    residual = scores - scores.mean(1, keepdims=True) - scores.mean(0, keepdims=True) + scores.mean()
    error = (residual**2).sum() / 6
    q = abs(scores[0].mean() - scores[2].mean()) / np.sqrt(error / 4)
    assert p[0, 2] == pytest.approx(stats.studentized_range.sf(q, 3, 6))
    # A topic that is easier for every run by the same amount changes nothing: it is not noise.
    shifted = scores + np.array([0.3, -0.1, 0.2, 0.0])
    assert tukey_p_values(shifted) == pytest.approx(p, nan_ok=True)
    # Unblocked (scipy's one-way tukey_hsd) the topics' spread counts as noise and hides the difference.
    assert stats.tukey_hsd(*scores).pvalue[0, 2] > p[0, 2]


def test_tukeys_hsd_where_nothing_varies_but_by_run():
    p = tukey_p_values(np.array([[0.5, 0.6, 0.7], [0.4, 0.5, 0.6], [0.4, 0.5, 0.6]]))
    assert p[0, 1] == 0.0 and np.isnan(p[1, 2])
    assert np.isnan(tukey_p_values(np.array([[0.5], [0.4]]))).all()  # one topic: nothing to test
