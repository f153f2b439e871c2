"""The implicit scenario's guess of whether an argument's author has a property, from the argument's text alone.

The examples are the arguments judged for training queries: a training query with property p judges its issue's
arguments, so the relevant ones have p and the others do not. Two guesses, both over one word 1–2-gram TF-IDF
matrix of every argument's text (built once, shared by every property value), are averaged as log-odds:

- a logistic regression per property value (classes balanced), for the words and phrases a group of authors
  uses more than others (farming and villages for rural authors, say);
- the author's other arguments: each argument's NEIGHBOURS most similar judged arguments (cosine), whose known
  answers vote weighted by similarity², smoothed toward the value's share of the examples. Smartvote candidates
  answer many questions, so an argument's nearest neighbours among other issues' arguments are often its author's
  own, whose profile the training queries reveal.

Cross-validated by issue on the real release's training queries (docs/tracks/perspective.md), each alone lifts
the implicit scenario's nDCG@4 from the property-blind 0.19 to about 0.29–0.30, and the two averaged to 0.31;
character n-grams instead of words scored lower (0.27) and took four times as long to fit.

The fits run with BLAS on one thread: their calls are small, and OpenBLAS's threads on a busy machine only wait
on each other, for the same models (probabilities within 1e-10).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

import argrank.lazylibs as lazylibs
from argrank.core.progress import track

if TYPE_CHECKING:
    import scipy.sparse as sp
    from sklearn.linear_model import LogisticRegression

    from argrank.tracks.perspective.training import Training

NEIGHBOURS = 30  # judged arguments that vote on an argument's author
PRIOR_WEIGHT = 0.05  # the value's share of the examples counts as this much similarity² among the votes
BLOCK = 2_000  # arguments compared with the judged ones at a time (a dense block of BLOCK × judged similarities)
CLIP = 1e-4  # probabilities are kept within [CLIP, 1 − CLIP] before taking log-odds


class PropertyGuesser:
    """Per property value (key, value) with examples on both sides, every argument's log-odds of its author having
    it, computed once per value on first use."""

    def __init__(self, texts: Sequence[str], training: Training, seed: int = 0, features: sp.csr_matrix | None = None):
        """`features`, where given, are `text_features(texts)` computed before (they read no judgment, so the
        cross-validation's folds share them)."""
        from threadpoolctl import threadpool_limits

        self.features = text_features(texts) if features is None else features
        self.examples = {key: pair for key, pair in sorted(training.properties.items()) if min(map(len, pair)) >= 2}
        # The solver's steps are BLAS calls on vectors of the vocabulary's length: too small to share among threads.
        # With two threads on two busy cores each call waited on the other thread, and the fits took 13 times as long.
        with threadpool_limits(limits=1, user_api="blas"):
            self.models = {key: _fit(self.features, have, lack, seed) for key, (have, lack) in self.examples.items()}
        judged = np.unique(np.concatenate([np.concatenate(pair) for pair in self.examples.values()] or [[]]))
        self.neighbours, self.similarity = nearest_judged(self.features, judged.astype(np.int64), NEIGHBOURS)
        self._log_odds: dict[tuple[str, str], np.ndarray | None] = {}

    def log_odds(self, key: str, value: str) -> np.ndarray | None:
        """Every argument's log-odds of its author having `key` = `value`; None where no model could be trained."""
        if (key, value) not in self._log_odds:
            self._log_odds[key, value] = self._guess(key, value)
        return self._log_odds[key, value]

    def probability(self, key: str, value: str) -> np.ndarray | None:
        """log_odds as a probability."""
        odds = self.log_odds(key, value)
        return None if odds is None else 1.0 / (1.0 + np.exp(-odds))

    def _guess(self, key: str, value: str) -> np.ndarray | None:
        model = self.models.get((key, value))
        if model is None:
            return None
        words = model.predict_proba(self.features)[:, list(model.classes_).index(1.0)]
        authors = neighbour_vote(self.neighbours, self.similarity, *self.examples[key, value])
        return (logit(words) + logit(authors)) / 2


def text_features(texts: Sequence[str]) -> sp.csr_matrix:
    """Every text's word 1–2-gram TF-IDF row (sublinear tf, n-grams in at least two texts), unit length."""
    # Imported here: scikit-learn takes about a second to import, and only the implicit scenario needs it.
    text = lazylibs.sklearn("feature_extraction.text")
    return text.TfidfVectorizer(ngram_range=(1, 2), min_df=2, sublinear_tf=True).fit_transform(texts)


def _fit(features: sp.csr_matrix, have: np.ndarray, lack: np.ndarray, seed: int) -> LogisticRegression:
    linear_model = lazylibs.sklearn("linear_model")

    rows = np.concatenate([have, lack])
    labels = np.concatenate([np.ones(len(have)), np.zeros(len(lack))])
    # Newton-CG, not L-BFGS: on these wide TF-IDF rows it stops nearer the optimum, and sooner.
    return linear_model.LogisticRegression(
        class_weight="balanced", solver="newton-cg", max_iter=1000, random_state=seed
    ).fit(features[rows], labels)


def nearest_judged(features: sp.csr_matrix, judged: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """For every row of `features` (unit rows), its k most similar rows among `judged` (never itself) and their
    cosine similarities: two documents × k arrays (row −1, similarity 0 where fewer than k are judged)."""
    documents = features.shape[0]
    neighbours = np.full((documents, k), -1, dtype=np.int64)
    similarity = np.zeros((documents, k), dtype=np.float32)
    if not len(judged):
        return neighbours, similarity
    against = features[judged].T.tocsr().astype(np.float32)  # in the product's own format: converted once
    take = min(k, len(judged))
    for start in track(range(0, documents, BLOCK), "find similar arguments", total=-(-documents // BLOCK)):
        rows = np.arange(start, min(start + BLOCK, documents))
        distance = (features[rows].astype(np.float32) @ against).toarray()
        np.negative(distance, out=distance)  # the nearest first, without a second block-sized array
        at = np.searchsorted(judged, rows)
        own = (at < len(judged)) & (judged[np.minimum(at, len(judged) - 1)] == rows)
        distance[np.flatnonzero(own), at[own]] = np.inf  # an argument is not its own neighbour
        best = np.argpartition(distance, take - 1, axis=1)[:, :take]
        neighbours[rows, :take] = judged[best]
        similarity[rows, :take] = np.maximum(-np.take_along_axis(distance, best, axis=1), 0.0)
    return neighbours, similarity


def neighbour_vote(neighbours: np.ndarray, similarity: np.ndarray, have: np.ndarray, lack: np.ndarray) -> np.ndarray:
    """Each argument's probability of having the property from its neighbours' known answers, weighted by
    similarity², with the examples' share of `have` as a prior worth PRIOR_WEIGHT; neighbours not judged for this
    property do not vote."""
    answer = np.full(len(neighbours) + 1, np.nan)  # the last entry answers for the row −1 (no neighbour)
    answer[have], answer[lack] = 1.0, 0.0
    votes = answer[neighbours]
    weight = np.where(np.isnan(votes), 0.0, similarity.astype(np.float64) ** 2)
    prior = len(have) / (len(have) + len(lack))
    return (np.nansum(votes * weight, axis=1) + PRIOR_WEIGHT * prior) / (weight.sum(axis=1) + PRIOR_WEIGHT)


def logit(probability: np.ndarray) -> np.ndarray:
    clipped = np.clip(probability, CLIP, 1 - CLIP)
    return np.log(clipped / (1 - clipped))
