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

    def __init__(self, texts: Sequence[str], training: Training, seed: int = 0, features: TextFeatures | None = None):
        """`features`, where given, are TextFeatures of `texts` computed before (they read no judgment, so the
        cross-validation's folds share them)."""
        from threadpoolctl import threadpool_limits

        features = TextFeatures(text_features(texts)) if features is None else features
        self.features = features.matrix
        self.examples = examples(training)
        # The solver's steps are BLAS calls on vectors of the vocabulary's length: too small to share among threads.
        # With two threads on two busy cores each call waited on the other thread, and the fits took 13 times as long.
        with threadpool_limits(limits=1, user_api="blas"):
            self.models = {key: _fit(self.features, have, lack, seed) for key, (have, lack) in self.examples.items()}
        self.neighbours, self.similarity = features.nearest(judged_arguments(self.examples))
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


def examples(training: Training) -> dict[tuple[str, str], tuple[np.ndarray, np.ndarray]]:
    """The property values a guess is learnt for, with their arguments that have it and that lack it: those with at
    least two of each."""
    return {key: pair for key, pair in sorted(training.properties.items()) if min(map(len, pair)) >= 2}


def judged_arguments(examples_of: dict[tuple[str, str], tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    """The arguments some property value's examples judge, each once, in order: the neighbours' candidates."""
    return np.unique(np.concatenate([np.concatenate(pair) for pair in examples_of.values()] or [[]])).astype(np.int64)


class TextFeatures:
    """Every argument's text features (text_features), with each argument's nearest judged arguments for the
    judged sets named beforehand (`judged`, see judged_arguments), found in one pass over the arguments: the
    trainings of a cross-validation judge mostly the same arguments, and one product with the arguments any of them
    judges gives each its similarities (nearest_judged_of_each). Other judged sets are looked up when asked for."""

    def __init__(self, matrix: sp.csr_matrix, judged: Sequence[np.ndarray] = ()):
        self.matrix = matrix
        found = nearest_judged_of_each(matrix, judged, NEIGHBOURS) if len(judged) else []
        self._found = {part.tobytes(): pair for part, pair in zip(judged, found)}

    def nearest(self, judged: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """nearest_judged's NEIGHBOURS for the judged arguments `judged` (sorted, distinct)."""
        found = self._found.get(judged.tobytes())
        return found if found is not None else nearest_judged(self.matrix, judged, NEIGHBOURS)


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
    return nearest_judged_of_each(features, [judged], k)[0]


def nearest_judged_of_each(
    features: sp.csr_matrix, judged: Sequence[np.ndarray], k: int
) -> list[tuple[np.ndarray, np.ndarray]]:
    """nearest_judged for each of several judged sets (each sorted and distinct), from one product of each block of
    rows with the rows any set judges: each similarity is summed over the same terms in the same order whichever
    other rows are in the product, so each set's result is the one nearest_judged of it alone gives."""
    documents = features.shape[0]
    results = [(np.full((documents, k), -1, dtype=np.int64), np.zeros((documents, k), dtype=np.float32))
               for _ in judged]  # fmt: skip
    asked = [number for number, part in enumerate(judged) if len(part)]
    asked.sort(key=lambda number: len(judged[number]))  # stable: the largest last
    if not asked:
        return results
    union = np.unique(np.concatenate([judged[number] for number in asked]))
    columns = {number: np.searchsorted(union, judged[number]) for number in asked}
    against = features[union].T.tocsr().astype(np.float32)  # in the product's own format: converted once
    for start in track(range(0, documents, BLOCK), "find similar arguments", total=-(-documents // BLOCK)):
        rows = np.arange(start, min(start + BLOCK, documents))
        product = (features[rows].astype(np.float32) @ against).toarray()
        for number in asked:  # the set that is the union, if any, last: its distances are the product's own
            in_place = number == asked[-1] and len(judged[number]) == len(union)
            distance = product if in_place else product[:, columns[number]]
            _nearest_in_block(distance, rows, judged[number], *results[number])
    return results


def _nearest_in_block(distance: np.ndarray, rows: np.ndarray, judged: np.ndarray, neighbours: np.ndarray,
                      similarity: np.ndarray) -> None:
    """Fill `rows` of `neighbours` and `similarity` from their similarities to the `judged` rows (`distance`, which
    this turns into distances in place)."""  # fmt: skip
    take = min(neighbours.shape[1], len(judged))
    np.negative(distance, out=distance)  # the nearest first, without a second block-sized array
    at = np.searchsorted(judged, rows)
    own = (at < len(judged)) & (judged[np.minimum(at, len(judged) - 1)] == rows)
    distance[np.flatnonzero(own), at[own]] = np.inf  # an argument is not its own neighbour
    best = np.argpartition(distance, take - 1, axis=1)[:, :take]
    neighbours[rows, :take] = judged[best]
    similarity[rows, :take] = np.maximum(-np.take_along_axis(distance, best, axis=1), 0.0)


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
