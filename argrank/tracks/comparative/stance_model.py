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

How each classifier is fitted (C, class weights, the weight of its feature blocks, the passage classifier's family)
is a Choice; stance_selection chooses one by cross-validation. Each kind's feature blocks can be fitted once
(Featurized) and classifiers of several settings fitted on them, which is what makes choosing affordable.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass
from math import log1p
from typing import NamedTuple, Sequence

import numpy as np
from scipy import sparse
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, f1_score
from sklearn.model_selection import StratifiedGroupKFold
from sklearn.pipeline import FeatureUnion, Pipeline
from sklearn.preprocessing import FunctionTransformer
from sklearn.svm import LinearSVC
from threadpoolctl import threadpool_limits

from argrank.core.cpu_time import timed
from argrank.text.tfidf import tfidf_fit_transform, tfidf_transform
from argrank.tracks.comparative.comparison_features import comparison_tokens
from argrank.tracks.comparative.mentions import mask_mentions
from argrank.tracks.comparative.passage_features import (
    comparative_sentences,
    context_tokens,
    cue_counts,
    cue_matrix,
    direction_row,
    names_second_first,
    sentence_evidence,
    swap_objects,
    tokenize,
)
from argrank.tracks.comparative.stance_data import StanceExample, pair_key
from argrank.tracks.comparative.stance_labels import LABELS, NONE

SENTENCE_LABELS = ("FIRST", "SECOND", NONE)
_SWAPPED_LABEL = {"FIRST": "SECOND", "SECOND": "FIRST"}
_WORD = r"\w+(?:'\w+)?"  # words of one letter count too, and contractions stay whole: "isn't"
DEFAULT_C = 0.3
# The solvers' iterations: the dual coordinate descent converges in well under this on our sets.
MAX_ITER = 20000
FAMILIES = ("svm", "logistic")

Model = dict  # {"sentence": Pipeline | None, "passage": Pipeline | None}


@dataclass(frozen=True)
class SentenceSettings:
    """How the sentence classifier is fitted. CompSent-19 is mostly NONE: classes are weighted by (largest / own
    count) ** `class_weight_power`, between plain (0) and fully balanced (1); the sentence's words are weighed
    `words_weight` against the cues and the comparison tokens (which say more); an example counts
    `agreement ** agreement_power` (0: all alike), so that where annotators split the label weighs less."""

    c: float = DEFAULT_C
    class_weight_power: float = 0.5
    words_weight: float = 1.0
    agreement_power: float = 0.0

    def block_weights(self) -> dict[str, float]:
        return {"words": self.words_weight, "cues": 1.0, "comparison": 1.0}

    def describe(self) -> str:
        return (f"C {self.c:g}, class weight power {self.class_weight_power:g}, words weight {self.words_weight:g}, "
                f"agreement power {self.agreement_power:g}")  # fmt: skip


@dataclass(frozen=True)
class PassageSettings:
    """How the passage classifier is fitted: a linear SVM or a logistic regression (`family`, classes balanced),
    and the weight of the direction features against the words around each mention (a stronger regularisation of
    that block where below 1)."""

    family: str = "svm"
    c: float = DEFAULT_C
    directions_weight: float = 0.5

    def block_weights(self) -> dict[str, float]:
        return {"directions": self.directions_weight, "contexts": 1.0}

    def describe(self) -> str:
        return f"{self.family}, C {self.c:g}, directions weight {self.directions_weight:g}"


@dataclass(frozen=True)
class Choice:
    """The settings of both classifiers: what model selection chooses."""

    sentence: SentenceSettings = SentenceSettings()
    passage: PassageSettings = PassageSettings()

    @classmethod
    def with_c(cls, c: float) -> Choice:
        """The default settings with both classifiers' C at `c`."""
        return cls(SentenceSettings(c=c), PassageSettings(c=c))

    def to_json(self) -> dict:
        return {"sentence": dataclasses.asdict(self.sentence), "passage": dataclasses.asdict(self.passage)}


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


def _sentence_blocks() -> list[tuple[str, object]]:
    return [
        ("words", _tfidf(ngram_range=(1, 2), token_pattern=_WORD)),
        ("cues", FunctionTransformer(cue_matrix)),
        ("comparison", Pipeline([("tokens", FunctionTransformer(_comparison_docs)), ("tfidf", _tokens())])),
    ]


def _passage_blocks() -> list[tuple[str, object]]:
    return [
        ("directions", FunctionTransformer(_passage_directions)),
        ("contexts", Pipeline([("tokens", FunctionTransformer(_passage_contexts)), ("tfidf", _tokens(min_df=2))])),
    ]


@dataclass(frozen=True)
class Prepared:
    """Inputs and what each block's stateless first step (a FunctionTransformer) makes of them, made once for many
    featurizations of parts of them: model selection's inner folds share a sentence's cue counts and comparison
    tokens, which no fold changes."""

    inputs: list
    parts: dict[str, object]  # block name → that step's output for every input (a list, or a matrix's rows)

    @classmethod
    def of(cls, blocks: list[tuple[str, object]], inputs: Sequence) -> Prepared:
        inputs = list(inputs)
        steps = [(name, _stateless_step(block)) for name, block in blocks]
        return cls(inputs, {name: step.transform(inputs) for name, step in steps if step is not None})

    def take(self, positions: Sequence[int]) -> Prepared:
        """The inputs at `positions`, in that order, with their parts."""
        positions = list(positions)
        parts = {name: part[positions] if sparse.issparse(part) else [part[i] for i in positions]
                 for name, part in self.parts.items()}  # fmt: skip
        return Prepared([self.inputs[i] for i in positions], parts)


def _stateless_step(block) -> FunctionTransformer | None:
    """The block's first step (the block itself where it is no pipeline), where it is a FunctionTransformer."""
    step = block.steps[0][1] if isinstance(block, Pipeline) else block
    return step if isinstance(step, FunctionTransformer) else None


class Featurized:
    """A feature union's blocks fitted on training inputs, and each block's matrix of those inputs: classifiers of
    several settings are then fitted on one featurization, each weighing the blocks its own way. The inputs may be
    Prepared, their stateless steps' outputs then read, not made again; the blocks end up fitted the same."""

    def __init__(self, blocks: list[tuple[str, object]], inputs: Sequence | Prepared) -> None:
        self.blocks = blocks
        prepared = inputs if isinstance(inputs, Prepared) else Prepared(list(inputs), {})
        self.train = {name: sparse.csr_matrix(_fit_transform(block, prepared, name)) for name, block in blocks}

    def transform(self, inputs: Sequence | Prepared) -> dict[str, sparse.csr_matrix]:
        """Each block's matrix of `inputs`, unweighted."""
        prepared = inputs if isinstance(inputs, Prepared) else Prepared(list(inputs), {})
        return {name: sparse.csr_matrix(_rest(block, prepared, name, _transform)) for name, block in self.blocks}

    def weighed(self, matrices: dict[str, sparse.csr_matrix], weights: dict[str, float]) -> sparse.csr_matrix:
        """The blocks' matrices side by side, in the union's order, each times its weight."""
        return sparse.hstack([matrices[name] * weights[name] for name, _ in self.blocks]).tocsr()

    def pipeline(self, weights: dict[str, float], classifier) -> Pipeline:
        """The fitted blocks and `classifier` as one pipeline, as a saved model holds them."""
        return Pipeline([("features", FeatureUnion(self.blocks, transformer_weights=weights)),
                         ("classify", classifier)])  # fmt: skip


def _fit_transform(block, prepared: Prepared, name: str):
    """`block.fit_transform(prepared.inputs)`, its stateless first step's output read from `prepared` where it is
    there (that step still fitted, as it would be: it learns nothing)."""
    if name not in prepared.parts:
        return _fitted(block, prepared.inputs)
    _stateless_step(block).fit(prepared.inputs)
    return _rest(block, prepared, name, _fitted)


def _rest(block, prepared: Prepared, name: str, apply):
    """`apply(block, inputs)`, or where `prepared` holds the block's stateless first step's output, `apply` of the
    block's other steps to that output (the output itself where there are none)."""
    if name not in prepared.parts:
        return apply(block, prepared.inputs)
    rest = block.steps[1:] if isinstance(block, Pipeline) else []
    return apply(Pipeline(rest), prepared.parts[name]) if rest else prepared.parts[name]


def prepare_sentences(sentences: Sequence[StanceExample]) -> Prepared:
    """The sentences' masked texts with their cue counts and comparison tokens, for featurize_sentences."""
    return _prepared_sentences([masked_text(e) for e in sentences])


def _prepared_sentences(texts: list[str]) -> Prepared:
    """Masked sentences with what _sentence_blocks' stateless steps make of them (Prepared.of's parts), the cue
    counts and the comparison tokens both from one tokenization of each sentence."""
    tokens = [tokenize(text) for text in texts]
    words = [list(filter("\n".__ne__, found)) if "\n" in found else found for found in tokens]  # TOKEN's alone
    comparison = [comparison_tokens(text, found) for text, found in zip(texts, words)]
    return Prepared(texts, {"cues": cue_matrix(texts, tokens), "comparison": comparison})


def featurize_sentences(sentences: Sequence[StanceExample] | Prepared) -> Featurized:
    """The sentence blocks fitted on `sentences` (examples, or a part of prepare_sentences' output)."""
    return Featurized(_sentence_blocks(), sentences if isinstance(sentences, Prepared) else
                      [masked_text(e) for e in sentences])  # fmt: skip


def fit_sentence_classifier(featurized: Featurized, sentences: Sequence[StanceExample], settings: SentenceSettings):
    """The sentence classifier of `settings` on the `sentences` `featurized` was fitted on."""
    labels = [e.label for e in sentences]
    counts = Counter(labels)
    weights = {label: (max(counts.values()) / n) ** settings.class_weight_power for label, n in counts.items()}
    importance = np.array([e.agreement for e in sentences]) ** settings.agreement_power
    # The dual solver is many times faster than the primal on these wide, sparse features; seeded, it is deterministic.
    classifier = LinearSVC(C=settings.c, class_weight=weights, dual=True, random_state=0, max_iter=MAX_ITER)
    features = featurized.weighed(featurized.train, settings.block_weights())
    return classifier.fit(features, labels, sample_weight=importance)


def passage_training_rows(model: Model, passages: Sequence[StanceExample]) -> tuple[list[Row], list[str]]:
    """The passages' Rows and labels, every passage also with its objects swapped and FIRST and SECOND exchanged, so
    the classifier cannot learn "the first object wins"; the rows read `model`'s sentence classifier."""
    masked = [masked_text(e) for e in passages]
    both_ways = masked + [swap_objects(text) for text in masked]
    labels = [e.label for e in passages]
    labels += [_SWAPPED_LABEL.get(label, label) for label in labels]
    return _passage_rows(model, both_ways), labels


def passage_rows(model: Model, passages: Sequence[StanceExample]) -> list[Row]:
    """The passages' Rows as they are, read by `model`'s sentence classifier."""
    return _passage_rows(model, [masked_text(e) for e in passages])


def featurize_passages(rows: Sequence[Row]) -> Featurized:
    return Featurized(_passage_blocks(), rows)


def fit_passage_classifier(featurized: Featurized, labels: Sequence[str], settings: PassageSettings):
    """The passage classifier of `settings` on the rows `featurized` was fitted on, labelled `labels`."""
    if settings.family not in FAMILIES:
        raise ValueError(f"unknown classifier family {settings.family!r}: one of {', '.join(FAMILIES)}")
    features, labels = featurized.weighed(featurized.train, settings.block_weights()), list(labels)
    if settings.family == "svm":
        svm = LinearSVC(C=settings.c, class_weight="balanced", dual=True, random_state=0, max_iter=MAX_ITER)
        return svm.fit(features, labels)
    # The logistic loss's BLAS calls are small (four classes by a few hundred passages): a second thread only waits
    # on the first, spending CPU for nothing, and one thread sums in the same order on every machine. The `argrank`
    # command and the graph start with one BLAS thread already (workflows/threads.py); a library caller may not.
    with threadpool_limits(limits=1, user_api="blas"):
        return LogisticRegression(C=settings.c, class_weight="balanced", max_iter=MAX_ITER).fit(features, labels)


# The types a saved model holds beyond those skops trusts by default (core.model_file builds no others).
MODEL_TYPES = tuple(
    f"{__name__}.{name}"
    for name in ("_comparison_docs", "_passage_directions", "_passage_contexts", "_split")
) + ("argrank.tracks.comparative.passage_features.cue_matrix",)


def masked_text(example: StanceExample) -> str:
    return mask_mentions(example.text, example.first, example.second, example.first_spans, example.second_spans)


def fit_stance_model(
    examples: Sequence[StanceExample], *, c: float = DEFAULT_C, choice: Choice | None = None
) -> Model:
    """Both classifiers, each on the examples of its kind (`sentence` examples, passages), with the settings of
    `choice` (by default the default settings at C `c`); a kind without examples of two labels leaves its
    classifier out. Raises ValueError where neither can be trained."""
    choice = choice or Choice.with_c(c)
    sentences = [e for e in examples if e.sentence]
    passages = [e for e in examples if not e.sentence]
    model: Model = {"sentence": None, "passage": None}
    if len({e.label for e in sentences}) >= 2:
        featurized = featurize_sentences(sentences)
        classifier = fit_sentence_classifier(featurized, sentences, choice.sentence)
        model["sentence"] = featurized.pipeline(choice.sentence.block_weights(), classifier)
    if len({e.label for e in passages}) >= 2:
        rows, labels = passage_training_rows(model, passages)
        featurized = featurize_passages(rows)
        classifier = fit_passage_classifier(featurized, labels, choice.passage)
        model["passage"] = featurized.pipeline(choice.passage.block_weights(), classifier)
    if model["sentence"] is None and model["passage"] is None:
        counts = dict(Counter(e.label for e in examples))
        raise ValueError(f"need examples of at least two labels to train, got {counts}")
    return model


def _features(pipeline: Pipeline, inputs: Sequence | Prepared) -> sparse.csr_matrix:
    """What the pipeline's feature union makes of `inputs` (or of Prepared inputs, whose parts it reads), its blocks
    transformed one after the other: the union itself hands each block to joblib, a fixed cost per pipeline and
    call whatever the batch."""
    union = pipeline.named_steps["features"]
    weights = union.transformer_weights or {}
    prepared = inputs if isinstance(inputs, Prepared) else Prepared(list(inputs), {})
    made = [(name, _rest(block, prepared, name, _transform)) for name, block in union.transformer_list]
    blocks = [matrix if name not in weights else matrix * weights[name] for name, matrix in made]
    return sparse.hstack(blocks).tocsr()


def _fitted(block, inputs):
    """`block.fit_transform(inputs)`, where a TF-IDF vectorizer (alone or in a pipeline) is fitted by
    tfidf_fit_transform: the same vectorizer and matrix, sooner."""
    if isinstance(block, Pipeline):
        for _, step in block.steps:
            inputs = _fitted(step, inputs)
        return inputs
    return tfidf_fit_transform(block, inputs) if isinstance(block, TfidfVectorizer) else block.fit_transform(inputs)


def _transform(block, inputs):
    """`block.transform(inputs)`, where a TF-IDF vectorizer (alone or in a pipeline) counts by tfidf_transform."""
    if isinstance(block, Pipeline):
        for _, step in block.steps:
            inputs = _transform(step, inputs)
        return inputs
    return tfidf_transform(block, inputs) if isinstance(block, TfidfVectorizer) else block.transform(inputs)


def _passage_rows(model: Model, masked: Sequence[str]) -> list[Row]:
    """Each masked passage's Row, from one tokenization of it, its comparative sentences scored in one batch."""
    sentences = [comparative_sentences(text) for text in masked]
    verdicts = _sentence_verdicts(model, [s for group in sentences for s in group])
    evidence = sentence_evidence(verdicts, [len(group) for group in sentences]).tolist()
    rows = []
    for text, found in zip(masked, evidence):
        tokens = tokenize(text)
        cues = cue_counts(text, tokens)
        damped = [log1p(count) for count in cues.values()]
        rows.append(([*direction_row(text, cues), *found, *damped], context_tokens(text, tokens)))
    return rows


def _sentence_verdicts(model: Model, sentences: list[str]) -> np.ndarray:
    """The sentence classifier's FIRST, SECOND and NONE scores of each masked sentence, in the sentence's own
    object order; no columns' worth of evidence (zeros) without a sentence classifier."""
    if model["sentence"] is None or not sentences:
        return np.zeros((len(sentences), len(SENTENCE_LABELS)))
    flipped = np.array([names_second_first(s) for s in sentences])
    oriented = [swap_objects(s) if flip else s for s, flip in zip(sentences, flipped)]
    classifier = model["sentence"][-1]
    scores = classifier.decision_function(_features(model["sentence"], _prepared_sentences(oriented)))
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
