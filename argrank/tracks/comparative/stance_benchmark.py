"""How well the stance model does on real text: trained on some sets and scored on another, or cross-validated.

A CompSent-19 set is scored in its three classes (FIRST, SECOND, NONE: NEUTRAL and NO merged) by the sentence
classifier, a Touché set in the task's four by the passage classifier (stance_model). The model's settings are
chosen by inner folds of what it is trained on (stance_selection), so the figure of a held-out set or an outer fold
is that of a choice made without it. Folds are grouped by object pair, so no pair is both trained and scored on.
"""

from __future__ import annotations

import dataclasses
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np
from sklearn.metrics import accuracy_score, confusion_matrix, precision_recall_fscore_support

from argrank.core.cpu_time import timed
from argrank.core.text_table import text_table
from argrank.evaluation.folds import draws_summary, draws_text, fold_spread
from argrank.tracks.comparative.stance_data import StanceExample
from argrank.tracks.comparative.stance_labels import LABELS
from argrank.tracks.comparative.stance_model import (
    SENTENCE_LABELS,
    Model,
    PassageSettings,
    SentenceSettings,
    fit_stance_model,
    predict_examples,
)
from argrank.tracks.comparative.stance_selection import INNER_FOLDS, OuterFold, choose, nested_cross_validate

# A run's stance stage classifies all its ranked passages in one call: prediction speed is also timed on batches of
# at least this many examples, where a fold's first call on its few dozen passages holds fixed costs too.
BATCH = 1000
BATCH_CALLS = 3  # ... in this many calls, the fastest kept: one call's time swings with the machine, not the code
MEASURES = ("macro_f1", "accuracy")  # the figures of a fold, of the inner folds and of the spread
# Bands of the annotators' agreement (the share who gave the label), each [low, high) but the first: where a set
# has such shares (CompSent-19), accuracy is also given per band, which tells errors on clear cases from splits.
AGREEMENT_BANDS = (("1", 1.0, 1.0), ("0.8 to 1", 0.8, 1.0), ("0.6 to 0.8", 0.6, 0.8), ("below 0.6", 0.0, 0.6))
_SHOWN = ("macro-F1", "accuracy")  # as the text names them


@dataclass(frozen=True)
class StanceScores:
    """One scored set: its classes, macro-F1, accuracy, per-class figures and confusion (rows: truth); where a
    choice of settings was made by cross-validation, the inner folds' figure that made it (`inner`: macro_f1,
    accuracy; averaged over the outer folds when nested), and for nested cross-validation the outer folds' spread
    and each fold's figures and choice. Prediction speed is given twice: as the scored examples were predicted
    (`predict_per_second`: a fold's one call, right after fitting), and in batches of at least BATCH
    (`batch_predict_per_second`: as a run's stance stage predicts, the fastest of BATCH_CALLS calls)."""

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
    batch_predict_per_second: float = 0.0
    select_seconds: float = 0.0
    inner: dict[str, float] | None = None
    spread: dict[str, dict[str, float]] | None = None
    folds: list[dict] | None = None
    choice: dict | None = None
    draws: dict | None = None  # repeated cross-validation: each draw's figures, their means and spread (`repeated`)
    by_agreement: list[dict] | None = None  # accuracy per AGREEMENT_BANDS band, where the annotators did not all agree

    def to_json(self) -> dict:
        data = {
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
            "batch_predict_per_second": self.batch_predict_per_second,
        }
        if self.inner is not None:
            data.update(cv_inner_macro_f1=self.inner["macro_f1"], cv_inner_accuracy=self.inner["accuracy"],
                        select_seconds=self.select_seconds)  # fmt: skip
        if self.spread is not None:
            data["cv_spread"] = self.spread
        if self.folds is not None:
            data["folds"] = self.folds
        if self.choice is not None:
            data["choice"] = self.choice
        if self.draws is not None:
            data["cv_repeats"] = self.draws
        if self.by_agreement is not None:
            data["accuracy_by_agreement"] = self.by_agreement
        return data


def score(
    name: str, truth: Sequence[str], predicted: Sequence[str], sentence: bool,
    agreement: Sequence[float] | None = None, **timing: Any
) -> StanceScores:
    """`predicted` against `truth` in the set's classes; a sentence set's NEUTRAL and NO count as NONE. With each
    example's `agreement`, where not all of them are 1, the accuracy in each of AGREEMENT_BANDS too."""
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
        by_agreement=_by_agreement(truth, predicted, agreement),
        **timing,
    )


def _by_agreement(truth: Sequence[str], predicted: Sequence[str],
                  agreement: Sequence[float] | None) -> list[dict] | None:
    """Each AGREEMENT_BANDS band that holds examples: its name, how many, and their accuracy; None without
    agreements, or where every example's is 1."""
    if agreement is None or all(share == 1.0 for share in agreement):
        return None
    shares, right = np.asarray(agreement, dtype=float), np.asarray(truth) == np.asarray(predicted)
    bands = []
    for band, low, high in AGREEMENT_BANDS:
        chosen = shares == 1.0 if low == high else (shares >= low) & (shares < high)
        if chosen.any():
            bands.append({"band": band, "scored": int(chosen.sum()), "accuracy": float(right[chosen].mean())})
    return bands


def held_out(
    train: Sequence[StanceExample],
    test: Sequence[StanceExample],
    test_name: str,
    *,
    c: float | None = None,
    seed: int = 0,
    inner_folds: int = INNER_FOLDS,
) -> StanceScores:
    """Train on `train` with the settings its own cross-validation chooses (C fixed at `c` where given), score
    `test` (one set: sentences or passages)."""
    selection, select_seconds = timed(lambda: choose(train, folds=inner_folds, seed=seed, c=c))
    model, train_seconds = timed(lambda: fit_stance_model(train, choice=selection.choice))
    predicted, spent = timed(lambda: predict_examples(model, test))
    inner = selection.inner.get(test[0].sentence)
    return score(
        test_name,
        [e.label for e in test],
        predicted,
        test[0].sentence,
        [e.agreement for e in test],
        n_train=len(train),
        n_test=len(test),
        train_seconds=train_seconds,
        predict_per_second=_rate(len(test), spent),
        batch_predict_per_second=_rate(*_batch_timing(model, test, spent)),
        select_seconds=select_seconds,
        inner=dataclasses.asdict(inner) if inner else None,
        choice=selection.choice.to_json(),
    )


def cross_validated(
    sets: dict[str, Sequence[StanceExample]],
    *,
    folds: int = 5,
    seed: int = 0,
    c: float | None = None,
    inner_folds: int = INNER_FOLDS,
) -> list[StanceScores]:
    """Nested cross-validation over all `sets` together (stance_selection), scored per set: the outer folds'
    predictions pooled (the headline), beside the inner figure that chose each fold's settings (averaged over the
    folds) and the spread of the set's figure over the folds."""
    examples = [e for examples in sets.values() for e in examples]
    nested = nested_cross_validate(examples, folds=folds, inner_folds=inner_folds, seed=seed, c=c)
    k = len(nested.folds)
    kinds = Counter(e.sentence for e in examples)
    predict_seconds = {kind: sum(fold.predict_seconds[kind] for fold in nested.folds) for kind in (True, False)}
    batches = {kind: _batch_timings(nested.folds, examples, kind) for kind in kinds}
    timing = {
        "n_train": len(examples) - len(examples) // k,
        "train_seconds": float(np.mean([fold.train_seconds for fold in nested.folds])),  # one fold's, on average
        "select_seconds": float(np.mean([fold.select_seconds for fold in nested.folds])),
    }
    results, at = [], 0
    for name, examples_of in sets.items():
        span = range(at, at + len(examples_of))
        at += len(examples_of)
        sentence = examples_of[0].sentence
        fold_figures = [_fold(fold, examples, span, sentence) for fold in nested.folds]
        fold_figures = [figures for figures in fold_figures if figures]
        inner = [f["inner"] for f in fold_figures if f["inner"]]
        results.append(
            score(
                f"{name} ({k}-fold)",
                [e.label for e in examples_of],
                [nested.predicted[i] for i in span],
                sentence,
                [e.agreement for e in examples_of],
                n_test=len(examples_of),
                # Over all folds' examples of the set's kind (sentences or passages), in every set of that kind.
                predict_per_second=_rate(kinds[sentence], predict_seconds[sentence]),
                batch_predict_per_second=_rate(*batches[sentence]),
                inner={measure: float(np.mean([f[measure] for f in inner])) for measure in MEASURES} if inner else None,
                spread={measure: fold_spread([f[measure] for f in fold_figures]) for measure in MEASURES},
                folds=fold_figures,
                **timing,
            )
        )
    return results



def repeated(
    sets: dict[str, Sequence[StanceExample]],
    *,
    repeats: int,
    folds: int = 5,
    seed: int = 0,
    c: float | None = None,
    inner_folds: int = INNER_FOLDS,
) -> list[StanceScores]:
    """cross_validated with `seed`, each set's scores also holding (`draws`) its figures over `repeats` whole nested
    cross-validations, one per seed from `seed` on: how much the held-out figure owes to one draw of the folds. The
    headline stays the first seed's, so it does not depend on how many draws were asked for."""
    seeds = list(range(seed, seed + repeats))
    draws = [cross_validated(sets, folds=folds, seed=other, c=c, inner_folds=inner_folds) for other in seeds]
    results = []
    for position, first in enumerate(draws[0]):
        found = {measure: [getattr(draw[position], measure) for draw in draws] for measure in MEASURES}
        results.append(dataclasses.replace(first, draws=draws_summary(seeds, found)))
    return results


def _fold(fold: OuterFold, examples: Sequence[StanceExample], span: range, sentence: bool) -> dict | None:
    """A fold's figures on the examples of one set (indices `span`), with the inner figure of the set's kind and
    the settings chosen; None where the fold holds none of the set's examples."""
    mine = [(i, label) for i, label in zip(fold.test, fold.predicted) if i in span]
    if not mine:
        return None
    scored = score("", [examples[i].label for i, _ in mine], [label for _, label in mine], sentence,
                   n_train=0, n_test=len(mine), train_seconds=0.0, predict_per_second=0.0)  # fmt: skip
    inner = fold.selection.inner.get(sentence)
    return {"n_test": len(mine), "macro_f1": scored.macro_f1, "accuracy": scored.accuracy,
            "confusion": scored.confusion, "inner": dataclasses.asdict(inner) if inner else None,
            "choice": fold.selection.choice.to_json()}  # fmt: skip


def _batch_timings(folds: Sequence[OuterFold], examples: Sequence[StanceExample], sentence: bool) -> tuple[int, float]:
    """How many examples of one kind the outer folds' models predicted in batches, and in how many CPU-seconds:
    each fold's model on its own test examples of that kind (_batch_timing)."""
    timings = [
        _batch_timing(fold.model, [examples[i] for i in fold.test if examples[i].sentence == sentence],
                      fold.predict_seconds[sentence])
        for fold in folds
    ]  # fmt: skip
    return sum(count for count, _ in timings), sum(seconds for _, seconds in timings)


def _batch_timing(model: Model, examples: Sequence[StanceExample], seconds: float) -> tuple[int, float]:
    """How many examples one call of `model` predicted and the CPU-seconds of the fastest of BATCH_CALLS such calls,
    `examples` having taken `seconds` in one call already: that call and more on `examples` where it held at least
    BATCH, else calls on `examples` repeated in turn to BATCH (none where there are none)."""
    if not examples:
        return 0, seconds
    batch = examples if len(examples) >= BATCH else [examples[i % len(examples)] for i in range(BATCH)]
    times = [seconds] if batch is examples else []
    while len(times) < BATCH_CALLS:
        times.append(timed(lambda: predict_examples(model, batch))[1])
    return len(batch), min(times)


def _rate(count: int, seconds: float) -> float:
    """Predictions per CPU-second; a time below the clock's resolution counts as that resolution."""
    return count / max(seconds, time.get_clock_info("process_time").resolution)


def format_scores(result: StanceScores) -> str:
    """The set's figures as a plain-text block: summary line (the held-out figure), the inner folds' figure that
    chose the settings and the outer folds' spread where there are such, per-class table, confusion matrix, and each
    outer fold's figures and choice."""
    lines = [
        (
            f"{result.name}: macro-F1 {result.macro_f1:.4f}, accuracy {result.accuracy:.4f} "
            f"({result.n_test} scored, {result.n_train} trained on; training {result.train_seconds:.1f} CPU-s, "
            f"{result.predict_per_second:,.0f} predicted per CPU-second, {result.batch_predict_per_second:,.0f} in "
            f"batches of {BATCH:,} or more, the fastest of {BATCH_CALLS} calls)"
        ),
    ]
    kind = "sentence" if result.labels == SENTENCE_LABELS else "passage"
    if result.inner is not None:
        where = "inner folds, mean over the outer folds" if result.folds else "cross-validation of the training sets"
        lines.append(f"  settings chosen by {where}: macro-F1 {result.inner['macro_f1']:.4f}, accuracy "
                     f"{result.inner['accuracy']:.4f} (choosing {result.select_seconds:.1f} CPU-s)")  # fmt: skip
    if result.choice is not None:
        lines.append(f"  chosen: {_described(result.choice, kind)}")
    if result.spread is not None:
        spread = [f"{label} {result.spread[measure]['min']:.4f} to {result.spread[measure]['max']:.4f} "
                  f"(sd {result.spread[measure]['sd']:.4f})" for measure, label in zip(MEASURES, _SHOWN)]  # fmt: skip
        lines.append(f"  over the {len(result.folds or [])} outer folds: {', '.join(spread)}")
    if result.draws is not None:
        lines.append("  " + draws_text(result.draws, dict(zip(MEASURES, _SHOWN))))
    if result.by_agreement is not None:
        bands = [f"{band['band']}: {band['accuracy']:.4f} of {band['scored']:,}" for band in result.by_agreement]
        lines.append(f"  accuracy by the annotators' agreement: {'; '.join(bands)}")
    lines.append("")
    rows = [
        [label, f"{f['precision']:.4f}", f"{f['recall']:.4f}", f"{f['f1']:.4f}", str(f["support"])]
        for label, f in result.per_class.items()
    ]
    lines.append(text_table([["class", "precision", "recall", "f1", "support"], *rows], rule=True))
    lines.append("")
    confusion = [[label, *map(str, row)] for label, row in zip(result.labels, result.confusion)]
    lines.append(text_table([["truth \\ predicted", *result.labels], *confusion], rule=True))
    if result.folds:
        rows = [
            [str(number), str(fold["n_test"]), f"{fold['macro_f1']:.4f}", f"{fold['accuracy']:.4f}",
             *(f"{fold['inner'][measure]:.4f}" if fold["inner"] else "-" for measure in MEASURES)]
            for number, fold in enumerate(result.folds, start=1)
        ]  # fmt: skip
        header = ["outer fold", "scored", "macro-F1", "accuracy", "inner macro-F1", "inner accuracy"]
        lines += ["", text_table([header, *rows], rule=True)]
        lines += [f"fold {number} chose the {_described(fold['choice'], kind)}"
                  for number, fold in enumerate(result.folds, start=1)]  # fmt: skip
    return "\n".join(lines)



def _described(choice: dict, kind: str) -> str:
    """The settings of one classifier (`kind`: sentence or passage) in a choice's JSON, in words."""
    settings = SentenceSettings(**choice["sentence"]) if kind == "sentence" else PassageSettings(**choice["passage"])
    return f"{kind} classifier {settings.describe()}"
