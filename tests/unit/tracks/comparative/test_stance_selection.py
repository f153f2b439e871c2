"""tracks/comparative/stance_selection.py: settings chosen by inner folds only, never from an outer fold's labels;
folds that keep every object pair on one side; the best inner candidate chosen; a given C kept fixed."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import argrank.tracks.comparative.stance_selection as selection_module
from argrank.tracks.comparative.stance_data import StanceExample, pair_key, read_training_set
from argrank.tracks.comparative.stance_labels import LABELS
from argrank.tracks.comparative.stance_model import SENTENCE_LABELS, Choice, predict_examples
from argrank.tracks.comparative.stance_selection import (
    PASSAGE_GRID,
    SENTENCE_GRID,
    Figures,
    choose,
    grids,
    grouped_splits,
    nested_cross_validate,
)

EMBEDDED = Path(__file__).resolve().parents[4] / "data" / "comparative-stance" / "stance-train.tsv"
# Labels moved round their kind's classes: every label of a flipped example changes.
ROTATED = {**{a: b for a, b in zip(LABELS, LABELS[1:] + LABELS[:1])},
           **{a: b for a, b in zip(SENTENCE_LABELS, SENTENCE_LABELS[1:] + SENTENCE_LABELS[:1])}}  # fmt: skip


@pytest.fixture(scope="module")
def examples():
    """Passages of the embedded set, and some of them again as CompSent-like sentences (FIRST, SECOND, NONE) with
    their objects renamed, so that both classifiers are chosen."""
    passages = read_training_set(EMBEDDED)[:150]
    sentences = [
        dataclasses.replace(e, first=e.first + " s", second=e.second + " s", first_spans=(), second_spans=(),
                            sentence=True, label=e.label if e.label in ("FIRST", "SECOND") else "NONE",
                            text=e.text.replace(e.first, e.first + " s").replace(e.second, e.second + " s"))
        for e in read_training_set(EMBEDDED)[150:270]
    ]  # fmt: skip
    return passages + sentences


def _pairs(examples, indices):
    return {pair_key(examples[i]) for i in indices}


def test_folds_keep_each_object_pair_on_one_side_in_either_order():
    base = read_training_set(EMBEDDED)[:60]
    examples = base + [dataclasses.replace(e, first=e.second, second=e.first) for e in base[:20]]
    splits = grouped_splits(examples, 4, seed=1)
    assert len(splits) == 4
    assert sorted(i for _, test in splits for i in test) == list(range(len(examples)))
    for train, test in splits:
        assert not _pairs(examples, train) & _pairs(examples, test)


def test_no_pair_is_on_both_sides_of_an_outer_or_an_inner_fold(examples, monkeypatch):
    """Every split made, outer or inner, keeps pairs apart, and the inner folds see none of the outer fold's pairs."""
    made, chosen_on = [], []
    real_splits, real_choose = selection_module.grouped_splits, selection_module.choose

    def recording_splits(given, folds, seed):
        splits = real_splits(given, folds, seed)
        made.append((list(given), splits))
        return splits

    def recording_choose(given, **settings):
        chosen_on.append(list(given))
        return real_choose(given, **settings)

    monkeypatch.setattr(selection_module, "grouped_splits", recording_splits)
    monkeypatch.setattr(selection_module, "choose", recording_choose)
    nested = nested_cross_validate(examples, folds=3, inner_folds=3, seed=0)
    assert len(made) == 1 + 3  # the outer split, and one inner split per outer fold
    for given, splits in made:
        assert splits
        for train, test in splits:
            assert not _pairs(given, train) & _pairs(given, test)
    for fold, training in zip(nested.folds, chosen_on):
        assert not {pair_key(e) for e in training} & _pairs(examples, fold.test)
        assert len(training) == len(examples) - len(fold.test)


def test_flipping_one_outer_folds_test_labels_changes_nothing_made_for_that_fold(examples):
    """The fold's choice, its inner figures and its predictions come from the other folds alone; the flip does
    reach the other folds, whose inner folds score the flipped examples."""
    splits = grouped_splits(examples, 3, seed=0)
    before = nested_cross_validate(examples, inner_folds=3, splits=splits)
    flipped_fold = splits[1][1]
    flipped = list(examples)
    for i in flipped_fold:
        flipped[i] = dataclasses.replace(flipped[i], label=ROTATED[flipped[i].label])
    after = nested_cross_validate(flipped, inner_folds=3, splits=splits)
    assert after.folds[1].selection == before.folds[1].selection
    assert after.folds[1].predicted == before.folds[1].predicted
    others = [0, 2]
    assert any(after.folds[j].selection.inner != before.folds[j].selection.inner for j in others)


def test_the_choice_is_the_inner_candidate_with_the_best_macro_f1(examples):
    splits = grouped_splits(examples, 3, seed=2)
    selection = choose(examples, folds=3, seed=2)
    sentence_predictions, fitted = selection_module._sentence_folds(examples, splits, SENTENCE_GRID)
    sentences = [i for i, e in enumerate(examples) if e.sentence]
    truth = [examples[i].label for i in sentences]
    sentence_figures = [Figures.of(truth, list(p[sentences]), SENTENCE_LABELS) for p in sentence_predictions]
    best = max(f.macro_f1 for f in sentence_figures)
    assert selection.inner[True].macro_f1 == best
    first_best = next(s for s, f in zip(SENTENCE_GRID, sentence_figures) if f.macro_f1 == best)
    assert selection.choice.sentence == first_best
    passage_predictions = selection_module._passage_folds(examples, splits, PASSAGE_GRID, selection.choice.sentence,
                                                          fitted)  # fmt: skip
    passages = [i for i, e in enumerate(examples) if not e.sentence]
    truth = [examples[i].label for i in passages]
    passage_figures = [Figures.of(truth, list(p[passages]), LABELS) for p in passage_predictions]
    assert selection.inner[False].macro_f1 == max(f.macro_f1 for f in passage_figures)
    assert selection.folds == 3


def test_a_given_c_is_kept_fixed_for_both_classifiers(examples):
    sentence_grid, passage_grid = grids(0.7)
    assert {s.c for s in sentence_grid} == {p.c for p in passage_grid} == {0.7}
    assert len(sentence_grid) == len(SENTENCE_GRID) // 2  # the two Cs of the grid become one
    selection = choose(examples[:150], folds=3, c=0.7)
    assert selection.choice.passage.c == selection.choice.sentence.c == 0.7
    assert grids(None) == (SENTENCE_GRID, PASSAGE_GRID)


def test_too_few_object_pairs_leave_the_defaults_and_no_cross_validation():
    one_pair = [StanceExample("q", "tea", "coffee", f"tea or coffee {i}", LABELS[i % 2]) for i in range(6)]
    selection = choose(one_pair)
    assert selection.choice == Choice(SENTENCE_GRID[0], PASSAGE_GRID[0]) and selection.inner == {}
    with pytest.raises(ValueError, match="at least 2 object pairs"):
        nested_cross_validate(one_pair)


def test_nested_cross_validation_is_deterministic_and_predicts_every_example(examples):
    first = nested_cross_validate(examples, folds=3, inner_folds=3, seed=4)
    again = nested_cross_validate(examples, folds=3, inner_folds=3, seed=4)
    assert first.predicted == again.predicted and all(first.predicted)
    assert [f.selection for f in first.folds] == [f.selection for f in again.folds]
    assert sorted(i for fold in first.folds for i in fold.test) == list(range(len(examples)))
    # Each fold keeps the model that predicted it (the benchmark times it again on larger batches).
    assert all(predict_examples(f.model, [examples[i] for i in f.test]) == f.predicted for f in first.folds)
