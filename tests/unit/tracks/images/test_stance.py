"""The image stance scorers: topic masking, cue counting, the untrained fallback and the trained model."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from argrank.tracks.images.stance import (
    CON,
    PRO,
    TOPIC_TOKEN,
    cue_counts,
    lexicon_pro_probability,
    mask_topic,
    pro_probability,
    train_image_stance,
    training_examples,
)

VOTING = "Should the voting age be lowered?"
CARS = "Should cities ban cars from their centres?"


def test_topic_words_and_their_inflections_are_masked_but_cues_are_not():
    masked = mask_topic("Lower the voting age! Voters support lowering it, it is good for the age group.", VOTING)
    assert masked.split().count(TOPIC_TOKEN) + masked.count(f"{TOPIC_TOKEN}!") >= 6
    assert "support" in masked and "good" in masked and "Voters" not in masked
    assert mask_topic("The city banned cars; car-free cities", CARS).lower().count(TOPIC_TOKEN) == 5
    # "good" is a cue even in a title that contains it: masking it would hide the stance of every page.
    assert "good" in mask_topic("social networks are good", "Are social networking sites good for our society?")


def test_cues_are_counted_per_sentence_and_negation_flips_them():
    assert cue_counts("we support this. it is not harmful") == Counter({"for": 1, "negated_against": 1})
    # A negation in an earlier sentence does not reach the cue.
    assert cue_counts("not this. dangerous") == Counter({"against": 1})


def test_untrained_scorer_reads_the_direction_of_the_cues():
    texts = [
        "Benefits: we support it, a great help",
        "Risks and dangers, a harmful idea",
        "A photo of a street",
        "It is not harmful",
    ]
    p = lexicon_pro_probability(texts, [CARS] * 4)
    assert p[0] > 0.9 and p[1] < 0.1 and p[2] == 0.5 and p[3] > 0.5
    assert np.array_equal(pro_probability(None, texts, [CARS] * 4), p)


PRO_TEXTS = [
    "yes, we support {t}: the benefits are great",
    "a big help, {t} improves lives",
    "why {t} is good and fair",
]
CON_TEXTS = ["no to {t}: the risks are real", "{t} harms people, a dangerous idea", "why {t} is a costly mistake"]


def _examples(topics: list[str]) -> tuple[list[str], list[str], list[str]]:
    texts, titles, labels = [], [], []
    for title in topics:
        subject = title.removeprefix("Should ").rstrip("?")
        for template, label in [*((t, PRO) for t in PRO_TEXTS), *((t, CON) for t in CON_TEXTS)]:
            texts.append(template.format(t=subject))
            titles.append(title)
            labels.append(label)
    return texts, titles, labels


def test_trained_model_learns_the_stance_and_transfers_to_a_new_topic():
    texts, titles, labels = _examples([CARS, VOTING, "Should homework be abolished?"])
    model, report = train_image_stance(texts, titles, labels, folds=3)
    assert report["examples"] == 18 and report["label_counts"] == {PRO: 9, CON: 9} and report["folds"] == 3
    assert 0.0 <= report["cv_macro_f1"] <= 1.0 and report["untrained_macro_f1"] > 0.5
    unseen = "Should zoos be closed?"
    p = pro_probability(
        model, ["we support zoos closed, the benefits are great", "zoos closed: the risks are real"], [unseen] * 2
    )
    assert p[0] > 0.5 > p[1]


def test_training_needs_both_stances_and_two_folds():
    with pytest.raises(ValueError, match="at least 2 PRO and 2 CON examples to train, got 2 PRO and 1 CON"):
        train_image_stance(["good", "great", "bad"], [CARS] * 3, [PRO, PRO, CON])
    with pytest.raises(ValueError, match="got 3 PRO and 0 CON"):
        train_image_stance(["good", "great", "fine"], [CARS] * 3, [PRO] * 3)
    with pytest.raises(ValueError, match="not PRO or CON"):
        train_image_stance(["a", "b"], [CARS] * 2, [PRO, "NEUTRAL"])
    texts, titles, labels = _examples([CARS])
    with pytest.raises(ValueError, match="folds must be at least 2, got 1"):
        train_image_stance(texts, titles, labels, folds=1)


def test_training_examples_keep_images_rated_for_exactly_one_stance():
    judged = {
        ("1", "Ia"): {PRO: 1, CON: 0},
        ("1", "Ib"): {PRO: 0, CON: 1},
        ("1", "Ic"): {PRO: 1, CON: 1},  # both: says nothing about the difference
        ("1", "Id"): {PRO: 0, CON: 0},
        ("1", "Ie"): {PRO: 1},  # not in the collection
        ("2", "Ia"): {CON: 1},  # topic unknown
    }
    texts, titles, labels, skipped = training_examples(
        judged, {"Ia": "ta", "Ib": "tb", "Ic": "tc", "Id": "td"}, {"1": CARS}
    )
    assert (texts, titles, labels) == (["ta", "tb"], [CARS, CARS], [PRO, CON])
    assert skipped == Counter(
        {"not exactly one stance": 2, "image not in the collection": 1, "topic not in the topics file": 1}
    )
