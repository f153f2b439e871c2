"""top_k: the k best by score, ties by document id, whether it selects among all candidates or among those a
sample's bar lets through."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from argrank.kernels import choose
from argrank.retrieval.top_k import SAMPLED, STRIDE, best_first, top_k


def reference(candidates: np.ndarray, scores: np.ndarray, k: int) -> list[tuple[int, float]]:
    return sorted(zip(candidates.tolist(), scores.tolist()), key=lambda pair: (-pair[1], pair[0]))[: max(k, 0)]


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 50), st.integers(1, 6_000), st.integers(1, 40), st.integers(0, 2**32 - 1))
def test_the_k_best_ties_by_id(k, n, distinct, seed):
    """Few distinct scores make ties at the k-th best; many candidates per k take the sampled path."""
    rng = np.random.default_rng(seed)
    candidates = rng.permutation(n * 3)[:n].astype(np.int32)
    scores = rng.integers(0, distinct, n) / 7.0
    docs, best = top_k(candidates, scores, k)
    assert list(zip(docs.tolist(), best.tolist())) == reference(candidates, scores, k)


def test_a_sample_that_lets_too_few_through_falls_back_to_all():
    """Every sampled score is the best, but fewer than k candidates have it: the bar would keep too few."""
    k = 100
    n = SAMPLED * k + 100
    scores = np.ones(n)
    scores[::STRIDE] = 10.0
    assert (scores == 10.0).sum() < k
    candidates = np.arange(n, dtype=np.int32)[::-1].copy()
    docs, best = top_k(candidates, scores, k)
    assert list(zip(docs.tolist(), best.tolist())) == reference(candidates, scores, k)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 300), st.integers(1, 12), st.integers(0, 2**32 - 1))
def test_best_first_is_lexsorts_order(n, distinct, seed):
    """best_first orders as np.lexsort((candidates, -scores)): by score, runs of equal scores by document id."""
    rng = np.random.default_rng(seed)
    candidates = rng.permutation(n * 4 + 1)[:n].astype(np.int32)
    scores = rng.integers(-distinct, distinct, n) / 3.0
    assert best_first(candidates, scores).tolist() == np.lexsort((candidates, -scores)).tolist()


@pytest.mark.parametrize("setting", ["numpy", "numba"])
def test_every_kernels_setting_orders_the_ties_alike(setting):
    """BM25 hands top_k its kernels: the compiled tie order gives the numpy one's ranking."""
    rng = np.random.default_rng(11)
    candidates = rng.permutation(30_000)[:9_000].astype(np.int32)
    scores = rng.integers(0, 300, 9_000) / 11.0
    docs, best = top_k(candidates, scores, 1_000, choose(setting))
    assert list(zip(docs.tolist(), best.tolist())) == reference(candidates, scores, 1_000)


def test_best_first_refuses_candidates_and_scores_of_different_lengths():
    with pytest.raises(ValueError, match="3 candidates but 2 scores"):
        best_first(np.arange(3, dtype=np.int32), np.ones(2))
