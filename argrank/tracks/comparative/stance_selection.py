"""The stance model's settings chosen by cross-validation, and nested cross-validation of that choice.

`choose` picks both classifiers' settings (stance_model.Choice) by inner folds of the examples it is given, grouped
by object pair: first the sentence classifier's among SENTENCE_GRID (by the sentences' macro-F1 in their three
classes), then, reading each inner fold's sentences with the sentence settings chosen, the passage classifier's
among PASSAGE_GRID (by the passages' macro-F1 in the task's four). Each inner fold fits the feature blocks once
and every candidate on them. Ties go to the grid's order.

`nested_cross_validate` scores that choice the way a held-out set would: each outer fold is predicted by the model
of the settings chosen on the other folds alone (its own examples take no part in the inner folds), fitted on those
folds. Outer and inner folds both keep every object pair, in either order, on one side.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Sequence

import numpy as np
from sklearn.metrics import accuracy_score, f1_score
from sklearn.model_selection import StratifiedGroupKFold

from argrank.core.cpu_time import timed
from argrank.tracks.comparative.stance_data import StanceExample, pair_key
from argrank.tracks.comparative.stance_labels import LABELS
from argrank.tracks.comparative.stance_model import (
    SENTENCE_LABELS,
    Choice,
    Featurized,
    Model,
    PassageSettings,
    SentenceSettings,
    featurize_passages,
    featurize_sentences,
    fit_passage_classifier,
    fit_sentence_classifier,
    fit_stance_model,
    passage_rows,
    passage_training_rows,
    predict_examples,
    prepare_sentences,
)

INNER_FOLDS = 5
# The defaults' settings first (ties go to the earlier): C, class weights, the words' weight, annotator agreement.
SENTENCE_GRID = tuple(
    SentenceSettings(c, power, words, agreement)
    for c in (0.3, 1.0)
    for power in (0.5, 1.0)
    for words in (1.0, 0.25)
    for agreement in (0.0, 2.0)
)
PASSAGE_GRID = tuple(
    PassageSettings(family, c, directions)
    for family, cs in (("svm", (0.3, 0.1, 1.0)), ("logistic", (1.0, 3.0)))
    for c in cs
    for directions in (0.5, 1.0)
)


@dataclass(frozen=True)
class Figures:
    """A set of predictions' macro-F1 (over the kind's classes) and accuracy."""

    macro_f1: float
    accuracy: float

    @classmethod
    def of(cls, truth: Sequence[str], predicted: Sequence[str], labels: Sequence[str]) -> Figures:
        return cls(float(f1_score(truth, predicted, labels=list(labels), average="macro", zero_division=0)),
                   float(accuracy_score(truth, predicted)))  # fmt: skip


@dataclass
class Selection:
    """The settings chosen, and per kind of example (True: sentences, False: passages) the inner folds' figures of
    the settings chosen for it (absent where there were no such examples or too few object pairs to fold)."""

    choice: Choice
    inner: dict[bool, Figures] = field(default_factory=dict)
    folds: int = 0


def grids(c: float | None) -> tuple[tuple[SentenceSettings, ...], tuple[PassageSettings, ...]]:
    """The grids to choose from: SENTENCE_GRID and PASSAGE_GRID, or with every C fixed at `c` where one is given."""
    if c is None:
        return SENTENCE_GRID, PASSAGE_GRID
    return (tuple(dict.fromkeys(replace(s, c=c) for s in SENTENCE_GRID)),
            tuple(dict.fromkeys(replace(p, c=c) for p in PASSAGE_GRID)))  # fmt: skip


def grouped_splits(examples: Sequence[StanceExample], folds: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """(train, test) indices of `folds` folds (fewer where there are fewer object pairs), grouped by object pair and
    stratified by kind and label; none where there are fewer than two pairs."""
    groups = [pair_key(e) for e in examples]
    k = min(folds, len(set(groups)))
    if k < 2:
        return []
    labels = [("S:" if e.sentence else "P:") + e.label for e in examples]
    split = StratifiedGroupKFold(n_splits=k, shuffle=True, random_state=seed)
    return list(split.split(np.zeros(len(examples)), labels, groups))


def choose(
    examples: Sequence[StanceExample], *, folds: int = INNER_FOLDS, seed: int = 0, c: float | None = None
) -> Selection:
    """The settings that do best in `folds` inner folds of `examples` (module docstring); the default settings (at
    C `c` where given) where the examples hold fewer than two object pairs."""
    sentence_grid, passage_grid = grids(c)
    default = Choice(sentence_grid[0], passage_grid[0])
    splits = grouped_splits(examples, folds, seed)
    if not splits:
        return Selection(default)
    inner: dict[bool, Figures] = {}
    sentence_at = [i for i, e in enumerate(examples) if e.sentence]
    sentence, fitted = default.sentence, [None] * len(splits)
    if sentence_at:
        predicted, fitted = _sentence_folds(examples, splits, sentence_grid)
        sentence, inner[True] = _best(examples, sentence_grid, predicted, SENTENCE_LABELS, True)
    passage = default.passage
    if len(sentence_at) < len(examples):
        predicted = _passage_folds(examples, splits, passage_grid, sentence, fitted)
        passage, inner[False] = _best(examples, passage_grid, predicted, LABELS, False)
    return Selection(Choice(sentence, passage), inner, len(splits))


def _best(examples, grid, predicted: list[np.ndarray], labels, sentence: bool):
    """The candidate of `grid` whose out-of-fold predictions (`predicted`, one array per candidate over all
    examples, "" where not of this kind) score the best macro-F1 on the examples of this kind, and its Figures."""
    at = [i for i, e in enumerate(examples) if e.sentence == sentence]
    truth = [examples[i].label for i in at]
    figures = [Figures.of(truth, list(guessed[at]), labels) for guessed in predicted]
    best = max(range(len(grid)), key=lambda i: (figures[i].macro_f1, -i))
    return grid[best], figures[best]


Fitted = tuple[Featurized, list[StanceExample]] | None  # an inner fold's sentence features, and its sentences


def _sentence_folds(examples, splits, grid) -> tuple[list[np.ndarray], list[Fitted]]:
    """Each sentence candidate's out-of-fold label of every sentence ("" for passages), and each fold's features
    and training sentences (None where they hold fewer than two labels), for its sentence classifier to be fitted
    again once the settings are chosen, rather than every candidate's classifier kept meanwhile (each holds a
    coefficient per feature and class)."""
    predicted = [np.full(len(examples), "", dtype=object) for _ in grid]
    fitted: list[Fitted] = []
    sentence_at = {i: at for at, i in enumerate(i for i, e in enumerate(examples) if e.sentence)}
    prepared = prepare_sentences([examples[i] for i in sentence_at])  # once: what no fold changes
    for train, test in splits:
        train_at, test_at = ([i for i in part if examples[i].sentence] for part in (train, test))
        train_sentences = [examples[i] for i in train_at]
        labels = Counter(e.label for e in train_sentences)
        if len(labels) < 2:  # nothing to tell apart: every candidate guesses what it saw (NONE if nothing)
            for guessed in predicted:
                guessed[test_at] = labels.most_common(1)[0][0] if labels else SENTENCE_LABELS[2]
            fitted.append(None)
            continue
        featurized = featurize_sentences(prepared.take([sentence_at[i] for i in train_at]))
        fitted.append((featurized, train_sentences))
        if not test_at:
            continue
        tested = featurized.transform(prepared.take([sentence_at[i] for i in test_at]))
        for settings, guessed in zip(grid, predicted):
            classifier = fit_sentence_classifier(featurized, train_sentences, settings)
            guessed[test_at] = classifier.predict(featurized.weighed(tested, settings.block_weights()))
    return predicted, fitted


def _passage_folds(examples, splits, grid, sentence: SentenceSettings, fitted: Sequence[Fitted]) -> list[np.ndarray]:
    """Each passage candidate's out-of-fold label of every passage ("" for sentences), its rows read by the
    sentence classifier of settings `sentence` fitted on the inner fold's training sentences (`fitted`, one per
    split: their features, None for no sentence classifier)."""
    predicted = [np.full(len(examples), "", dtype=object) for _ in grid]
    for (train, test), sentences in zip(splits, fitted):
        test_at = [i for i in test if not examples[i].sentence]
        if not test_at:
            continue
        train_passages = [examples[i] for i in train if not examples[i].sentence]
        labels = Counter(e.label for e in train_passages)
        if len(labels) < 2:
            for guessed in predicted:
                guessed[test_at] = labels.most_common(1)[0][0] if labels else LABELS[-1]
            continue
        model = {"sentence": _sentence_model(sentences, sentence), "passage": None}
        rows, row_labels = passage_training_rows(model, train_passages)
        featurized = featurize_passages(rows)
        tested = featurized.transform(passage_rows(model, [examples[i] for i in test_at]))
        for settings, guessed in zip(grid, predicted):
            classifier = fit_passage_classifier(featurized, row_labels, settings)
            guessed[test_at] = classifier.predict(featurized.weighed(tested, settings.block_weights()))
    return predicted


def _sentence_model(fitted: Fitted, settings: SentenceSettings):
    """The sentence classifier of `settings` on an inner fold's sentence features, None where it has none."""
    if fitted is None:
        return None
    featurized, sentences = fitted
    return featurized.pipeline(settings.block_weights(), fit_sentence_classifier(featurized, sentences, settings))


@dataclass
class OuterFold:
    """One outer fold: the examples it scores (indices), the selection made on the other folds, their labels as
    that fold's model predicts them, the CPU-seconds of choosing, fitting the chosen model and predicting (per
    kind: True sentences, False passages), and that model."""

    test: list[int]
    selection: Selection
    predicted: list[str]
    select_seconds: float
    train_seconds: float
    predict_seconds: dict[bool, float]
    model: Model


@dataclass
class NestedCV:
    """Every example's label as predicted by its outer fold's model (`predicted`), and the folds."""

    predicted: list[str]
    folds: list[OuterFold]


def nested_cross_validate(
    examples: Sequence[StanceExample],
    *,
    folds: int = 5,
    inner_folds: int = INNER_FOLDS,
    seed: int = 0,
    c: float | None = None,
    splits: Sequence[tuple[Sequence[int], Sequence[int]]] | None = None,
) -> NestedCV:
    """Each outer fold (`splits`, by default grouped_splits' `folds`) predicted by the model of the settings chosen
    in `inner_folds` inner folds of the other folds' examples, fitted on those examples. Raises ValueError where the
    examples hold fewer than two object pairs."""
    splits = grouped_splits(examples, folds, seed) if splits is None else splits
    if not splits:
        raise ValueError(f"cross-validation needs examples of at least 2 object pairs, got "
                         f"{len({pair_key(e) for e in examples})}")  # fmt: skip
    predicted: list[str] = [""] * len(examples)
    outer = []
    for train, test in splits:
        training = [examples[i] for i in train]
        selection, select_seconds = timed(lambda: choose(training, folds=inner_folds, seed=seed, c=c))
        model, train_seconds = timed(lambda: fit_stance_model(training, choice=selection.choice))
        predict_seconds = {True: 0.0, False: 0.0}
        guessed: dict[int, str] = {}
        for sentence in (True, False):
            chosen = [i for i in test if examples[i].sentence == sentence]
            if chosen:
                scored = [examples[i] for i in chosen]
                labels, predict_seconds[sentence] = timed(lambda: predict_examples(model, scored))
                guessed.update(zip(chosen, labels))
        test = [int(i) for i in test]
        for i in test:
            predicted[i] = guessed[i]
        outer.append(OuterFold(test, selection, [guessed[i] for i in test], select_seconds, train_seconds,
                               predict_seconds, model))  # fmt: skip
    return NestedCV(predicted, outer)
