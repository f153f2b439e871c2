"""Stance model: masking, cues, object-swap symmetry, calibrated probabilities in LABELS order, determinism, the CV
report, a saved model's round trip and the task's errors for a set it cannot train on; mostly on a synthetic set
built from templates, sometimes on the embedded training set. The model file's refusals: test_model_file.py."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.calibration import CalibratedClassifierCV
from sklearn.metrics import f1_score
from sklearn.model_selection import StratifiedKFold, cross_val_predict

from argrank.core.errors import InputError
from argrank.core.model_file import load_model, save_model
from argrank.tracks.comparative.stance_data import StanceExample, read_training_set
from argrank.tracks.comparative.stance_labels import LABELS
from argrank.tracks.comparative.stance_model import (
    CUE_FEATURES,
    MODEL_TYPES,
    cue_counts,
    mask_objects,
    predict_stance,
    train_stance_model,
)
from tasks.stance import TrainStanceModel

REAL_TRAINING_SET = Path(__file__).resolve().parents[2] / "data" / "comparative-stance" / "stance-train.tsv"

# {w} is the object the sentence favours, {l} the other one.
FAVOURING = [
    "{w} is better than {l}.",
    "{w} is much faster than {l} in every benchmark.",
    "I prefer {w} over {l} for most things.",
    "{l} is worse than {w}.",
    "{l} is not as good as {w}.",
    "Honestly, {w} beats {l} easily.",
    "{l} loses to {w} on price and on quality.",
    "{w} is cheaper and more reliable than {l}.",
    "{l} can never compete with {w}.",
    "{l} isn't better than {w}, {w} is superior.",
    "In my experience {w} is the superior choice, {l} is slower.",
    "Nobody who tried both would pick {l}; {w} is easier to use.",
]
NEUTRAL = [
    "{a} and {b} are equally good.",
    "Both {a} and {b} have their strengths.",
    "It depends on your needs whether {a} or {b} fits.",
    "{a} is not better than {b}, they are about the same.",
    "{a} and {b} are similar in most respects.",
]
NO_STANCE = [
    "{a} was first released many years ago.",
    "The weather was nice when we talked about {b}.",
    "This page lists opening hours for {a} and {b}.",
    "I bought groceries yesterday.",
    "Click here to subscribe to our newsletter.",
]
PAIRS = [
    ("python", "java"),
    ("cats", "dogs"),
    ("tea", "coffee"),
    ("Mac", "PC"),
    ("iPhone", "Android"),
    ("Nikon", "Canon"),
    ("beer", "wine"),
    ("BMW", "Audi"),
    ("Xbox", "PlayStation"),
    ("summer", "winter"),
    ("vim", "emacs"),
    ("Coke", "Pepsi"),
    ("trains", "planes"),
    ("Adidas", "Nike"),
    ("oak", "pine"),
    ("MySQL", "PostgreSQL"),
    ("Ford", "Toyota"),
    ("chess", "checkers"),
    ("Paris", "London"),
    ("rice", "pasta"),
]
UNSEEN = [("Rust", "Go"), ("New York", "Los Angeles"), ("hockey", "football"), ("Kindle", "paperback")]


def synthetic_examples(seed: int = 7, per_template: int = 6) -> list[StanceExample]:
    """~200 examples: every template with several random object pairs, favouring templates once per side."""
    rng = random.Random(seed)
    examples = []

    def add(template: str, label: str, first: str, second: str, **slots: str) -> None:
        examples.append(StanceExample(f"{first} or {second}?", first, second, template.format(**slots), label))

    for template in FAVOURING:
        for first, second in rng.sample(PAIRS, per_template):
            add(template, "FIRST", first, second, w=first, l=second)
        for first, second in rng.sample(PAIRS, per_template):
            add(template, "SECOND", first, second, w=second, l=first)
    for templates, label in ((NEUTRAL, "NEUTRAL"), (NO_STANCE, "NO")):
        for template in templates:
            for first, second in rng.sample(PAIRS, per_template):
                a, b = (first, second) if rng.random() < 0.5 else (second, first)
                add(template, label, first, second, a=a, b=b)
    return examples


@pytest.fixture(scope="module")
def trained():
    examples = synthetic_examples()
    model, report = train_stance_model(examples, seed=0)
    return examples, model, report


@pytest.mark.parametrize(
    ("text", "first", "second", "masked"),
    [
        ("JAVA beats Python, python sucks", "python", "Java", "objsecond beats objfirst, objfirst sucks"),
        ("Cats are nicer than dogs.", "cat", "dog", "objfirst are nicer than objsecond."),
        ("Boxes, box, bags or Bag?", "box", "bag", "objfirst, objfirst, objsecond or objsecond?"),
        (
            "a cart is no car, nor a scar; cars care, carts and cares do not",
            "car",
            "bike",
            "a cart is no objfirst, nor a scar; objfirst care, carts and cares do not",
        ),
        ("Python 3 beats Python 2 and python", "Python", "Python 3", "objsecond beats objfirst 2 and objfirst"),
        ("Python 3 beats Python 2 and python", "Python 3", "Python", "objfirst beats objsecond 2 and objsecond"),
        (
            "New  York\nor new york's rival, Los Angeles",
            "Los Angeles",
            "New York",
            "objsecond\nor objsecond's rival, objfirst",
        ),
        ("C++ beats C; c is older than C++s", "C", "C++", "objsecond beats objfirst; objfirst is older than objsecond"),
        ("Java and JavaScript", "Java", "JavaScript", "objfirst and objsecond"),
        ("tea and Tea", "Tea", "tea", "objfirst and objfirst"),
        ("nothing to see", "tea", "coffee", "nothing to see"),
    ],
)
def test_mask_objects(text, first, second, masked):
    assert mask_objects(text, first, second) == masked


@pytest.mark.parametrize(
    ("masked", "expected"),
    [
        ("objfirst is better than objsecond", {"favours_first": 1, "comparative_first_than_second": 1}),
        (
            "objfirst is not much better than objsecond",
            {"negated_favours_first": 1, "comparative_first_than_second": 1, "negations": 1},
        ),
        ("objfirst isn't worse", {"negated_favours_second": 1, "negations": 1}),
        ("I prefer objsecond over objfirst", {"favours_second": 2}),
        ("objsecond is more reliable than objfirst", {"comparative_second_than_first": 1}),
        ("objfirst and objsecond are equally good. neither is better", {"neutral_cues": 1, "negations": 1}),
        ("objfirst's fans say it is faster", {"favours_first": 1}),
    ],
)
def test_cue_counts(masked, expected):
    counts = cue_counts(masked)
    assert list(counts) == list(CUE_FEATURES)
    mentions = {"mentions_first": masked.count("objfirst"), "mentions_second": masked.count("objsecond")}
    assert {name: n for name, n in counts.items() if n} == {**expected, **{k: n for k, n in mentions.items() if n}}


def test_mask_objects_rejects_a_blank_name():
    with pytest.raises(ValueError, match="blank"):
        mask_objects("text", " ", "tea")


def test_swapping_the_objects_swaps_first_and_second(trained):
    _, model, _ = trained
    sentences = [
        "{a} is far better than {b}.",
        "Everyone says {b} is worse than {a}.",
        "{b} is not as good as {a}.",
        "I would always prefer {a} over {b}.",
        "{a} is cheaper than {b}.",
    ]
    texts, firsts, seconds = [], [], []
    for a, b in UNSEEN:
        for sentence in sentences:
            texts.append(sentence.format(a=a, b=b))
            firsts.append(a)
            seconds.append(b)
    labels, _ = predict_stance(model, texts, firsts, seconds)
    swapped, _ = predict_stance(model, texts, seconds, firsts)
    assert labels == ["FIRST"] * len(texts)
    assert swapped == ["SECOND"] * len(texts)


def test_neutral_and_no_stance_on_unseen_objects(trained):
    _, model, _ = trained
    labels, _ = predict_stance(
        model,
        ["Both Rust and Go are equally good.", "Click here to subscribe to our newsletter about hockey."],
        ["Rust", "hockey"],
        ["Go", "football"],
    )
    assert labels == ["NEUTRAL", "NO"]


def test_probabilities_are_calibrated_rows_in_labels_order(trained):
    _, model, _ = trained
    texts = ["Rust is much better than Go.", "Go is much better than Rust.", "Rust and Go are similar.", "I ate lunch."]
    labels, probabilities = predict_stance(model, texts, ["Rust"] * 4, ["Go"] * 4)
    assert probabilities.shape == (4, len(LABELS))
    assert np.allclose(probabilities.sum(axis=1), 1.0)
    assert ((probabilities > 0) & (probabilities < 1)).all()  # calibrated, not one-hot
    assert labels == [LABELS[index] for index in probabilities.argmax(axis=1)] == list(LABELS)
    assert isinstance(model.steps[-1][1], CalibratedClassifierCV)
    # The columns follow LABELS, not the classifier's own (alphabetical) order.
    assert list(model.classes_) != list(LABELS)
    learned = model.predict_proba([(text, "Rust", "Go") for text in texts])
    assert np.array_equal(probabilities[:, [LABELS.index(label) for label in model.classes_]], learned)


def test_a_label_absent_from_training_gets_probability_zero():
    examples = [example for example in synthetic_examples() if example.label != "NO"]
    model, report = train_stance_model(examples, folds=3)
    labels, probabilities = predict_stance(model, ["I ate lunch with Rust and Go."], ["Rust"], ["Go"])
    assert probabilities[:, LABELS.index("NO")].tolist() == [0.0]
    assert np.allclose(probabilities.sum(axis=1), 1.0)
    assert labels[0] != "NO"
    assert report["label_counts"]["NO"] == 0
    assert report["cv_per_label_f1"]["NO"] == 0.0


def test_predicting_nothing_and_mismatched_lengths(trained):
    _, model, _ = trained
    labels, probabilities = predict_stance(model, [], [], [])
    assert labels == [] and probabilities.shape == (0, len(LABELS))
    with pytest.raises(ValueError):
        predict_stance(model, ["a", "b"], ["x"], ["y", "z"])


def test_training_is_deterministic(trained):
    examples, model, report = trained
    again, again_report = train_stance_model(examples, seed=0)
    texts = [example.text for example in examples]
    firsts = [example.first for example in examples]
    seconds = [example.second for example in examples]
    labels, probabilities = predict_stance(model, texts, firsts, seconds)
    labels_again, probabilities_again = predict_stance(again, texts, firsts, seconds)
    assert labels == labels_again
    assert probabilities.tobytes() == probabilities_again.tobytes()
    assert report == again_report


def test_cv_report_is_sklearns_macro_f1_on_the_cv_predictions():
    # A fifth of the labels scrambled, so the CV predictions hold mistakes for the scores to count.
    rng = random.Random(3)
    examples = [
        StanceExample(e.question, e.first, e.second, e.text, rng.choice(LABELS) if rng.random() < 0.2 else e.label)
        for e in synthetic_examples()
    ]
    model, report = train_stance_model(examples, seed=4)
    labels = [example.label for example in examples]
    assert set(report) == {"cv_macro_f1", "cv_per_label_f1", "folds", "examples", "label_counts"}
    assert report["folds"] == 5
    assert report["examples"] == len(examples)
    assert report["label_counts"] == {label: labels.count(label) for label in LABELS}
    assert list(report["cv_per_label_f1"]) == list(LABELS)
    rows = [(example.text, example.first, example.second) for example in examples]
    predicted = cross_val_predict(clone(model), rows, labels, cv=StratifiedKFold(5, shuffle=True, random_state=4))
    expected = f1_score(labels, predicted, labels=list(LABELS), average="macro", zero_division=0)
    assert report["cv_macro_f1"] == expected
    per_label = f1_score(labels, predicted, labels=list(LABELS), average=None, zero_division=0)
    assert list(report["cv_per_label_f1"].values()) == per_label.tolist()
    assert 0.5 < report["cv_macro_f1"] < 1.0


def test_cv_on_the_clean_synthetic_set_is_near_perfect(trained):
    _, _, report = trained
    assert report["cv_macro_f1"] > 0.9


def test_folds_shrink_to_the_rarest_label():
    examples = synthetic_examples()
    rare = [example for example in examples if example.label == "NO"][:3]
    _, report = train_stance_model([example for example in examples if example.label != "NO"] + rare)
    assert report["folds"] == 3
    assert report["label_counts"]["NO"] == 3


@pytest.mark.parametrize(
    ("labels", "folds", "message"),
    [
        (["FIRST"] * 10, 5, "at least two labels"),
        (["FIRST"] * 10 + ["SECOND"], 5, "label SECOND has only 1 example"),
        (["FIRST"] * 10 + ["SECOND"] * 2, 5, "label SECOND has only 2 example(s)"),
        (["FIRST"] * 10 + ["SECOND"] * 3, 2, "too few to cross-validate in 2 folds"),
        (["FIRST"] * 10 + ["SECOND"] * 10, 1, "folds must be at least 2"),
        (["FIRST"] * 10 + ["MAYBE"] * 10, 5, "not among"),
        ([], 5, "at least two labels"),
    ],
)
def test_training_rejects_sets_it_cannot_cross_validate(labels, folds, message):
    examples = [StanceExample("q", "x", "y", f"x or y {i}", label) for i, label in enumerate(labels)]
    with pytest.raises(ValueError) as caught:
        train_stance_model(examples, folds=folds)
    assert message in str(caught.value)


def test_save_and_load_round_trip(trained, tmp_path):
    examples, model, _ = trained
    path = tmp_path / "models" / "stance.zip"
    save_model(model, path)
    assert [p.name for p in path.parent.iterdir()] == ["stance.zip"]  # no temporary left behind
    loaded = load_model(path, MODEL_TYPES)
    texts = [example.text for example in examples[:20]]
    firsts = [example.first for example in examples[:20]]
    seconds = [example.second for example in examples[:20]]
    expected = predict_stance(model, texts, firsts, seconds)
    labels, probabilities = predict_stance(loaded, texts, firsts, seconds)
    assert labels == expected[0]
    assert probabilities.tobytes() == expected[1].tobytes()


def _training_file(folder: Path, labels: list[str]) -> Path:
    """A JSONL training set of synthetic examples with these labels."""
    pool = {label: iter([e for e in synthetic_examples() if e.label == label]) for label in set(labels)}
    lines = []
    for label in labels:
        e = next(pool[label])
        record = {"question": e.question, "object_1": e.first, "object_2": e.second, "text": e.text, "label": label}
        lines.append(json.dumps(record) + "\n")
    path = folder / "stance-train.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("labels", "message"),
    [
        (["FIRST"] * 8, "need examples of at least two labels to train, got {'FIRST': 8}"),
        (["FIRST"] * 8 + ["SECOND"], "label SECOND has only 1 example"),
        (["FIRST"] * 8 + ["SECOND"] * 2, "label SECOND has only 2 example(s)"),
    ],
)
def test_the_task_names_the_training_file_it_cannot_train_on(tmp_path, monkeypatch, labels, message):
    monkeypatch.chdir(tmp_path)
    training = _training_file(tmp_path, labels)
    with pytest.raises(InputError) as caught:
        TrainStanceModel(training=str(training)).run()
    assert caught.value.path == str(training)
    assert caught.value.problem.startswith("cannot train the stance model: ") and message in caught.value.problem


def test_the_embedded_training_set_beats_the_majority_baseline_clearly():
    examples = read_training_set(REAL_TRAINING_SET)
    labels = [example.label for example in examples]
    majority = max(LABELS, key=labels.count)
    baseline = f1_score(labels, [majority] * len(labels), labels=list(LABELS), average="macro", zero_division=0)
    _, report = train_stance_model(examples)
    assert report["examples"] == len(examples)
    assert report["cv_macro_f1"] > baseline + 0.4
