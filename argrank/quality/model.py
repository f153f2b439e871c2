"""The quality model: a premise's expected combined quality, from its words and its measured style.

Webis-ArgQuality-20 scores a premise that is no argument at -4 and the arguments on a scale centred per topic, so
the model has two parts over one feature matrix (word 1–2-gram TF-IDF beside the scaled `features.FEATURES`):
a logistic regression for "is an argument" and a ridge regression of the quality of arguments. Its prediction is
the expectation P(argument) × quality + (1 − P(argument)) × the non-arguments' score, which orders a likely
non-argument below the arguments and ranks the arguments by how good they look.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

import argrank.lazylibs as lazylibs
from argrank.quality.data import QualitySet
from argrank.quality.features import text_features, word_counts

ALPHA = 3.0  # the quality regression's ridge penalty
C = 1.0  # the argument classifier's inverse regularisation
# What the model file may build beyond skops' defaults (core.model_file): our feature function and the scaler.
MODEL_TYPES = (f"{text_features.__module__}.text_features",)


@dataclass(frozen=True)
class QualityPredictions:
    """Per text: the expected quality, the probability that it is an argument, its length in words, and what the
    quality part alone predicts (the quality it would have as an argument)."""

    quality: np.ndarray
    argument: np.ndarray
    words: np.ndarray
    as_argument: np.ndarray


def train_quality_model(examples: QualitySet, seed: int = 0, alpha: float = ALPHA) -> dict[str, Any]:
    """The model fitted on `examples` (as a dict of fitted scikit-learn parts and the non-arguments' score), its
    quality regression penalised by `alpha`; ValueError where the examples have no argument, or nothing but
    arguments."""
    return train_quality_models(examples, (alpha,), seed)[alpha]


def train_quality_models(examples: QualitySet, alphas: Sequence[float], seed: int = 0) -> dict[float, dict[str, Any]]:
    """One model per ridge penalty in `alphas`, sharing the fitted features and argument classifier (what a choice
    of the penalty in inner folds refits); ValueError as train_quality_model."""
    linear_model = lazylibs.sklearn("linear_model")

    if examples.is_argument.all() or not examples.is_argument.any():
        raise ValueError("the examples must hold both arguments and premises that are none")
    features = _features()
    matrix = features.fit_transform(examples.texts)
    argument = linear_model.LogisticRegression(C=C, max_iter=5000, random_state=seed).fit(matrix, examples.is_argument)
    arguments = examples.is_argument
    floor = float(np.mean(examples.quality[~arguments]))
    return {alpha: {"features": features, "argument": argument, "floor": floor,
                    "quality": linear_model.Ridge(alpha=alpha).fit(matrix[arguments], examples.quality[arguments])}
            for alpha in alphas}  # fmt: skip


def predict_quality_many(models: dict[float, dict[str, Any]], texts: Sequence[str]) -> dict[float, QualityPredictions]:
    """Each of train_quality_models' models' predictions for `texts`, the shared features computed once."""
    first = next(iter(models.values()))
    if not len(texts):
        empty = np.zeros(0)
        return {alpha: QualityPredictions(empty, empty, empty, empty) for alpha in models}
    matrix = first["features"].transform(list(texts))
    argument = first["argument"].predict_proba(matrix)[:, list(first["argument"].classes_).index(True)]
    words = word_counts(texts)
    parts = {alpha: model["quality"].predict(matrix) for alpha, model in models.items()}
    return {alpha: QualityPredictions(argument * parts[alpha] + (1 - argument) * model["floor"], argument, words,
                                      parts[alpha]) for alpha, model in models.items()}  # fmt: skip


def predict_quality(model: dict[str, Any], texts: Sequence[str]) -> QualityPredictions:
    """The model's predictions for `texts` (none for no texts)."""
    return predict_quality_many({0.0: model}, texts)[0.0]


def _features():
    """Word 1–2-grams (TF-IDF) beside the measured features, scaled: one matrix for both parts of the model."""
    text = lazylibs.sklearn("feature_extraction.text")
    pipeline = lazylibs.sklearn("pipeline")
    preprocessing = lazylibs.sklearn("preprocessing")

    return pipeline.FeatureUnion(
        [
            ("words", text.TfidfVectorizer(ngram_range=(1, 2), min_df=2, sublinear_tf=True)),
            (
                "measures",
                pipeline.make_pipeline(
                    preprocessing.FunctionTransformer(text_features), preprocessing.StandardScaler()
                ),
            ),
        ]
    )
