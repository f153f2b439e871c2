"""Touché Task 2 stance classifier: which of a comparative question's two objects a passage favours, if either.

The objects' names are replaced by placeholders before any feature is taken, so the model learns "objfirst is
better than objsecond" rather than which brands tend to win, and swapping the objects swaps FIRST and SECOND.
Word and character n-grams carry the wording; a few counted cues (comparatives, their direction between the two
placeholders, negations) carry the direction explicitly, since n-grams alone see it only within three words.
A linear SVM, calibrated by cross-validation, gives the probabilities a ranking can weigh.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from functools import lru_cache
from typing import Sequence

import numpy as np
from scipy import sparse
from sklearn.base import clone
from sklearn.calibration import CalibratedClassifierCV
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.metrics import f1_score
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.pipeline import FeatureUnion, Pipeline
from sklearn.preprocessing import FunctionTransformer
from sklearn.svm import LinearSVC

from argrank.text.cues import NEGATION_WINDOW, SENTENCE, WORD, is_negation
from argrank.tracks.comparative.stance_data import StanceExample
from argrank.tracks.comparative.stance_labels import LABELS

# Placeholders are plain lowercase letters, so every tokenizer keeps each one a single word.
FIRST_TOKEN = "objfirst"
SECOND_TOKEN = "objsecond"
_OTHER = {FIRST_TOKEN: SECOND_TOKEN, SECOND_TOKEN: FIRST_TOKEN}
_SIDE = {FIRST_TOKEN: "first", SECOND_TOKEN: "second"}

# Comparative cues by the side they take: a positive cue favours the object named before it ("A beats B",
# "A is better than B"), or the one right after it when none comes before ("prefer A over B"); a negative cue
# favours the other one.
_POSITIVE = frozenset(
    "better best superior prefer prefers preferred preferable favour favor over beats beat outperforms outperform "
    "wins win surpasses exceeds faster quicker cheaper easier safer stronger healthier simpler smarter".split()
)
_NEGATIVE = frozenset(
    "worse worst inferior loses lose lags trails underperforms slower pricier costlier weaker riskier".split()
)
_NEUTRAL = frozenset("both equally equal same similar comparable alike depends either tie tied".split())

CUE_FEATURES = (
    "favours_first",
    "favours_second",
    "negated_favours_first",
    "negated_favours_second",
    "comparative_first_than_second",
    "comparative_second_than_first",
    "neutral_cues",
    "negations",
    "mentions_first",
    "mentions_second",
)

_ES_PLURAL = ("s", "x", "z", "ch", "sh", "o")
_TFIDF_WORD = r"(?u)\b\w+(?:'\w+)?\b"

CALIBRATION_FOLDS = 3


def mask_objects(text: str, first: str, second: str) -> str:
    """`text` with each mention of `first` replaced by FIRST_TOKEN and of `second` by SECOND_TOKEN.

    A mention is the object's name as a whole word ("car" is not in "cart"), in any case, with any run of white
    space between its words, or its simple plural: +s, or +es after s, x, z, ch, sh, o ("boxes", but never
    "cares" for "car"). Where one name contains the other, the longer wins ("Python 3" over "Python"); where both
    are the same name, mentions count as the first object.
    """
    return _mention_pattern(first, second).sub(lambda match: match.lastgroup, text)


@lru_cache(maxsize=1024)
def _mention_pattern(first: str, second: str) -> re.Pattern:
    """One regex for both objects' mentions, the longer name tried first; each group is named by its placeholder."""
    names = [(first.split(), FIRST_TOKEN), (second.split(), SECOND_TOKEN)]
    names.sort(key=lambda pair: -len(" ".join(pair[0])))  # stable: on a tie the first object comes first
    alternatives = []
    for words, token in names:
        if not words:
            raise ValueError("an object name is blank")
        plural = r"(?:e?s)?" if words[-1].lower().endswith(_ES_PLURAL) else "s?"
        alternatives.append(f"(?P<{token}>" + r"(?<!\w)" + r"\s+".join(map(re.escape, words)) + plural + r"(?!\w))")
    return re.compile("|".join(alternatives), re.IGNORECASE)


def _mask_rows(rows: Sequence[tuple[str, str, str]]) -> list[str]:
    """The pipeline's first step: (text, first, second) rows to masked texts."""
    return [mask_objects(text, first, second) for text, first, second in rows]


def _cue_matrix(texts: Sequence[str]) -> sparse.csr_matrix:
    """CUE_FEATURES of each masked text, damped by log(1 + count) so a long passage does not swamp the n-grams."""
    counts = [list(cue_counts(text).values()) for text in texts]
    return sparse.csr_matrix(np.log1p(np.array(counts, dtype=float).reshape(len(texts), len(CUE_FEATURES))))


def cue_counts(masked: str) -> dict[str, int]:
    """How often each of CUE_FEATURES occurs in a masked text (see mask_objects), one sentence at a time.

    A comparative cue favours an object as described at _POSITIVE; it counts as negated where one of the
    NEGATION_WINDOW words before it is a negation. A "than" after a comparative ("-er", "more x", "less x") counts
    by the order of the mentions around it, whatever the comparative says.
    """
    counts = dict.fromkeys(CUE_FEATURES, 0)
    for sentence in SENTENCE.split(masked.lower()):
        words = [word.removesuffix("'s") for word in WORD.findall(sentence)]
        before, after = _nearest_mentions(words)
        for i, word in enumerate(words):
            if word == FIRST_TOKEN:
                counts["mentions_first"] += 1
            elif word == SECOND_TOKEN:
                counts["mentions_second"] += 1
            elif is_negation(word):
                counts["negations"] += 1
            elif word in _NEUTRAL:
                counts["neutral_cues"] += 1
            elif word == "than" and _follows_comparative(words, i):
                if before[i] and after[i] and before[i] != after[i]:
                    counts[f"comparative_{_SIDE[before[i]]}_than_{_SIDE[after[i]]}"] += 1
            elif word in _POSITIVE or word in _NEGATIVE:
                subject = before[i] or after[i]
                if subject:
                    favoured = subject if word in _POSITIVE else _OTHER[subject]
                    negated = any(map(is_negation, words[max(0, i - NEGATION_WINDOW) : i]))
                    counts[f"{'negated_' if negated else ''}favours_{_SIDE[favoured]}"] += 1
    return counts


def _nearest_mentions(words: list[str]) -> tuple[list[str | None], list[str | None]]:
    """For each position, the nearest placeholder before it and the nearest after it (None where there is none)."""
    before, after = [], []
    last = None
    for word in words:
        before.append(last)
        last = word if word in _OTHER else last
    last = None
    for word in reversed(words):
        after.append(last)
        last = word if word in _OTHER else last
    return before, after[::-1]


def _follows_comparative(words: list[str], i: int) -> bool:
    """Whether the words before position `i` end in a comparative: "-er", "more", "less", "more x", "less x"."""
    last_two = words[max(0, i - 2) : i]
    return (i > 0 and words[i - 1].endswith("er")) or "more" in last_two or "less" in last_two


def _build_model(c: float, calibration_folds: int) -> Pipeline:
    """The unfitted pipeline: (text, first, second) rows → masked text → features → calibrated linear SVM.

    Class weights are balanced so rare labels are not traded away for the common ones (the score is macro-F1).
    The SVM is solved in the primal: deterministic, and quick to converge even where labels are noisy.
    """
    features = FeatureUnion(
        [
            # Words of one letter count too, and contractions stay whole: "isn't", "don't".
            ("words", TfidfVectorizer(ngram_range=(1, 3), sublinear_tf=True, token_pattern=_TFIDF_WORD)),
            ("chars", TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 5), sublinear_tf=True)),
            ("cues", FunctionTransformer(_cue_matrix)),
        ]
    )
    svm = LinearSVC(C=c, class_weight="balanced", dual=False)
    return Pipeline(
        [
            ("mask", FunctionTransformer(_mask_rows)),
            ("features", features),
            ("classify", CalibratedClassifierCV(svm, method="sigmoid", cv=calibration_folds)),
        ]
    )


# The types a saved model holds beyond those skops trusts by default (core.model_file builds no others): this
# module's own steps and the calibration's parts.
MODEL_TYPES = (
    f"{__name__}._mask_rows",
    f"{__name__}._cue_matrix",
    "sklearn.calibration._CalibratedClassifier",
    "sklearn.calibration._SigmoidCalibration",
)


def train_stance_model(
    examples: Sequence[StanceExample], *, c: float = 1.0, folds: int = 5, seed: int = 0
) -> tuple[Pipeline, dict]:
    """The model fitted on all `examples`, and a report of its stratified `folds`-fold cross-validation.

    Folds shrink to the rarest label's count where needed. The report's macro-F1 averages over all of LABELS, so
    a label the set lacks counts as F1 0. Raises ValueError for a label outside LABELS, fewer than two labels, or
    a label too rare to cross-validate and calibrate within each training fold.
    """
    labels = [example.label for example in examples]
    counts = Counter(labels)
    unknown = sorted(set(counts) - set(LABELS))
    if unknown:
        raise ValueError(f"labels {unknown} are not among {LABELS}")
    if len(counts) < 2:
        raise ValueError(f"need examples of at least two labels to train, got {dict(counts) or 'none'}")
    if folds < 2:
        raise ValueError(f"folds must be at least 2, got {folds}")
    rarest, fewest = min(counts.items(), key=lambda item: (item[1], LABELS.index(item[0])))
    k = min(folds, fewest)
    if k < 2:
        raise ValueError(f"label {rarest} has only {fewest} example: cross-validation needs at least 2 of each label")
    # Stratified folds spread each label evenly, so a training fold keeps all but ceil(fewest / k) of the rarest.
    calibration_folds = min(CALIBRATION_FOLDS, fewest - math.ceil(fewest / k))
    if calibration_folds < 2:
        raise ValueError(
            f"label {rarest} has only {fewest} example(s): too few to cross-validate in {k} folds and still "
            f"calibrate within each training fold (each training fold must keep at least 2)"
        )
    rows = [(example.text, example.first, example.second) for example in examples]
    model = _build_model(c, calibration_folds)
    split = StratifiedKFold(n_splits=k, shuffle=True, random_state=seed)
    predicted = cross_val_predict(clone(model), rows, labels, cv=split)
    per_label = f1_score(labels, predicted, labels=list(LABELS), average=None, zero_division=0)
    report = {
        "cv_macro_f1": float(f1_score(labels, predicted, labels=list(LABELS), average="macro", zero_division=0)),
        "cv_per_label_f1": {label: float(score) for label, score in zip(LABELS, per_label)},
        "folds": k,
        "examples": len(examples),
        "label_counts": {label: counts[label] for label in LABELS},
    }
    return model.fit(rows, labels), report


def predict_stance(
    model: Pipeline, texts: Sequence[str], firsts: Sequence[str], seconds: Sequence[str]
) -> tuple[list[str], np.ndarray]:
    """Each passage's most probable label and its probabilities, one column per label in LABELS order.

    A label the model never saw gets probability 0. Raises ValueError where the three sequences differ in length
    or an object name is blank.
    """
    rows = list(zip(texts, firsts, seconds, strict=True))
    probabilities = np.zeros((len(rows), len(LABELS)))
    if rows:
        learned = model.predict_proba(rows)
        for column, label in enumerate(model.classes_):
            probabilities[:, LABELS.index(label)] = learned[:, column]
    return [LABELS[index] for index in probabilities.argmax(axis=1)], probabilities
