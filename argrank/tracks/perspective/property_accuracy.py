"""How well the implicit scenario's guesses of an author's property hold on held-out issues: accuracy and calibration.

The implicit ranking lifts arguments by a classifier's probability that their author has the query's property; its
figures only mean something next to how good that probability is. Held-out queries judge their issue's arguments
for a property just as training queries do (`training_from_queries` on them gives have/lack examples), so every
held-out argument with a known answer is a test example. Per property (the query key, e.g. `age_bin`, all its
values pooled) and overall: examples, the share that have the property, ROC AUC (0.5 is chance), accuracy at 0.5,
the Brier score, and the expected calibration error over BINS equal-width probability bins.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import argrank.lazylibs as lazylibs
from argrank.core.text_table import text_table
from argrank.tracks.perspective.training import Training

BINS = 10
ALL = "all"


@dataclass
class PropertyAccuracy:
    """Held-out probabilities and answers per property key, pooled over folds as they are added."""

    probabilities: dict[str, list[np.ndarray]] = field(default_factory=dict)
    answers: dict[str, list[np.ndarray]] = field(default_factory=dict)

    def add(self, guess: Callable[[str, str], np.ndarray | None], held_out: Training) -> None:
        """Score `guess` (key, value → every document's probability, None where it has no model) on the have/lack
        examples of `held_out`; a value without a model counts as probability 0.5 (the ranking leaves it alone)."""
        for (key, value), (have, lack) in sorted(held_out.properties.items()):
            rows = np.concatenate([have, lack]).astype(np.int64)
            if not len(rows):
                continue
            probability = guess(key, value)
            predicted = np.full(len(rows), 0.5) if probability is None else probability[rows]
            self.probabilities.setdefault(key, []).append(predicted)
            self.answers.setdefault(key, []).append(np.concatenate([np.ones(len(have)), np.zeros(len(lack))]))

    def table(self) -> dict[str, dict[str, float]]:
        """Property key (and ALL) → its figures."""
        pooled = {
            key: (np.concatenate(self.probabilities[key]), np.concatenate(self.answers[key]))
            for key in self.probabilities
        }
        rows = {key: _figures(*pair) for key, pair in sorted(pooled.items())}
        if pooled:
            rows[ALL] = _figures(*(np.concatenate(part) for part in zip(*pooled.values())))
        return rows


def _figures(probability: np.ndarray, answer: np.ndarray) -> dict[str, Any]:
    # Imported here: scikit-learn takes about a second to import.
    metrics = lazylibs.sklearn("metrics")

    both = 0 < answer.sum() < len(answer)
    return {
        "examples": len(answer),
        "base_rate": float(answer.mean()),
        "auc": float(metrics.roc_auc_score(answer, probability)) if both else math.nan,
        "accuracy": float(np.mean((probability >= 0.5) == (answer == 1))),
        "brier": float(metrics.brier_score_loss(answer, probability)),
        "calibration_error": expected_calibration_error(probability, answer),
    }


def expected_calibration_error(probability: np.ndarray, answer: np.ndarray, bins: int = BINS) -> float:
    """Σ over equal-width bins of (share of examples in the bin) × |mean probability − share with the property|."""
    which = np.minimum((probability * bins).astype(np.int64), bins - 1)
    counts = np.bincount(which, minlength=bins)
    predicted = np.bincount(which, weights=probability, minlength=bins)
    observed = np.bincount(which, weights=answer, minlength=bins)
    filled = counts > 0
    return float(np.sum(np.abs(predicted[filled] - observed[filled])) / len(answer))


def format_accuracy(table: dict[str, dict[str, float]]) -> str:
    """The table as aligned text, one row per property key."""
    header = ["property", "examples", "has it", "AUC", "accuracy", "Brier", "calibration error"]
    rows = [header] + [
        [key, str(row["examples"]), *(f"{row[name]:.3f}" for name in ("base_rate", "auc", "accuracy", "brier",
                                                                      "calibration_error"))]
        for key, row in table.items()
    ]  # fmt: skip
    return text_table(rows)
