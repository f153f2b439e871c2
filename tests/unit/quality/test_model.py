"""The quality model on the embedded sample: it orders what it has not seen sensibly, saves and loads without
running code, and refuses training sets it cannot learn from."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from argrank.core.errors import InputError
from argrank.core.model_file import QUALITY, load_model, save_model
from argrank.quality.data import read_quality_set
from argrank.quality.features import FEATURES, text_features
from argrank.quality.model import MODEL_TYPES, predict_quality, train_quality_model

SAMPLE = Path(__file__).resolve().parents[3] / "data" / "quality" / "argquality-sample.csv"


@pytest.fixture(scope="module")
def examples():
    return read_quality_set(SAMPLE)


@pytest.fixture(scope="module")
def model(examples):
    return train_quality_model(examples.select(examples.topics != 103))  # plastic bags held out


def test_a_held_out_topic_is_ordered_by_how_developed_its_premises_are(examples, model):
    held = examples.select(examples.topics == 103)
    predicted = predict_quality(model, held.texts)
    from scipy.stats import spearmanr

    assert spearmanr(predicted.quality, held.quality)[0] > 0.8
    assert predicted.argument[held.is_argument].mean() > predicted.argument[~held.is_argument].mean()
    # Every non-argument below every developed argument (the longest, best scored ones).
    developed = held.quality > 1.0
    assert predicted.quality[~held.is_argument].max() < predicted.quality[developed].min()
    assert np.array_equal(predicted.words, text_features(held.texts)[:, FEATURES.index("words")])
    # The expectation of the quality part's prediction, and of the non-arguments' score.
    mixed = predicted.argument * predicted.as_argument + (1 - predicted.argument) * model["floor"]
    assert predicted.quality == pytest.approx(mixed) and model["floor"] == pytest.approx(-4.0)


def test_predictions_are_deterministic_and_survive_the_model_file(examples, model, tmp_path):
    again = train_quality_model(examples.select(examples.topics != 103))
    texts = examples.texts[:10]
    assert predict_quality(again, texts).quality.tobytes() == predict_quality(model, texts).quality.tobytes()
    save_model(model, tmp_path / "model.zip", QUALITY)
    loaded = load_model(tmp_path / "model.zip", MODEL_TYPES, QUALITY)
    assert predict_quality(loaded, texts).quality.tobytes() == predict_quality(model, texts).quality.tobytes()
    with pytest.raises(InputError, match="not a stance model"):
        load_model(tmp_path / "model.zip", MODEL_TYPES)  # the stance tasks' kind
    assert len(predict_quality(model, []).quality) == 0


def test_a_set_without_both_kinds_of_premise_is_refused(examples):
    with pytest.raises(ValueError, match="both arguments and premises that are none"):
        train_quality_model(examples.select(examples.is_argument))
