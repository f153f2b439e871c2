"""Touché Task 2 stance classifier: which of a comparative question's two objects a passage favours, if either.

Two linear models (scikit-learn), each on the data it fits:

- a **sentence classifier**, trained on single comparative sentences labelled FIRST, SECOND or NONE
  (CompSent-19): masked words, counted cues and the words between and around the two objects
  (comparison_features). Its sentences always name the first object first, so it reads every sentence that
  way: a passage's sentence naming the second object first is read with the objects swapped, and its verdict
  swapped back.
- a **passage classifier**, trained on passages labelled in the task's four classes (the Touché stance set):
  cues, which object the passage names first and most, the words around each object, and the sentence
  classifier's verdicts on its comparative sentences. Every training passage is also seen with its
  objects swapped and FIRST and SECOND exchanged, so the model cannot learn "the first object wins".

Object names are masked first (mentions.py), so the model learns "objfirst is better than objsecond" rather than
which brands tend to win. The saved model is a plain dict of the two pipelines (either may be absent).
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple, Sequence

import numpy as np
from scipy import sparse
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.metrics import accuracy_score, f1_score
from sklearn.model_selection import StratifiedGroupKFold
from sklearn.pipeline import FeatureUnion, Pipeline
from sklearn.preprocessing import FunctionTransformer
from sklearn.svm import LinearSVC

from argrank.core.cpu_time import timed
from argrank.tracks.comparative.comparison_features import comparison_tokens
from argrank.tracks.comparative.mentions import mask_mentions
from argrank.tracks.comparative.passage_features import (
    comparative_sentences,
    context_tokens,
    cue_counts,
    cue_matrix,
    direction_row,
    names_second_first,
    swap_objects,
    tokenize,
)
from argrank.tracks.comparative.stance_data import StanceExample, pair_key
from argrank.tracks.comparative.stance_labels import LABELS, NONE

SENTENCE_LABELS = ("FIRST", "SECOND", NONE)
_SWAPPED_LABEL = {"FIRST": "SECOND", "SECOND": "FIRST"}
_WORD = r"\w+(?:'\w+)?"  # words of one letter count too, and contractions stay whole: "isn't"
# CompSent-19 is 73 % NONE: classes are weighted by (largest / own count) ** this, between plain (0) and fully
# balanced (1), which cross-validated best for macro-F1 and accuracy together.
SENTENCE_CLASS_WEIGHT_POWER = 0.5
DEFAULT_C = 0.3
# The words around each object say most about a passage's side: the direction features are scaled down against them
# (a stronger regularisation of that block). Chosen by the Touché set's grouped CV over seeds 0-11 among 0.3, 0.5 and 1
# (0.446, 0.446, 0.438 macro-F1). A third block, TF-IDF over all of the passage's words, added nothing there
# (0.447 with it) and took a sixth of the prediction time: it is gone.
PASSAGE_BLOCK_WEIGHTS = {"directions": 0.5, "contexts": 1.0}

Model = dict  # {"sentence": Pipeline | None, "passage": Pipeline | None}


def _tfidf(**settings) -> TfidfVectorizer:
    return TfidfVectorizer(sublinear_tf=True, **settings)


def _comparison_docs(masked: Sequence[str]) -> list[str]:
    return [comparison_tokens(text) for text in masked]


Row = tuple[list[float], str]  # a passage's direction features and damped cue counts, and its context tokens


def _passage_directions(rows: Sequence[Row]) -> sparse.csr_matrix:
    return sparse.csr_matrix(np.array([direction for direction, _ in rows], dtype=float))


def _passage_contexts(rows: Sequence[Row]) -> list[str]:
    return [context for _, context in rows]


def _split(tokens: str) -> list[str]:
    return tokens.split()


def _tokens(**settings) -> TfidfVectorizer:
    """TF-IDF over our own space-separated feature tokens, kept as they are (split, not matched by a regex: the
    same tokens, sooner)."""
    return _tfidf(analyzer=_split, token_pattern=None, lowercase=False, **settings)


def _sentence_pipeline(c: float, labels: Sequence[str]) -> Pipeline:
    counts = Counter(labels)
    weights = {label: (max(counts.values()) / n) ** SENTENCE_CLASS_WEIGHT_POWER for label, n in counts.items()}
    features = FeatureUnion(
        [
            ("words", _tfidf(ngram_range=(1, 2), token_pattern=_WORD)),
            ("cues", FunctionTransformer(cue_matrix)),
            ("comparison", Pipeline([("tokens", FunctionTransformer(_comparison_docs)), ("tfidf", _tokens())])),
        ]
    )
    # Solved in the primal: deterministic, and quick to converge even where labels are noisy.
    return Pipeline([("features", features), ("classify", LinearSVC(C=c, class_weight=weights, dual=False))])


def _passage_pipeline(c: float) -> Pipeline:
    features = FeatureUnion(
        [
            ("directions", FunctionTransformer(_passage_directions)),
            ("contexts", Pipeline([("tokens", FunctionTransformer(_passage_contexts)), ("tfidf", _tokens(min_df=2))])),
        ],
        transformer_weights=PASSAGE_BLOCK_WEIGHTS,
    )
    return Pipeline([("features", features), ("classify", LinearSVC(C=c, class_weight="balanced", dual=False))])


# The types a saved model holds beyond those skops trusts by default (core.model_file builds no others).
MODEL_TYPES = tuple(
    f"{__name__}.{name}"
    for name in ("_comparison_docs", "_passage_directions", "_passage_contexts", "_split")
) + ("argrank.tracks.comparative.passage_features.cue_matrix",)


def masked_text(example: StanceExample) -> str:
    return mask_mentions(example.text, example.first, example.second, example.first_spans, example.second_spans)


def fit_stance_model(examples: Sequence[StanceExample], *, c: float = DEFAULT_C) -> Model:
    """Both classifiers, each on the examples of its kind (`sentence` examples, passages); a kind without
    examples of two labels leaves its classifier out. Raises ValueError where neither can be trained."""
    sentences = [e for e in examples if e.sentence]
    passages = [e for e in examples if not e.sentence]
    model: Model = {"sentence": None, "passage": None}
    if len({e.label for e in sentences}) >= 2:
        labels = [e.label for e in sentences]
        model["sentence"] = _sentence_pipeline(c, labels).fit([masked_text(e) for e in sentences], labels)
    if len({e.label for e in passages}) >= 2:
        masked = [masked_text(e) for e in passages]
        both_ways = masked + [swap_objects(text) for text in masked]
        labels = [e.label for e in passages]
        labels += [_SWAPPED_LABEL.get(label, label) for label in labels]
        model["passage"] = _passage_pipeline(c).fit(_passage_rows(model, both_ways), labels)
    if model["sentence"] is None and model["passage"] is None:
        raise ValueError(f"need examples of at least two labels to train, got {dict(Counter(e.label for e in examples))}")
    return model


def _features(pipeline: Pipeline, inputs) -> sparse.csr_matrix:
    """What the pipeline's feature union makes of `inputs`, its blocks transformed one after the other: the union
    itself hands each block to joblib, a fixed cost per pipeline and call whatever the batch."""
    union = pipeline.named_steps["features"]
    weights = union.transformer_weights or {}
    blocks = [
        block.transform(inputs) if name not in weights else block.transform(inputs) * weights[name]
        for name, block in union.transformer_list
    ]
    return sparse.hstack(blocks).tocsr()


def _passage_rows(model: Model, masked: Sequence[str]) -> list[Row]:
    """Each masked passage's Row, from one tokenization of it, its comparative sentences scored in one batch."""
    sentences = [comparative_sentences(text) for text in masked]
    verdicts = _sentence_verdicts(model, [s for group in sentences for s in group])
    rows, at = [], 0
    for text, group in zip(masked, sentences):
        tokens = tokenize(text)
        cues = cue_counts(text, tokens)
        damped = np.log1p(np.fromiter(cues.values(), dtype=float, count=len(cues)))
        directions = direction_row(text, cues, verdicts[at : at + len(group)])
        rows.append(([*directions, *damped], context_tokens(text, tokens)))
        at += len(group)
    return rows


def _sentence_verdicts(model: Model, sentences: list[str]) -> np.ndarray:
    """The sentence classifier's FIRST, SECOND and NONE scores of each masked sentence, in the sentence's own
    object order; no columns' worth of evidence (zeros) without a sentence classifier."""
    if model["sentence"] is None or not sentences:
        return np.zeros((len(sentences), len(SENTENCE_LABELS)))
    flipped = np.array([names_second_first(s) for s in sentences])
    oriented = [swap_objects(s) if flip else s for s, flip in zip(sentences, flipped)]
    classifier = model["sentence"][-1]
    scores = classifier.decision_function(_features(model["sentence"], oriented))
    columns = [list(classifier.classes_).index(label) for label in SENTENCE_LABELS]
    scores = scores[:, columns]
    scores[flipped] = scores[flipped][:, [1, 0, 2]]
    return scores


def predict_stance(
    model: Model,
    texts: Sequence[str],
    firsts: Sequence[str],
    seconds: Sequence[str],
    spans: Sequence[tuple[tuple, tuple]] | None = None,
) -> list[str]:
    """Each passage's label, one of LABELS. Raises ValueError where the sequences differ in length, an object
    name is blank, or the model has no passage classifier (it was trained on single sentences only)."""
    if model["passage"] is None:
        raise ValueError("this stance model has no passage classifier: train it on a set with the task's four labels")
    masked = _masked(texts, firsts, seconds, spans)
    if not masked:
        return []
    features = _features(model["passage"], _passage_rows(model, masked))
    return [str(label) for label in model["passage"][-1].predict(features)]


def predict_sentence_stance(
    model: Model,
    texts: Sequence[str],
    firsts: Sequence[str],
    seconds: Sequence[str],
    spans: Sequence[tuple[tuple, tuple]] | None = None,
) -> list[str]:
    """Each sentence's label, one of SENTENCE_LABELS (NEUTRAL and NO are NONE): by the sentence classifier, or
    where the model has none, by the passage classifier with NEUTRAL and NO merged."""
    if model["sentence"] is None:
        return [label if label in _SWAPPED_LABEL else NONE for label in predict_stance(model, texts, firsts, seconds, spans)]
    masked = _masked(texts, firsts, seconds, spans)
    return [str(label) for label in model["sentence"][-1].predict(_features(model["sentence"], masked))] if masked else []


def _masked(texts, firsts, seconds, spans) -> list[str]:
    spans = spans if spans is not None else [((), ())] * len(texts)
    rows = list(zip(texts, firsts, seconds, spans, strict=True))
    return [mask_mentions(text, first, second, *given) for text, first, second, given in rows]


def predict_examples(model: Model, examples: Sequence[StanceExample]) -> list[str]:
    """Each example's label in its own set's classes: sentences in SENTENCE_LABELS, passages in LABELS."""
    predicted: list[str] = [""] * len(examples)
    for sentence, predict in ((True, predict_sentence_stance), (False, predict_stance)):
        at = [i for i, e in enumerate(examples) if e.sentence == sentence]
        if at:
            chosen = [examples[i] for i in at]
            labels = predict(
                model,
                [e.text for e in chosen],
                [e.first for e in chosen],
                [e.second for e in chosen],
                [(e.first_spans, e.second_spans) for e in chosen],
            )
            for i, label in zip(at, labels):
                predicted[i] = label
    return predicted


class CrossValidation(NamedTuple):
    predicted: list[str]  # every example's out-of-fold label
    folds: int  # shrunk to the number of object pairs where needed
    train_seconds: float  # CPU-seconds fitting all folds
    predict_seconds: dict[bool, float]  # CPU-seconds predicting all folds' sentences (True) and passages (False)


def cross_validate(
    examples: Sequence[StanceExample], *, c: float = DEFAULT_C, folds: int = 5, seed: int = 0
) -> CrossValidation:
    """Out-of-fold predictions for every example, folds grouped by object pair (no pair in two folds) and
    stratified by label, with the time spent fitting and predicting."""
    groups = [pair_key(e) for e in examples]
    k = min(folds, len(set(groups)))
    if k < 2:
        raise ValueError(f"cross-validation needs examples of at least 2 object pairs, got {len(set(groups))}")
    labels = [("S:" if e.sentence else "P:") + e.label for e in examples]
    split = StratifiedGroupKFold(n_splits=k, shuffle=True, random_state=seed)
    predicted: list[str] = [""] * len(examples)
    train_seconds, predict_seconds = 0.0, {True: 0.0, False: 0.0}
    for train, test in split.split(np.zeros(len(examples)), labels, groups):
        model, seconds = timed(lambda: fit_stance_model([examples[i] for i in train], c=c))
        train_seconds += seconds
        for sentence in (True, False):
            chosen = [i for i in test if examples[i].sentence == sentence]
            if not chosen:
                continue
            labels_of, seconds = timed(lambda: predict_examples(model, [examples[i] for i in chosen]))
            for i, label in zip(chosen, labels_of):
                predicted[i] = label
            predict_seconds[sentence] += seconds
    return CrossValidation(predicted, k, train_seconds, predict_seconds)


def train_stance_model(
    examples: Sequence[StanceExample], *, c: float = DEFAULT_C, folds: int = 5, seed: int = 0
) -> tuple[Model, dict]:
    """The model fitted on all `examples`, and a report of its cross-validation (grouped by object pair).

    The report's macro-F1 is the passages' over all of LABELS, so a label the set lacks counts as F1 0; where
    sentences were given, their three-class figures are under "sentences". Raises ValueError for a label outside
    the sets' classes, or passages of fewer than two labels.
    """
    passages = [e for e in examples if not e.sentence]
    counts = Counter(e.label for e in passages)
    unknown = sorted(set(counts) - set(LABELS)) + sorted({e.label for e in examples if e.sentence} - set(SENTENCE_LABELS))
    if unknown:
        raise ValueError(f"labels {unknown} are not among {LABELS} (passages) or {SENTENCE_LABELS} (sentences)")
    if len(counts) < 2:
        raise ValueError(f"need passages of at least two labels to train, got {dict(counts) or 'none'}")
    if folds < 2:
        raise ValueError(f"folds must be at least 2, got {folds}")
    predicted, k, *_ = cross_validate(examples, c=c, folds=folds, seed=seed)
    truth = [e.label for e in passages]
    guessed = [p for p, e in zip(predicted, examples) if not e.sentence]
    per_label = f1_score(truth, guessed, labels=list(LABELS), average=None, zero_division=0)
    report = {
        "cv_macro_f1": float(f1_score(truth, guessed, labels=list(LABELS), average="macro", zero_division=0)),
        "cv_per_label_f1": {label: float(score) for label, score in zip(LABELS, per_label)},
        "folds": k,
        "examples": len(passages),
        "label_counts": {label: counts[label] for label in LABELS},
    }
    sentences = [(e.label, p) for e, p in zip(examples, predicted) if e.sentence]
    if sentences:
        truth, guessed = zip(*sentences)
        report["sentences"] = {
            "cv_macro_f1": float(f1_score(truth, guessed, labels=list(SENTENCE_LABELS), average="macro", zero_division=0)),
            "cv_accuracy": float(accuracy_score(truth, guessed)),
            "examples": len(sentences),
        }
    return fit_stance_model(examples, c=c), report
