"""How strongly an image's context supports the PRO side of its topic rather than the CON side.

An image carries no stance of its own that text tools can read; the page around it does: its alt text and
caption, the paragraph it sits in, and the searches that found it ("… benefits", "… dangers"). The topic's own
words are masked first, so "ban" in "Should cars be banned?" is the topic, not a cue, and a model trained on
some topics transfers to others. Two scorers share those features:

- untrained: counted cue words for and against, a cue a negation shortly precedes counting for the other side,
  squashed to a probability; no cues at all give 0.5;
- trained on judged images (`training-qrels.txt`): a logistic regression over word n-grams and the same counts.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from functools import lru_cache
from typing import TYPE_CHECKING, Mapping, Sequence

import numpy as np

import argrank.lazylibs as lazylibs
from argrank.text.cues import NEGATION_WINDOW, SENTENCE, WORD, is_negation
from argrank.tracks.images.qrels import STANCES

if TYPE_CHECKING:
    from scipy import sparse
    from sklearn.pipeline import Pipeline

# scikit-learn and scipy are imported where they are used: they take about a second, which every start of the graph
# would pay (this module is imported with the images track's tasks) though only the images track's stages need them.

PRO, CON = STANCES
TOPIC_TOKEN = "topicterm"  # plain letters, so every tokenizer keeps it one word

# Our own cue lists: words a page uses when it argues for, or against, what the topic asks.
_FOR = frozenset(
    "support supports supporting supported yes benefit benefits beneficial good great positive advantage advantages "
    "help helps helpful improve improves improved improvement better best right should must need needs essential vital "
    "pro pros favour favor agree agrees win wins safe safer healthy healthier protect protects empower empowers "
    "opportunity opportunities success successful important valuable useful fair freedom save saves saving "
    "boost boosts strengthen strengthens thrive".split()
)
_AGAINST = frozenset(
    "against harm harms harmful bad worse worst negative risk risks risky danger dangers dangerous problem problems "
    "disadvantage disadvantages oppose opposes opposed opposition reject rejects wrong threat threatens threats damage "
    "damages damaging costly fail fails failure hurt hurts waste wasteful myth anti con cons disagree unfair unsafe "
    "unhealthy destroy destroys destroying addiction addictive stress lose loses loss dangerously mistake "
    "concern concerns warning warn warns undermine undermines".split()
)
CUE_FEATURES = ("for", "against", "negated_for", "negated_against")
_TFIDF_WORD = r"(?u)\b\w+(?:'\w+)?\b"
_MIN_WORD = 3  # topic words shorter than this ("a", "of") are not masked, and no stem is shorter
_SUFFIXES = ("ies", "ing", "ers", "es", "ed", "er", "s", "d", "y", "e")


def mask_topic(text: str, title: str) -> str:
    """`text` with each content word of the topic's title, and its simple inflections, replaced by TOPIC_TOKEN."""
    pattern = _topic_pattern(title)
    return pattern.sub(TOPIC_TOKEN, text) if pattern else text


@lru_cache(maxsize=1024)
def _topic_pattern(title: str) -> re.Pattern | None:
    """A whole-word regex for the title's content words: a crude stem of each, plus any of _SUFFIXES or none, so
    "lowered" also masks "lower" and "lowering", "cars" masks "car" and "ban" masks "banned"."""
    text = lazylibs.sklearn("feature_extraction.text")

    stems = {
        _stem(word)
        for word in WORD.findall(title.lower())
        if len(word) >= _MIN_WORD and word not in text.ENGLISH_STOP_WORDS and word not in _FOR | _AGAINST
    }
    if not stems:
        return None
    # A stem's last letter may double before a suffix: "ban" masks "banned".
    ordered = sorted(stems, key=lambda stem: (-len(stem), stem))
    alternatives = "|".join(f"{re.escape(stem)}{re.escape(stem[-1])}?" for stem in ordered)
    suffixes = "|".join(_SUFFIXES)
    return re.compile(rf"(?<!\w)(?:{alternatives})(?:{suffixes})?(?!\w)", re.IGNORECASE)


def _stem(word: str) -> str:
    """The word less its first matching suffix that leaves at least _MIN_WORD letters."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= _MIN_WORD:
            return word[: -len(suffix)]
    return word


def cue_counts(masked: str) -> Counter:
    """CUE_FEATURES of one masked text; a cue with a negation among the NEGATION_WINDOW words before it is negated."""
    counts: Counter = Counter()
    for sentence in SENTENCE.split(masked.lower()):
        words = WORD.findall(sentence)
        for i, word in enumerate(words):
            side = "for" if word in _FOR else "against" if word in _AGAINST else None
            if side:
                negated = any(map(is_negation, words[max(0, i - NEGATION_WINDOW) : i]))
                counts[f"negated_{side}" if negated else side] += 1
    return counts


def lexicon_pro_probability(texts: Sequence[str], titles: Sequence[str]) -> np.ndarray:
    """The untrained scorer: P(PRO) = logistic(cues for − cues against), a negated cue counting for the other side."""
    margins = []
    for text, title in zip(texts, titles, strict=True):
        counts = cue_counts(mask_topic(text, title))
        margins.append(counts["for"] + counts["negated_against"] - counts["against"] - counts["negated_for"])
    return 1.0 / (1.0 + np.exp(-np.asarray(margins, dtype=np.float64)))


def _mask_rows(rows: Sequence[tuple[str, str]]) -> list[str]:
    return [mask_topic(text, title) for text, title in rows]


def _cue_matrix(masked: Sequence[str]) -> sparse.csr_matrix:
    """CUE_FEATURES per text, damped by log(1 + count) so a long page does not swamp the n-grams."""
    sparse = lazylibs.scipy("sparse")

    counts = [[cue_counts(text)[name] for name in CUE_FEATURES] for text in masked]
    return sparse.csr_matrix(np.log1p(np.array(counts, dtype=float).reshape(len(masked), len(CUE_FEATURES))))


def _build_model(c: float) -> Pipeline:
    """(text, title) rows → masked text → n-grams and cue counts → logistic regression, classes balanced."""
    text = lazylibs.sklearn("feature_extraction.text")
    linear_model = lazylibs.sklearn("linear_model")
    pipeline = lazylibs.sklearn("pipeline")
    preprocessing = lazylibs.sklearn("preprocessing")

    features = pipeline.FeatureUnion(
        [
            ("words", text.TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True, token_pattern=_TFIDF_WORD)),
            ("cues", preprocessing.FunctionTransformer(_cue_matrix)),
        ]
    )
    classifier = linear_model.LogisticRegression(C=c, class_weight="balanced", max_iter=1000)
    return pipeline.Pipeline(
        [("mask", preprocessing.FunctionTransformer(_mask_rows)), ("features", features), ("classify", classifier)]
    )


# The types a saved model holds beyond those skops trusts by default (core.model_file builds no others).
MODEL_TYPES = (f"{__name__}._mask_rows", f"{__name__}._cue_matrix")


def train_image_stance(
    texts: Sequence[str], titles: Sequence[str], labels: Sequence[str], *, c: float = 1.0, folds: int = 5, seed: int = 0
) -> tuple[Pipeline, dict]:
    """The model fitted on all examples (labels PRO or CON), and its cross-validated macro-F1 next to the untrained
    scorer's on the same examples, so a report shows whether training helped.

    Folds shrink to the rarer label's count where needed. Raises ValueError for another label, fewer than two
    examples of either label, or fewer than two folds.
    """
    counts = Counter(labels)
    if set(counts) - {PRO, CON}:
        raise ValueError(f"labels {sorted(set(counts) - {PRO, CON})} are not PRO or CON")
    if folds < 2:
        raise ValueError(f"folds must be at least 2, got {folds}")
    fewest = min(counts[PRO], counts[CON])
    if fewest < 2:
        raise ValueError(
            f"need at least 2 PRO and 2 CON examples to train, got {counts[PRO]} PRO and {counts[CON]} CON"
        )
    model_selection = lazylibs.sklearn("model_selection")

    rows = list(zip(texts, titles, strict=True))
    k = min(folds, fewest)
    predicted = model_selection.cross_val_predict(
        _build_model(c),
        rows,
        list(labels),
        cv=model_selection.StratifiedKFold(n_splits=k, shuffle=True, random_state=seed),
    )
    untrained = np.where(lexicon_pro_probability(texts, titles) >= 0.5, PRO, CON)
    report = {
        "cv_macro_f1": _macro_f1(labels, predicted),
        "untrained_macro_f1": _macro_f1(labels, untrained),
        "folds": k,
        "examples": len(rows),
        "label_counts": {PRO: counts[PRO], CON: counts[CON]},
    }
    return _build_model(c).fit(rows, list(labels)), report


def _macro_f1(labels: Sequence[str], predicted: Sequence[str]) -> float:
    metrics = lazylibs.sklearn("metrics")

    score = float(metrics.f1_score(list(labels), list(predicted), labels=[PRO, CON], average="macro", zero_division=0))
    return score if math.isfinite(score) else 0.0


def pro_probability(model: Pipeline | None, texts: Sequence[str], titles: Sequence[str]) -> np.ndarray:
    """P(PRO) of each (text, topic title): the trained model's, or the untrained scorer's where `model` is None."""
    if model is None:
        return lexicon_pro_probability(texts, titles)
    rows = list(zip(texts, titles, strict=True))
    if not rows:
        return np.zeros(0)
    column = list(model.classes_).index(PRO)
    return model.predict_proba(rows)[:, column]


def training_examples(
    judged: Mapping[tuple[str, str], Mapping[str, int]], texts: Mapping[str, str], titles: Mapping[str, str]
) -> tuple[list[str], list[str], list[str], Counter]:
    """(texts, titles, labels, skipped) from judgments (topic, image) → stance → rating.

    An image rated 1 for exactly one stance is an example of that stance; one rated for both or neither says nothing
    about the difference. Pairs whose image is not in the collection or whose topic is not in the topics file are
    skipped too; `skipped` counts each reason.
    """
    examples: tuple[list[str], list[str], list[str]] = ([], [], [])
    skipped: Counter = Counter()
    for (topic, image), ratings in sorted(judged.items()):
        supports = [stance for stance in (PRO, CON) if ratings.get(stance) == 1]
        if len(supports) != 1:
            skipped["not exactly one stance"] += 1
        elif image not in texts:
            skipped["image not in the collection"] += 1
        elif topic not in titles:
            skipped["topic not in the topics file"] += 1
        else:
            for column, value in zip(examples, (texts[image], titles[topic], supports[0])):
                column.append(value)
    return (*examples, skipped)
