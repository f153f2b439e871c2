"""The implicit scenario's guess of an author's property: neighbours, their votes, the per-value models and how the
ranking uses the guess (with and without the stance label), on cases small enough to follow by hand."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest
import scipy.sparse as sp
from threadpoolctl import threadpool_info, threadpool_limits

from argrank.tracks.perspective import property_guess
from argrank.tracks.perspective.data import Query
from argrank.tracks.perspective.property_guess import (
    PRIOR_WEIGHT,
    PropertyGuesser,
    TextFeatures,
    logit,
    nearest_judged,
    nearest_judged_of_each,
    neighbour_vote,
)
from argrank.tracks.perspective.ranking import IMPLICIT_DEPTH, PropertyEvidence, stance_link
from argrank.tracks.perspective.training import Training


def unit_rows(rows: list[list[float]]) -> sp.csr_matrix:
    matrix = np.array(rows, dtype=np.float64)
    return sp.csr_matrix(matrix / np.linalg.norm(matrix, axis=1, keepdims=True))


def test_nearest_judged_are_the_most_similar_judged_rows_and_never_the_row_itself():
    features = unit_rows([[1, 0], [1, 0.1], [0, 1], [0.1, 1], [1, 1]])
    neighbours, similarity = nearest_judged(features, np.array([0, 1, 2]), 2)
    dense = features.toarray()
    assert set(neighbours[0]) == {1, 2} and neighbours[0][np.argmax(similarity[0])] == 1  # not itself
    assert set(neighbours[3]) == {2, 1} and neighbours[3][np.argmax(similarity[3])] == 2  # 1 leans toward 3 more than 0
    assert similarity[1].max() == pytest.approx(dense[1] @ dense[0], rel=1e-6)
    # Fewer judged rows than neighbours asked for: the rest are −1 with similarity 0.
    neighbours, similarity = nearest_judged(features, np.array([2]), 3)
    assert list(neighbours[4]) == [2, -1, -1] and list(similarity[4][1:]) == [0, 0]
    assert list(neighbours[2]) == [2, -1, -1] and similarity[2][0] == 0  # only itself: it casts no weight


@pytest.mark.parametrize("seed", range(6))
def test_the_nearest_judged_of_several_sets_at_once_are_each_sets_own(seed, monkeypatch):
    """One product with the union of the judged sets gives each set what nearest_judged of it alone gives, bit for
    bit and in the same order: over several blocks of rows, with repeated rows (tied similarities), a set that is
    the union, one that is empty and one asked twice."""
    monkeypatch.setattr(property_guess, "BLOCK", 7)
    rng = np.random.default_rng(seed)
    dense = rng.random((40, 12)) * (rng.random((40, 12)) < 0.3)
    dense[5:9] = dense[4]  # ties
    dense[dense.sum(axis=1) == 0, 0] = 1.0
    features = sp.csr_matrix(dense / np.linalg.norm(dense, axis=1, keepdims=True))
    union = np.sort(rng.choice(40, 30, replace=False))
    parts = [np.sort(rng.choice(union, size, replace=False)) for size in (25, 3, 25)]
    judged = [parts[0], union, np.array([], dtype=np.int64), parts[1], parts[0], parts[2]]
    together = nearest_judged_of_each(features, judged, 5)
    for part, (neighbours, similarity) in zip(judged, together):
        alone = nearest_judged(features, part, 5)
        assert np.array_equal(neighbours, alone[0]) and np.array_equal(similarity, alone[1])
    shared = TextFeatures(features, judged[:2])
    for part in (parts[0], parts[1]):  # named beforehand, and looked up when asked for
        assert all(np.array_equal(a, b) for a, b in zip(shared.nearest(part), nearest_judged(features, part, 30)))


def test_neighbour_vote_weights_known_answers_by_similarity_squared_and_leans_on_the_prior():
    # Four documents, three neighbours each (−1: none).
    neighbours = np.array([[3, 1, 2], [2, -1, -1], [0, 1, 3], [0, 1, 2]])
    similarity = np.array([[0.5, 1.0, 0.9], [0.8, 0, 0], [0.6, 0.2, 0.0], [0.3, 0.4, 0.5]], dtype=np.float32)
    have, lack = np.array([0]), np.array([1, 3])  # 2 has no answer for this property: it does not vote
    vote = neighbour_vote(neighbours, similarity, have, lack)
    prior = 1 / 3
    assert vote[0] == pytest.approx((0.25 * 0 + 1.0 * 0 + PRIOR_WEIGHT * prior) / (0.25 + 1.0 + PRIOR_WEIGHT))
    assert vote[1] == pytest.approx(prior)  # no neighbour with an answer: the prior
    assert vote[2] == pytest.approx((0.36 * 1 + 0.04 * 0 + PRIOR_WEIGHT * prior) / (0.36 + 0.04 + PRIOR_WEIGHT))
    assert vote[3] == pytest.approx((0.09 * 1 + 0.16 * 0 + PRIOR_WEIGHT * prior) / (0.09 + 0.16 + PRIOR_WEIGHT))


def texts_with_a_marker() -> tuple[list[str], Training]:
    """Rural authors (even rows) write of farms and villages, the others of trams and flats; rows 8–11 are unjudged."""
    rural = ["der Bauernhof im Dorf braucht Hilfe", "unser Dorf und der Bauernhof", "Bauernhof Dorf Landwirtschaft"]
    urban = ["das Tram in der Stadt", "die Wohnung in der Stadt ist teuer", "Stadt Tram Wohnung"]
    texts = [(rural if i % 2 == 0 else urban)[i % 3] + f" Argument {i}" for i in range(12)]
    have, lack = np.array([0, 2, 4, 6]), np.array([1, 3, 5, 7])
    return texts, Training([np.arange(8)], {("residence", "Land"): (have, lack), ("gender", "x"): (have[:1], lack)})


def test_guesser_ranks_unjudged_holders_above_the_others_and_knows_what_it_cannot_guess():
    texts, training = texts_with_a_marker()
    guesser = PropertyGuesser(texts, training)
    odds = guesser.log_odds("residence", "Land")
    assert odds[[8, 10]].min() > odds[[9, 11]].max()
    assert np.allclose(guesser.probability("residence", "Land"), 1 / (1 + np.exp(-odds)))
    assert guesser.log_odds("residence", "Stadt") is None  # never asked in training
    assert guesser.log_odds("gender", "x") is None  # one example has it: too few to learn from
    assert list(guesser.models) == [("residence", "Land")]


def blas_threads() -> list[int]:
    return [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]


def test_the_regressions_are_fitted_on_one_blas_thread_and_the_limit_is_lifted_after(monkeypatch):
    texts, training = texts_with_a_marker()
    during = []

    def fit(*args):
        during.append(blas_threads())
        return fit_for_real(*args)

    fit_for_real = property_guess._fit
    monkeypatch.setattr(property_guess, "_fit", fit)
    with threadpool_limits(limits=2, user_api="blas"):
        callers = blas_threads()
        PropertyGuesser(texts, training)
        assert blas_threads() == callers
    assert len(during) == 1 and set(during[0]) == {1}  # one value to learn, fitted with every BLAS on one thread


def test_stance_link_gives_each_candidate_its_sides_log_odds():
    log_odds = logit(np.array([0.9, 0.7, 0.2, 0.4]))
    favor = np.array([True, True, False, False])
    assert np.allclose(stance_link(log_odds, favor), logit(np.array([0.8, 0.8, 0.3, 0.3])))
    assert np.allclose(stance_link(log_odds, np.ones(4, dtype=bool)), logit(np.array([0.55] * 4)))


def implicit_documents(texts: list[str], stance: bool) -> pa.Table:
    columns = {"id": [str(i) for i in range(len(texts))], "language": ["de"] * len(texts),
               "topic": ["x"] * len(texts), "argument": texts}  # fmt: skip
    if stance:
        columns["stance"] = ["FAVOR" if i % 4 < 2 else "AGAINST" for i in range(len(texts))]
    return pa.table(columns)


@pytest.mark.parametrize("stance", [True, False])
def test_implicit_reorders_only_the_top_by_the_guess(stance):
    texts, training = texts_with_a_marker()
    evidence = PropertyEvidence("implicit", implicit_documents(texts, stance), training, stance=stance)
    assert (evidence.favor is not None) == stance
    scores = np.linspace(2.0, 1.0, len(texts))
    adjusted = evidence.adjust(scores, Query("q", "text", None, {"residence": "Land"}))
    order = np.argsort(-adjusted, kind="stable")
    # Only 12 documents, all within IMPLICIT_DEPTH: the unjudged rural ones come before the unjudged urban ones.
    assert len(texts) < IMPLICIT_DEPTH
    assert max(np.flatnonzero(np.isin(order, [8, 10]))) < min(np.flatnonzero(np.isin(order, [9, 11])))
    # A property no model knows leaves the scores alone.
    assert np.array_equal(evidence.adjust(scores, Query("q", "text", None, {"gender": "y"})), scores)


def test_implicit_keeps_the_rest_below_the_top(monkeypatch):
    monkeypatch.setattr("argrank.tracks.perspective.ranking.IMPLICIT_DEPTH", 3)
    texts, training = texts_with_a_marker()
    evidence = PropertyEvidence("implicit", implicit_documents(texts, True), training)
    scores = np.linspace(2.0, 1.0, len(texts))
    adjusted = evidence.adjust(scores, Query("q", "text", None, {"residence": "Land"}))
    assert adjusted[:3].min() > adjusted[3:].max()
    assert np.array_equal(adjusted[3:], scores[3:])


def test_without_the_switch_the_implicit_scenario_may_not_be_given_the_stance():
    texts, training = texts_with_a_marker()
    with pytest.raises(ValueError, match="the implicit scenario may not read stance"):
        PropertyEvidence("implicit", implicit_documents(texts, True), training, stance=False)
