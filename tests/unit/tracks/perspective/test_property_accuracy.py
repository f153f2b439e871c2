"""The implicit scenario's accuracy and calibration figures, on answers small enough to work out by hand."""

from __future__ import annotations

import numpy as np
import pytest

from argrank.tracks.perspective.property_accuracy import ALL, PropertyAccuracy, expected_calibration_error
from argrank.tracks.perspective.training import Training


def test_calibration_error_is_the_weighted_gap_per_bin():
    # Bin 0.8–0.9: predicted 0.85 twice, one of two has it (gap 0.35, weight 1/2); bin 0.1–0.2: 0.15 twice, none
    # has it (gap 0.15, weight 1/2).
    probability = np.array([0.85, 0.85, 0.15, 0.15])
    assert expected_calibration_error(probability, np.array([1, 0, 0, 0])) == pytest.approx(0.5 * 0.35 + 0.5 * 0.15)
    assert expected_calibration_error(np.array([1.0, 0.0]), np.array([1, 0])) == 0.0  # 1.0 falls in the last bin


def test_figures_pool_values_of_a_key_and_count_a_value_without_model_as_chance():
    held_out = Training(
        [], {("gender", "f"): (np.array([0, 1]), np.array([2, 3])), ("age_bin", "65+"): (np.array([4]), np.array([5]))}
    )
    guesses = {("gender", "f"): np.array([0.9, 0.6, 0.4, 0.1, 0.0, 0.0])}  # age_bin has no model
    accuracy = PropertyAccuracy()
    accuracy.add(lambda key, value: guesses.get((key, value)), held_out)
    table = accuracy.table()
    assert list(table) == ["age_bin", "gender", ALL]
    assert table["gender"]["auc"] == 1.0 and table["gender"]["accuracy"] == 1.0
    assert table["gender"]["brier"] == pytest.approx((0.1**2 + 0.4**2 + 0.4**2 + 0.1**2) / 4)
    assert table["age_bin"]["auc"] == 0.5 and table["age_bin"]["base_rate"] == 0.5
    assert table[ALL]["examples"] == 6
