"""Is a run's difference from a baseline more than topic-to-topic noise? A paired test over topics, corrected.

The tests IR papers report run on the per-topic scores of the same topics: Student's paired t-test (the default,
as in PyTerrier's Experiment), the Wilcoxon signed-rank test, or Fisher's randomization test, which flips the sign
of each topic's difference at random (Smucker, Allan and Carterette, CIKM 2007); all from scipy.stats. Comparing
several runs with a baseline on several measures makes many tests, so p-values are adjusted per measure over the
pairs tested: Holm's step-down method by default, Bonferroni's on request, or not at all (PyTerrier's default, to
reproduce its figures). Tukey's HSD instead tests every pair of runs at once, topics as blocks of a two-way ANOVA
(Carterette, TOIS 2012), and is adjusted for all pairs already.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

import argrank.lazylibs as lazylibs
from argrank.evaluation.names import (
    BONFERRONI,
    CORRECTIONS,
    FISHER,
    HOLM,
    NO_CORRECTION,
    PERMUTATIONS,
    T_TEST,
    TESTS,
    TUKEY,
)


def paired_p_value(
    run: np.ndarray, baseline: np.ndarray, test: str = T_TEST, permutations: int = PERMUTATIONS, seed: int = 0
) -> float | None:
    """The two-sided p-value of `test` for `run` against `baseline`, aligned by topic; None where the test is
    undefined (fewer than two topics, or scipy answers nan, as for a run identical to the baseline). The
    randomization test draws `permutations` sign flips from `seed`, or takes all 2^topics where that is no more."""
    if test not in TESTS or test == TUKEY:
        raise ValueError(f"unknown paired test {test!r}; expected one of {', '.join(t for t in TESTS if t != TUKEY)}")
    if len(run) < 2 or not np.any(np.asarray(run) != np.asarray(baseline)):
        return None
    stats = lazylibs.scipy("stats")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # scipy warns where a statistic divides by zero
        if test == FISHER:
            result = stats.permutation_test(
                (np.asarray(run, float), np.asarray(baseline, float)), _mean_difference, permutation_type="samples",
                vectorized=True, n_resamples=permutations, rng=np.random.default_rng(seed),
            )  # fmt: skip
        elif test == T_TEST:
            result = stats.ttest_rel(run, baseline)
        else:
            result = stats.wilcoxon(run, baseline)
    p = float(result.pvalue)
    return None if math.isnan(p) else p


def tukey_p_values(scores: np.ndarray) -> np.ndarray:
    """Tukey's HSD p-value of every pair of runs: `scores` is runs × topics, the result runs × runs (nan on the
    diagonal and for equal means where no score varies but by run and topic; 0 for different ones there). The error term is the two-way ANOVA's (runs and topics
    as factors) with (runs − 1)(topics − 1) degrees of freedom, so a topic's difficulty, shared by all runs, is
    not noise; with two runs this is the paired t-test."""
    runs, topics = scores.shape
    if runs < 2 or topics < 2:
        return np.full((runs, runs), np.nan)
    residual = scores - scores.mean(axis=1, keepdims=True) - scores.mean(axis=0, keepdims=True) + scores.mean()
    freedom = (runs - 1) * (topics - 1)
    error = math.fsum((residual**2).ravel().tolist()) / freedom
    means = scores.mean(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        q = np.abs(means[:, None] - means[None, :]) / math.sqrt(error / topics)
    p = lazylibs.scipy("stats").studentized_range.sf(np.where(np.isfinite(q), q, 0.0), runs, freedom)
    p = np.where(np.isfinite(q), p, np.where(np.isinf(q), 0.0, np.nan))
    np.fill_diagonal(p, np.nan)
    return p


def _mean_difference(run: np.ndarray, baseline: np.ndarray, axis: int) -> np.ndarray:
    return np.mean(run - baseline, axis=axis)


def corrected(p_values: list[float | None], method: str = HOLM) -> list[float | None]:
    """The p-values adjusted for testing them together by `method` (none: as they are); None stays None and does
    not count as a test."""
    if method not in CORRECTIONS:
        raise ValueError(f"unknown correction {method!r}; expected one of {', '.join(CORRECTIONS)}")
    if method == NO_CORRECTION:
        return list(p_values)
    tested = [i for i, p in enumerate(p_values) if p is not None]
    m = len(tested)
    adjusted: list[float | None] = list(p_values)
    if method == BONFERRONI:
        for i in tested:
            adjusted[i] = min(1.0, p_values[i] * m)
        return adjusted
    running = 0.0  # Holm: the k-th smallest p times (m − k + 1), never below an earlier one
    for k, i in enumerate(sorted(tested, key=lambda i: p_values[i])):
        running = max(running, min(1.0, p_values[i] * (m - k)))
        adjusted[i] = running
    return adjusted
