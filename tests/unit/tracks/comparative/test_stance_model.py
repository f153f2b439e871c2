"""Stance model: masking, cues, object-swap symmetry, calibrated probabilities in LABELS order, determinism, the CV
report, a saved model's round trip and the task's errors for a set it cannot train on; mostly on a synthetic set
built from templates, sometimes on the embedded training set. The model file's refusals: core/test_model_file.py."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import f1_score
from threadpoolctl import threadpool_info

from argrank.core.errors import InputError
from argrank.core.model_file import load_model, save_model
from argrank.tracks.comparative import stance_model
from argrank.tracks.comparative.mentions import mask_mentions
from argrank.tracks.comparative.passage_features import CUE_FEATURES, cue_counts, swap_objects
from argrank.tracks.comparative.stance_data import StanceExample, read_training_set
from argrank.tracks.comparative.stance_labels import LABELS
from argrank.tracks.comparative.stance_model import (
    MODEL_TYPES,
    Choice,
    PassageSettings,
    SentenceSettings,
    _features,
    cross_validate,
    featurize_sentences,
    fit_stance_model,
    masked_text,
    passage_rows,
    predict_sentence_stance,
    predict_stance,
    prepare_sentences,
    train_stance_model,
)
from tasks.tracks.comparative import TrainStanceModel

REAL_TRAINING_SET = Path(__file__).resolve().parents[4] / "data" / "comparative-stance" / "stance-train.tsv"

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
def test_mask_mentions(text, first, second, masked):
    assert mask_mentions(text, first, second) == masked


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


def test_mask_mentions_rejects_a_blank_name():
    with pytest.raises(ValueError, match="blank"):
        mask_mentions("text", " ", "tea")


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
    labels = predict_stance(model, texts, firsts, seconds)
    swapped = predict_stance(model, texts, seconds, firsts)
    assert labels == ["FIRST"] * len(texts)
    assert swapped == ["SECOND"] * len(texts)


def test_neutral_and_no_stance_on_unseen_objects(trained):
    _, model, _ = trained
    labels = predict_stance(
        model,
        ["Both Rust and Go are equally good.", "Click here to subscribe to our newsletter about hockey."],
        ["Rust", "hockey"],
        ["Go", "football"],
    )
    assert labels == ["NEUTRAL", "NO"]


def test_cv_on_the_clean_synthetic_set_is_near_perfect(trained):
    _, _, report = trained
    assert report["cv_macro_f1"] > 0.9


@pytest.mark.parametrize(
    ("labels", "folds", "message"),
    [
        (["FIRST"] * 10, 5, "at least two labels"),
        (["FIRST"] * 10 + ["SECOND"] * 10, 1, "folds must be at least 2"),
        (["FIRST"] * 10 + ["MAYBE"] * 10, 5, "not among"),
        ([], 5, "at least two labels"),
    ],
)
def test_training_rejects_sets_it_cannot_cross_validate(labels, folds, message):
    examples = [StanceExample("q", "x", "y", f"x or y {i}", label) for i, label in enumerate(labels)]
    if message == "folds must be at least 2":
        examples = [StanceExample("q", f"x{i}", "y", f"x{i} or y", e.label) for i, e in enumerate(examples)]
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
    assert predict_stance(loaded, texts, firsts, seconds) == predict_stance(model, texts, firsts, seconds)


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
        (["FIRST"] * 8, "need passages of at least two labels to train, got {'FIRST': 8}"),
    ],
)
def test_the_task_names_the_training_file_it_cannot_train_on(tmp_path, monkeypatch, labels, message):
    monkeypatch.chdir(tmp_path)
    training = _training_file(tmp_path, labels)
    with pytest.raises(InputError) as caught:
        TrainStanceModel(stance_training=[str(training)]).run()
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


def test_predicting_nothing_and_mismatched_lengths(trained):
    _, model, _ = trained
    assert predict_stance(model, [], [], []) == []
    with pytest.raises(ValueError):
        predict_stance(model, ["a", "b"], ["x"], ["y", "z"])


def test_training_is_deterministic(trained):
    examples, model, report = trained
    again, again_report = train_stance_model(examples, seed=0)
    texts, firsts, seconds = ([getattr(e, key) for e in examples] for key in ("text", "first", "second"))
    assert predict_stance(model, texts, firsts, seconds) == predict_stance(again, texts, firsts, seconds)
    assert report == again_report


def test_predictions_swap_exactly_with_the_objects(trained):
    """Swapping the objects swaps FIRST and SECOND for every passage, not just the clear ones: the passage
    classifier saw every training passage both ways, and the sentence classifier reads by mention order."""
    examples, model, _ = trained
    texts, firsts, seconds = ([getattr(e, key) for e in examples] for key in ("text", "first", "second"))
    swap = {"FIRST": "SECOND", "SECOND": "FIRST"}
    forward = predict_stance(model, texts, firsts, seconds)
    backward = predict_stance(model, texts, seconds, firsts)
    assert [swap.get(label, label) for label in forward] == backward


def test_swap_objects_exchanges_the_placeholders():
    assert swap_objects("objfirst beats objsecond; objsecondly objfirst") == "objsecond beats objfirst; objfirstly objsecond"


def test_cv_report_counts_passages_and_scores_their_out_of_fold_predictions():
    # A fifth of the labels scrambled, so the CV predictions hold mistakes for the scores to count.
    rng = random.Random(3)
    examples = [
        StanceExample(e.question, e.first, e.second, e.text, rng.choice(LABELS) if rng.random() < 0.2 else e.label)
        for e in synthetic_examples()
    ]
    _, report = train_stance_model(examples, seed=4)
    labels = [example.label for example in examples]
    predicted, folds, train_seconds, predict_seconds = cross_validate(examples, seed=4)
    assert train_seconds > 0 and predict_seconds[False] > 0 and predict_seconds[True] == 0
    assert set(report) == {"cv_macro_f1", "cv_per_label_f1", "folds", "examples", "label_counts"}
    assert report["folds"] == folds == 5
    assert report["label_counts"] == {label: labels.count(label) for label in LABELS}
    assert report["cv_macro_f1"] == f1_score(labels, predicted, labels=list(LABELS), average="macro", zero_division=0)
    assert 0.5 < report["cv_macro_f1"] < 1.0


def test_cross_validation_never_trains_and_scores_one_object_pair(monkeypatch):
    """Folds are grouped by object pair, in either order: each fit sees none of the pairs it is scored on."""
    import argrank.tracks.comparative.stance_model as stance_model

    examples = synthetic_examples()
    examples += [StanceExample(e.question, e.second, e.first, e.text, e.label) for e in examples[:40]]
    seen = []
    real_fit = stance_model.fit_stance_model
    monkeypatch.setattr(stance_model, "fit_stance_model", lambda train, **kw: seen.append(train) or real_fit(train, **kw))
    predicted, folds, *_ = cross_validate(examples, folds=4)
    assert folds == 4 and len(seen) == 4 and all(predicted)
    pairs = {frozenset((e.first.casefold(), e.second.casefold())) for e in examples}
    for train in seen:
        trained_pairs = {frozenset((e.first.casefold(), e.second.casefold())) for e in train}
        held_out = [e for e in examples if e not in train]
        assert held_out and not trained_pairs & {frozenset((e.first.casefold(), e.second.casefold())) for e in held_out}
    assert len(pairs) >= 4


def test_sentences_get_a_classifier_of_their_own_in_three_classes(trained):
    """CompSent-style sentences (FIRST, SECOND, NONE) train the sentence classifier; passages keep four labels."""
    examples, _, _ = trained
    sentences = [
        StanceExample("", e.first, e.second, e.text, e.label if e.label in ("FIRST", "SECOND") else "NONE", sentence=True)
        for e in examples
    ]
    model, report = train_stance_model(examples + sentences)
    assert model["sentence"] is not None and model["passage"] is not None
    assert report["examples"] == len(examples) and report["sentences"]["examples"] == len(sentences)
    assert report["sentences"]["cv_macro_f1"] > 0.8
    labels = predict_sentence_stance(model, ["Rust is far better than Go.", "I ate lunch."], ["Rust"] * 2, ["Go"] * 2)
    assert labels == ["FIRST", "NONE"]
    assert set(predict_stance(model, [e.text for e in examples], [e.first for e in examples],
                              [e.second for e in examples])) <= set(LABELS)  # fmt: skip


def test_prediction_reads_the_features_the_saved_pipelines_own_union_computes(trained):
    """Prediction transforms the feature union's blocks itself (TF-IDF counted by tfidf_transform): the matrices are
    those the pipeline's own FeatureUnion gives, for sentences and for passages."""
    examples, _, _ = trained
    sentences = [dataclasses.replace(e, label=e.label if e.label in ("FIRST", "SECOND") else "NONE", sentence=True)
                 for e in examples]  # fmt: skip
    model = fit_stance_model(examples + sentences)
    masked = [masked_text(e) for e in examples]
    for pipeline, inputs in ((model["sentence"], masked), (model["passage"], passage_rows(model, examples))):
        ours, theirs = _features(pipeline, inputs), pipeline.named_steps["features"].transform(inputs)
        assert ours.shape == theirs.shape and ours.nnz > len(examples)
        assert abs(ours - theirs).max() == 0


def test_given_mention_spans_are_masked_whole_words():
    text = "The first option wins; I like the nested class less."
    masked = mask_mentions(text, "one class", "nested class", [(4, 14)], [(34, 42)])
    assert masked == "The objfirst wins; I like the objsecond less."


def _sentences(examples):
    return [dataclasses.replace(e, sentence=True, label=e.label if e.label in ("FIRST", "SECOND") else "NONE")
            for e in examples]  # fmt: skip


def test_prepared_sentences_featurize_and_transform_as_their_texts_do():
    """Model selection prepares every sentence's cue counts and comparison tokens once and featurizes parts of them:
    the blocks come out fitted the same, with the same matrices, and a pipeline of them computes the same features."""
    sentences = _sentences(synthetic_examples())
    prepared = prepare_sentences(sentences)
    train = list(range(1, len(sentences), 2))
    test = list(reversed(range(0, len(sentences), 2)))
    plain, from_parts = featurize_sentences([sentences[i] for i in train]), featurize_sentences(prepared.take(train))
    masked = [masked_text(sentences[i]) for i in test]
    for ours, theirs in ((from_parts.train, plain.train), (from_parts.transform(prepared.take(test)),
                                                          plain.transform(masked))):  # fmt: skip
        assert list(ours) == list(theirs) == ["words", "cues", "comparison"]
        for name in ours:
            assert ours[name].shape == theirs[name].shape and ours[name].nnz == theirs[name].nnz > 0
            assert abs(ours[name] - theirs[name]).max() == 0
    weights = SentenceSettings().block_weights()
    pipelines = [featurized.pipeline(weights, None) for featurized in (from_parts, plain)]
    features = [pipeline.named_steps["features"].transform(masked) for pipeline in pipelines]
    assert abs(features[0] - features[1]).max() == 0 and features[0].nnz > len(masked)


_SENTENCE_PIECES = st.sampled_from(["objfirst", "objsecond", "objfirst's", "is", "isn't", "not", "better", "faster",
                                     "than", "more", "bigger", "both", "?", ".", ",", " ", "  ", "\n", "-", "Naïve",
                                     "BEST", "don't", "it's", "'", "x'y", "worse", "but"])  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(_SENTENCE_PIECES, max_size=30).map(" ".join), min_size=1, max_size=4))
def test_sentences_prepared_from_one_tokenization_have_the_parts_of_their_blocks_own_steps(texts):
    """Prediction and model selection make a sentence's cue counts and comparison tokens from one tokenization of it:
    the same parts as the sentence blocks' own stateless steps make of the text (line breaks, apostrophes and
    letters outside a-z included)."""
    ours = stance_model._prepared_sentences(texts).parts
    theirs = stance_model.Prepared.of(stance_model._sentence_blocks(), texts).parts
    assert list(ours) == list(theirs) == ["cues", "comparison"]
    assert ours["comparison"] == theirs["comparison"]
    assert (ours["cues"] != theirs["cues"]).nnz == 0 and ours["cues"].shape == theirs["cues"].shape


def test_split_votes_weigh_less_where_the_settings_say_so():
    """Each sentence once as labelled, unanimously, and once with its label turned round by a lone annotator: with
    agreement power 2 the lone votes barely count and the classifier learns the sentences' own labels; counted
    alike, the two halves cancel out."""
    clean = [e for e in _sentences(synthetic_examples()) if e.label != "NONE"]
    turned = [dataclasses.replace(e, label="SECOND" if e.label == "FIRST" else "FIRST", agreement=0.2) for e in clean]
    texts, firsts, seconds = ([getattr(e, key) for e in clean] for key in ("text", "first", "second"))
    truth = [e.label for e in clean]
    scores = {}
    for power in (0.0, 2.0):
        choice = Choice(SentenceSettings(agreement_power=power), PassageSettings())
        model = fit_stance_model(clean + turned, choice=choice)
        predicted = predict_sentence_stance(model, texts, firsts, seconds)
        scores[power] = sum(p == t for p, t in zip(predicted, truth)) / len(truth)
    assert scores[2.0] > 0.95 > scores[0.0]


@pytest.mark.parametrize("family", ["svm", "logistic"])
def test_either_passage_family_learns_the_synthetic_set_and_swaps_with_the_objects(family):
    examples = synthetic_examples()
    model = fit_stance_model(examples, choice=Choice(passage=PassageSettings(family=family, c=1.0)))
    texts, firsts, seconds = ([getattr(e, key) for e in examples] for key in ("text", "first", "second"))
    forward = predict_stance(model, texts, firsts, seconds)
    assert sum(p == e.label for p, e in zip(forward, examples)) / len(examples) > 0.9
    swap = {"FIRST": "SECOND", "SECOND": "FIRST"}
    assert [swap.get(label, label) for label in forward] == predict_stance(model, texts, seconds, firsts)


def test_an_unknown_passage_family_is_refused():
    with pytest.raises(ValueError, match="unknown classifier family 'tree'"):
        fit_stance_model(synthetic_examples(), choice=Choice(passage=PassageSettings(family="tree")))


def test_the_logistic_passage_classifier_is_fitted_on_one_blas_thread(monkeypatch):
    """Its BLAS calls are too small to share: a second thread would only spend CPU waiting (and could reorder sums)."""
    threads = []

    class Recording(stance_model.LogisticRegression):
        def fit(self, *args, **kwargs):
            threads.extend(info["num_threads"] for info in threadpool_info() if info["user_api"] == "blas")
            return super().fit(*args, **kwargs)

    monkeypatch.setattr(stance_model, "LogisticRegression", Recording)
    model = fit_stance_model(synthetic_examples(), choice=Choice(passage=PassageSettings(family="logistic")))
    assert isinstance(model["passage"][-1], Recording)
    assert threads and set(threads) == {1}


def test_the_default_choice_is_the_default_settings_at_the_given_c():
    assert Choice.with_c(0.7) == Choice(SentenceSettings(c=0.7), PassageSettings(c=0.7))
    assert Choice().to_json() == {
        "sentence": {"c": 0.3, "class_weight_power": 0.5, "words_weight": 1.0, "agreement_power": 0.0},
        "passage": {"family": "svm", "c": 0.3, "directions_weight": 0.5},
    }
