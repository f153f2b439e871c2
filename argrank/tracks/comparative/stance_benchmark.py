"""How well the stance model does on real text: trained on some sets and scored on another, or cross-validated.

A CompSent-19 set is scored in its three classes (FIRST, SECOND, NONE: NEUTRAL and NO merged) by the sentence
classifier, a Touché set in the task's four by the passage classifier (stance_model). Cross-validation groups its
folds by object pair, so no pair is both trained and scored on.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from sklearn.metrics import accuracy_score, confusion_matrix, precision_recall_fscore_support

from argrank.core.cpu_time import timed
from argrank.core.text_table import text_table
from argrank.tracks.comparative.stance_data import StanceExample
from argrank.tracks.comparative.stance_labels import LABELS
from argrank.tracks.comparative.stance_model import (
    DEFAULT_C,
    SENTENCE_LABELS,
    cross_validate,
    fit_stance_model,
    predict_examples,
)


@dataclass(frozen=True)
class StanceScores:
    """One scored set: its classes, macro-F1, accuracy, per-class figures and confusion (rows: truth)."""

    name: str
    labels: tuple[str, ...]
    macro_f1: float
    accuracy: float
    per_class: dict[str, dict[str, float]]
    confusion: list[list[int]]
    n_train: int
    n_test: int
    train_seconds: float
    predict_per_second: float

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "macro_f1": self.macro_f1,
            "accuracy": self.accuracy,
            "per_class": self.per_class,
            "confusion": self.confusion,
            "labels": list(self.labels),
            "n_train": self.n_train,
            "n_test": self.n_test,
            "train_seconds": self.train_seconds,
            "predict_per_second": self.predict_per_second,
        }


def score(
    name: str, truth: Sequence[str], predicted: Sequence[str], sentence: bool, **timing: float
) -> StanceScores:
    """`predicted` against `truth` in the set's classes; a sentence set's NEUTRAL and NO count as NONE."""
    labels = SENTENCE_LABELS if sentence else LABELS
    if sentence:
        predicted = [label if label in labels else SENTENCE_LABELS[2] for label in predicted]
    precision, recall, f1, support = precision_recall_fscore_support(
        truth, predicted, labels=list(labels), zero_division=0
    )
    per_class = {
        label: {"precision": float(p), "recall": float(r), "f1": float(f), "support": int(s)}
        for label, p, r, f, s in zip(labels, precision, recall, f1, support)
    }
    return StanceScores(
        name=name,
        labels=tuple(labels),
        macro_f1=float(f1.mean()),
        accuracy=float(accuracy_score(truth, predicted)),
        per_class=per_class,
        confusion=confusion_matrix(truth, predicted, labels=list(labels)).tolist(),
        **timing,
    )


def held_out(
    train: Sequence[StanceExample], test: Sequence[StanceExample], test_name: str, *, c: float = DEFAULT_C
) -> StanceScores:
    """Train on `train`, score `test` (one set: sentences or passages)."""
    model, train_seconds = timed(lambda: fit_stance_model(train, c=c))
    predicted, spent = timed(lambda: predict_examples(model, test))
    return score(
        test_name,
        [e.label for e in test],
        predicted,
        test[0].sentence,
        n_train=len(train),
        n_test=len(test),
        train_seconds=train_seconds,
        predict_per_second=_rate(len(test), spent),
    )


def cross_validated(
    sets: dict[str, Sequence[StanceExample]], *, folds: int = 5, seed: int = 0, c: float = DEFAULT_C
) -> list[StanceScores]:
    """Grouped k-fold cross-validation over all `sets` together, scored per set."""
    examples = [e for examples in sets.values() for e in examples]
    predicted, k, train_seconds, predict_seconds = cross_validate(examples, c=c, folds=folds, seed=seed)
    kinds = Counter(e.sentence for e in examples)
    results, at = [], 0
    for name, examples_of in sets.items():
        guessed = predicted[at : at + len(examples_of)]
        at += len(examples_of)
        results.append(
            score(
                f"{name} ({k}-fold)",
                [e.label for e in examples_of],
                guessed,
                examples_of[0].sentence,
                n_train=len(examples) - len(examples) // k,
                n_test=len(examples_of),
                train_seconds=train_seconds / k,  # one fold's, on average
                # Over all folds' examples of the set's kind (sentences or passages), in every set of that kind.
                predict_per_second=_rate(kinds[examples_of[0].sentence], predict_seconds[examples_of[0].sentence]),
            )
        )
    return results


def _rate(count: int, seconds: float) -> float:
    """Predictions per CPU-second; a time below the clock's resolution counts as that resolution."""
    return count / max(seconds, time.get_clock_info("process_time").resolution)


def format_scores(result: StanceScores) -> str:
    """The set's figures as a plain-text block: summary line, per-class table, confusion matrix."""
    lines = [
        f"{result.name}: macro-F1 {result.macro_f1:.4f}, accuracy {result.accuracy:.4f} "
        f"({result.n_test} scored, {result.n_train} trained on; training {result.train_seconds:.1f} CPU-s, "
        f"{result.predict_per_second:,.0f} predicted per CPU-second)",
        "",
    ]
    rows = [
        [label, f"{f['precision']:.4f}", f"{f['recall']:.4f}", f"{f['f1']:.4f}", str(f["support"])]
        for label, f in result.per_class.items()
    ]
    lines.append(text_table([["class", "precision", "recall", "f1", "support"], *rows], rule=True))
    lines.append("")
    confusion = [[label, *map(str, row)] for label, row in zip(result.labels, result.confusion)]
    lines.append(text_table([["truth \\ predicted", *result.labels], *confusion], rule=True))
    return "\n".join(lines)
