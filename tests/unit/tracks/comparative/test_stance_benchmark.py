"""tracks/comparative/stance_benchmark.py: scores by hand, their text and JSON, held-out and nested CV runs: the
headline, inner and spread figures agree with the folds'."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

import argrank.tracks.comparative.stance_benchmark as benchmark_module
from argrank.tracks.comparative.stance_benchmark import (
    BATCH,
    BATCH_CALLS,
    StanceScores,
    cross_validated,
    format_scores,
    held_out,
    repeated,
    score,
)
from argrank.tracks.comparative.stance_data import read_training_set
from argrank.tracks.comparative.stance_labels import LABELS
from argrank.tracks.comparative.stance_model import SENTENCE_LABELS

EMBEDDED = Path(__file__).resolve().parents[4] / "data" / "comparative-stance" / "stance-train.tsv"
TIMING = {"n_train": 10, "n_test": 4, "train_seconds": 1.5, "predict_per_second": 2000.0,
          "batch_predict_per_second": 3000.0}  # fmt: skip


@pytest.fixture(scope="module")
def examples():
    return read_training_set(EMBEDDED)


def _as_sentences(examples):
    """The passages as CompSent-like sentences: FIRST and SECOND kept, NEUTRAL and NO merged into NONE."""
    return [
        dataclasses.replace(e, sentence=True, label=e.label if e.label in ("FIRST", "SECOND") else "NONE")
        for e in examples
    ]


def test_passage_scores_by_hand_with_an_absent_class_counting_f1_zero():
    truth = ["FIRST", "FIRST", "SECOND", "NO"]
    predicted = ["FIRST", "SECOND", "SECOND", "NO"]
    result = score("set", truth, predicted, False, **TIMING)
    assert result.labels == LABELS
    assert result.accuracy == 0.75
    # FIRST P 1 R 1/2, SECOND P 1/2 R 1: F1 2/3 each; NEUTRAL never seen: 0; NO: 1.
    assert result.macro_f1 == pytest.approx((2 / 3 + 2 / 3 + 0 + 1) / 4)
    assert result.per_class["FIRST"] == pytest.approx({"precision": 1.0, "recall": 0.5, "f1": 2 / 3, "support": 2})
    assert result.per_class["NEUTRAL"] == {"precision": 0.0, "recall": 0.0, "f1": 0.0, "support": 0}
    assert result.confusion == [[1, 1, 0, 0], [0, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]]  # rows: truth


def test_a_sentence_sets_neutral_and_no_predictions_count_as_none():
    truth = ["FIRST", "NONE", "NONE", "SECOND"]
    predicted = ["FIRST", "NEUTRAL", "NO", "FIRST"]
    result = score("sentences", truth, predicted, True, **TIMING)
    assert result.labels == SENTENCE_LABELS == ("FIRST", "SECOND", "NONE")
    assert result.accuracy == 0.75
    assert result.macro_f1 == pytest.approx((2 / 3 + 0 + 1) / 3)
    assert result.confusion == [[1, 0, 0], [1, 0, 0], [0, 0, 2]]
    assert result.per_class["NONE"]["support"] == 2


def test_accuracy_by_the_annotators_agreement_by_hand_in_bands_that_hold_sentences():
    truth = ["FIRST", "NONE", "NONE", "SECOND", "FIRST", "NONE"]
    predicted = ["FIRST", "NONE", "FIRST", "SECOND", "NONE", "NO"]  # NO counts as NONE: right
    agreement = [1.0, 1.0, 0.8, 5 / 6, 0.6, 0.4]
    result = score("sentences", truth, predicted, True, agreement, **TIMING)
    assert result.by_agreement == [
        {"band": "1", "scored": 2, "accuracy": 1.0},
        {"band": "0.8 to 1", "scored": 2, "accuracy": 0.5},
        {"band": "0.6 to 0.8", "scored": 1, "accuracy": 0.0},
        {"band": "below 0.6", "scored": 1, "accuracy": 1.0},
    ]
    assert result.to_json()["accuracy_by_agreement"] == result.by_agreement
    assert ("  accuracy by the annotators' agreement: 1: 1.0000 of 2; 0.8 to 1: 0.5000 of 2; 0.6 to 0.8: 0.0000 of "
            "1; below 0.6: 1.0000 of 1") in format_scores(result).split("\n")
    # Where every annotator agreed on every example, or no agreement is known, there are no bands.
    for shares in ([1.0] * 6, None):
        plain = score("sentences", truth, predicted, True, shares, **TIMING)
        assert plain.by_agreement is None and "accuracy_by_agreement" not in plain.to_json()
        assert "agreement" not in format_scores(plain)


def test_the_json_holds_every_figure_with_the_labels_as_a_list():
    result = score("set", ["FIRST", "NO"], ["FIRST", "NO"], False, **TIMING)
    data = result.to_json()
    assert data == {
        "name": "set", "macro_f1": result.macro_f1, "accuracy": 1.0, "per_class": result.per_class,
        "confusion": result.confusion, "labels": list(LABELS), **TIMING,
    }  # fmt: skip
    assert data["macro_f1"] == 0.5  # two of the four classes present, both perfect


def test_the_text_has_the_summary_line_a_row_per_class_and_the_confusion_matrix():
    result = StanceScores(
        name="touche", labels=("FIRST", "SECOND", "NONE"), macro_f1=0.5, accuracy=0.625,
        per_class={label: {"precision": 0.5, "recall": 0.25, "f1": 1 / 3, "support": 4} for label in SENTENCE_LABELS},
        confusion=[[1, 2, 3], [4, 5, 6], [7, 8, 9]], n_train=1200, n_test=8, train_seconds=2.25,
        predict_per_second=12345.6, batch_predict_per_second=23456.7,
    )  # fmt: skip
    lines = format_scores(result).split("\n")
    assert lines[0] == (
        "touche: macro-F1 0.5000, accuracy 0.6250 (8 scored, 1200 trained on; training 2.2 CPU-s, "
        "12,346 predicted per CPU-second, 23,457 in batches of 1,000 or more, the fastest of 3 calls)"
    )
    assert lines[1] == ""
    assert lines[2].split() == ["class", "precision", "recall", "f1", "support"]
    assert [line.split() for line in lines[4:7]] == [
        [label, "0.5000", "0.2500", "0.3333", "4"] for label in SENTENCE_LABELS
    ]
    assert lines[8].split() == ["truth", "\\", "predicted", "FIRST", "SECOND", "NONE"]
    assert [line.split() for line in lines[10:]] == [["FIRST", "1", "2", "3"], ["SECOND", "4", "5", "6"],
                                                      ["NONE", "7", "8", "9"]]  # fmt: skip


def test_held_out_trains_on_one_set_scores_the_other_and_does_so_the_same_each_time(examples):
    train, test = examples[:200], examples[200:300]
    first, again = held_out(train, test, "tail"), held_out(train, test, "tail")
    assert (first.name, first.labels, first.n_train, first.n_test) == ("tail", LABELS, 200, 100)
    assert sum(map(sum, first.confusion)) == 100
    assert first.accuracy == pytest.approx(sum(first.confusion[i][i] for i in range(4)) / 100)
    assert first.macro_f1 > 0.5  # the embedded set is written to be learnable
    assert (again.macro_f1, again.confusion, again.choice) == (first.macro_f1, first.confusion, first.choice)
    assert first.train_seconds > 0 and first.predict_per_second > 0 and first.select_seconds > 0
    assert first.batch_predict_per_second > 0
    assert "in batches of 1,000 or more, the fastest of 3 calls)" in format_scores(first).split("\n")[0]
    # The settings were chosen by the training set's own folds: that figure, and the choice, come with the score.
    assert set(first.inner) == {"macro_f1", "accuracy"} and first.spread is None and first.folds is None
    assert set(first.choice) == {"sentence", "passage"}
    data = first.to_json()
    assert data["cv_inner_macro_f1"] == first.inner["macro_f1"] and data["choice"] == first.choice
    assert "chosen: passage classifier" in format_scores(first).split("\n")[2]


def test_held_out_with_a_given_c_keeps_it(examples):
    result = held_out(examples[:120], examples[300:340], "c", c=0.7)
    assert result.choice["passage"]["c"] == result.choice["sentence"]["c"] == 0.7


def test_held_out_on_sentences_scores_in_three_classes(examples):
    result = held_out(examples[:200], _as_sentences(examples[200:260]), "sentences")
    assert result.labels == SENTENCE_LABELS and len(result.confusion) == 3
    assert sum(map(sum, result.confusion)) == 60


def test_cross_validation_scores_each_set_in_its_own_classes_over_all_folds(examples):
    sets = {"passages": examples[:120], "sentences": _as_sentences(examples[120:240])}
    passages, sentences = cross_validated(sets, folds=3, seed=0)
    assert (passages.name, sentences.name) == ("passages (3-fold)", "sentences (3-fold)")
    assert (passages.labels, sentences.labels) == (LABELS, SENTENCE_LABELS)
    assert (passages.n_test, sentences.n_test) == (120, 120)
    assert passages.n_train == sentences.n_train == 240 - 240 // 3
    assert sum(map(sum, passages.confusion)) == sum(map(sum, sentences.confusion)) == 120
    again = cross_validated(sets, folds=3, seed=0)
    assert [_figures(r) for r in again] == [_figures(passages), _figures(sentences)]


def _figures(result):
    """The result's JSON without its timings, which differ from run to run."""
    timings = {"train_seconds", "predict_per_second", "batch_predict_per_second", "select_seconds"}
    return {key: value for key, value in result.to_json().items() if key not in timings}


@pytest.fixture(scope="module")
def nested(examples):
    sets = {"passages": examples[:150], "sentences": _as_sentences(examples[150:270])}
    return sets, cross_validated(sets, folds=3, seed=1, inner_folds=3)


def test_the_headline_inner_and_spread_figures_agree_with_the_folds(nested):
    sets, results = nested
    for (name, examples_of), result in zip(sets.items(), results):
        folds = result.folds
        assert len(folds) == 3 and sum(fold["n_test"] for fold in folds) == result.n_test == len(examples_of)
        # The headline is the folds' predictions pooled: their confusion matrices add up to it.
        confusion = np.sum([fold["confusion"] for fold in folds], axis=0)
        assert confusion.tolist() == result.confusion
        assert result.accuracy == pytest.approx(np.trace(confusion) / confusion.sum())
        precision = np.diag(confusion) / np.maximum(confusion.sum(axis=0), 1)
        recall = np.diag(confusion) / np.maximum(confusion.sum(axis=1), 1)
        f1 = np.where(precision + recall > 0, 2 * precision * recall / np.maximum(precision + recall, 1e-12), 0)
        assert result.macro_f1 == pytest.approx(f1.mean())
        for fold in folds:
            fold_confusion = np.array(fold["confusion"])
            assert fold["accuracy"] == pytest.approx(np.trace(fold_confusion) / fold_confusion.sum())
        for measure in ("macro_f1", "accuracy"):
            values = [fold[measure] for fold in folds]
            assert result.spread[measure] == pytest.approx(
                {"sd": np.std(values, ddof=1), "min": min(values), "max": max(values)}
            )
            assert result.inner[measure] == pytest.approx(np.mean([fold["inner"][measure] for fold in folds]))


def test_each_set_has_per_class_figures_in_its_own_classes(nested):
    sets, results = nested
    for (name, examples_of), result in zip(sets.items(), results):
        truth = [e.label for e in examples_of]
        assert list(result.per_class) == list(result.labels)
        assert all(set(figures) == {"precision", "recall", "f1", "support"} for figures in result.per_class.values())
        supports = [result.per_class[label]["support"] for label in result.labels]
        assert supports == [truth.count(label) for label in result.labels]
        assert result.macro_f1 == pytest.approx(np.mean([f["f1"] for f in result.per_class.values()]))
        # Each class's figures from the confusion matrix (rows: truth), NO and NEUTRAL among them.
        confusion = np.array(result.confusion)
        for at, label in enumerate(result.labels):
            hits, predicted, true = confusion[at, at], confusion[:, at].sum(), confusion[at].sum()
            assert result.per_class[label]["precision"] == pytest.approx(hits / predicted if predicted else 0)
            assert result.per_class[label]["recall"] == pytest.approx(hits / true if true else 0)


def test_the_json_and_the_text_carry_the_nested_figures(nested):
    _, results = nested
    passages, sentences = results
    data = passages.to_json()
    assert data["cv_inner_macro_f1"] == passages.inner["macro_f1"]
    assert data["cv_inner_accuracy"] == passages.inner["accuracy"]
    assert data["cv_spread"] == passages.spread and data["folds"] == passages.folds
    assert all(set(fold["choice"]) == {"sentence", "passage"} for fold in data["folds"])
    lines = format_scores(passages).split("\n")
    assert lines[1].startswith("  settings chosen by inner folds, mean over the outer folds: macro-F1 ")
    assert lines[2].startswith("  over the 3 outer folds: macro-F1 ")
    assert sum(line.startswith("fold ") and " chose the passage classifier " in line for line in lines) == 3
    assert any(line.split()[:2] == ["outer", "fold"] for line in lines)
    assert sum(line.startswith("fold ") and " chose the sentence classifier " in line
               for line in format_scores(sentences).split("\n")) == 3  # fmt: skip


def test_repeated_keeps_the_first_seeds_headline_and_gives_every_draws_figures(monkeypatch):
    asked = []

    def drawn(sets, *, folds, seed, c, inner_folds):
        asked.append(seed)
        return [score(name, ["FIRST", "SECOND"], ["FIRST", "SECOND" if seed % 2 else "FIRST"], False, **TIMING)
                for name in sets]  # fmt: skip

    monkeypatch.setattr(benchmark_module, "cross_validated", drawn)
    first, second = repeated({"a": [], "b": []}, repeats=3, seed=5)
    assert asked == [5, 6, 7] and first.name == "a" and second.name == "b"
    assert (first.accuracy, first.macro_f1) == (1.0, 0.5)  # seed 5's: both passages right, NEUTRAL and NO absent
    draws = first.to_json()["cv_repeats"]
    assert draws["seeds"] == [5, 6, 7] and draws["accuracy"] == [1.0, 0.5, 1.0]
    assert draws["mean_accuracy"] == pytest.approx(2.5 / 3) and draws["accuracy_spread"]["min"] == 0.5
    assert "  over 3 draws of the folds (seeds 5 to 7): macro-F1 mean " in format_scores(first)
    assert "draws of the folds" not in format_scores(dataclasses.replace(first, draws=None))


def test_batch_speed_is_the_fastest_of_several_calls_on_the_examples_repeated_in_turn_to_a_batch(monkeypatch):
    """A fold's few dozen passages are predicted again as one batch of BATCH, in their order, over and over,
    BATCH_CALLS times, and the fastest call counts; a set already that large counts the call that predicted it as
    one of them."""
    batches, clock = [], iter([10.0, 3.0, 7.0, 2.0, 9.0])
    monkeypatch.setattr(benchmark_module, "predict_examples", lambda model, batch: batches.append(batch) or [])
    monkeypatch.setattr(benchmark_module, "timed", lambda work: (work(), next(clock)))
    few, many = ["a", "b", "c"], [str(i) for i in range(BATCH + 7)]
    assert benchmark_module._batch_timing("model", few, 123.0) == (BATCH, 3.0)
    assert batches == [(few * BATCH)[:BATCH]] * BATCH_CALLS
    assert benchmark_module._batch_timing("model", many, 4.5) == (BATCH + 7, 2.0)
    assert batches[BATCH_CALLS:] == [many] * (BATCH_CALLS - 1)
    assert benchmark_module._batch_timing("model", [], 0.0) == (0, 0.0)
    assert len(batches) == 2 * BATCH_CALLS - 1


def test_nested_results_carry_the_batch_speed_of_each_kind(nested):
    _, results = nested
    assert all(result.batch_predict_per_second > 0 for result in results)
    assert all("batch_predict_per_second" in result.to_json() for result in results)
