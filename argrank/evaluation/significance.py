"""Is a run's difference from a baseline more than topic-to-topic noise? A paired test over topics, corrected.

The two tests IR papers report run on the per-topic scores of the same topics: Student's paired t-test (the
default, as in PyTerrier's Experiment) or the Wilcoxon signed-rank test (scipy.stats). Comparing several runs with
a baseline on several measures makes many tests, so p-values are adjusted per measure over the runs tested:
Holm's step-down method by default, Bonferroni's on request.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

import argrank.lazylibs as lazylibs
from argrank.evaluation.names import BONFERRONI, CORRECTIONS, HOLM, T_TEST, TESTS


def paired_p_value(run: np.ndarray, baseline: np.ndarray, test: str = T_TEST) -> float | None:
    """The two-sided p-value of `test` for `run` against `baseline`, aligned by topic; None where the test is
    undefined (fewer than two topics, or scipy answers nan, as for a run identical to the baseline)."""
    if test not in TESTS:
        raise ValueError(f"unknown test {test!r}; expected one of {', '.join(TESTS)}")
    if len(run) < 2 or not np.any(np.asarray(run) != np.asarray(baseline)):
        return None
    stats = lazylibs.scipy("stats")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # scipy warns where a statistic divides by zero
        result = stats.ttest_rel(run, baseline) if test == T_TEST else stats.wilcoxon(run, baseline)
    p = float(result.pvalue)
    return None if math.isnan(p) else p


def corrected(p_values: list[float | None], method: str = HOLM) -> list[float | None]:
    """The p-values adjusted for testing them together (None stays None and does not count as a test)."""
    if method not in CORRECTIONS:
        raise ValueError(f"unknown correction {method!r}; expected one of {', '.join(CORRECTIONS)}")
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
