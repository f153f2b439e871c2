"""Is a run's difference from a baseline more than topic-to-topic noise? Paired tests over topics, corrected.

Both tests IR papers report are run on the per-topic scores of the same topics: Student's paired t-test and the
Wilcoxon signed-rank test (scipy.stats). Comparing several runs with a baseline on several measures makes many
tests, so p-values are adjusted per measure over the runs compared: Holm's step-down method by default (as
PyTerrier's Experiment and ir_measures users report), Bonferroni's on request.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
from argrank.evaluation.names import BONFERRONI, CORRECTIONS, HOLM



def paired_p_values(run: np.ndarray, baseline: np.ndarray) -> tuple[float | None, float | None]:
    """Two-sided p-values (t-test, Wilcoxon) of `run` against `baseline`, aligned by topic. 1.0 where the two
    agree on every topic; None where a test is undefined (one topic, or scipy answers nan)."""
    differences = np.asarray(run, dtype=np.float64) - np.asarray(baseline, dtype=np.float64)
    if not np.any(differences):
        return 1.0, 1.0
    if len(differences) < 2:
        return None, None
    # Imported here: scipy.stats takes a quarter of a second to import, which every graph process that writes a
    # report without comparing anything (a runs-only experiment) would pay.
    from scipy import stats

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # scipy warns where a statistic divides by zero
        p_t = float(stats.ttest_rel(run, baseline).pvalue)
        p_wilcoxon = float(stats.wilcoxon(run, baseline).pvalue)
    return _defined(p_t), _defined(p_wilcoxon)


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


def _defined(p: float) -> float | None:
    return None if math.isnan(p) else p
