"""Our runs among a year's participants: ranked by a measure with t intervals, each of ours tested against each
of theirs."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from argrank.evaluation.comparison import Significance
from argrank.evaluation.significance import corrected, paired_p_value
from argrank.evaluation.standings import format_standings, standings

TOPICS = "12345678"
SCORES = {
    "alpha": [0.9, 0.8, 0.7, 0.9, 0.8, 0.6, 0.9, 0.7],
    "beta": [0.5, 0.4, 0.6, 0.5, 0.3, 0.4, 0.6, 0.5],
    "mine": [0.7, 0.6, 0.6, 0.8, 0.5, 0.5, 0.7, 0.6],
    "gamma": [0.2, 0.3, 0.1, 0.2, 0.4, 0.1, 0.2, 0.3],
}
PER_TOPIC = {run: {t: {"nDCG@5": v[i]} for i, t in enumerate(TOPICS)} for run, v in SCORES.items()}


def test_runs_are_ranked_by_their_mean_with_a_t_interval_and_ours_marked():
    result = standings("args", "relevance", PER_TOPIC, ["mine"], "nDCG@5")
    assert [row["run"] for row in result.rows] == ["alpha", "mine", "beta", "gamma"]
    assert [row["rank"] for row in result.rows] == [1, 2, 3, 4]
    mine = result.rows[1]
    assert mine["ours"] and "against" not in mine
    scores = np.array(SCORES["mine"])
    low, high = stats.t.interval(0.95, 7, loc=scores.mean(), scale=stats.sem(scores))
    assert (mine["ci_low"], mine["ci_high"]) == (pytest.approx(low), pytest.approx(high))


def test_ours_is_tested_against_every_participant_holm_corrected_from_our_side():
    result = standings("args", "relevance", PER_TOPIC, ["mine"], "nDCG@5")
    raw = [paired_p_value(np.array(SCORES[t]), np.array(SCORES["mine"])) for t in ("alpha", "beta", "gamma")]
    adjusted = dict(zip(("alpha", "beta", "gamma"), corrected(raw)))
    for row in result.rows:
        if row["ours"]:
            continue
        entry = row["against"]["mine"]
        assert entry["difference"] == pytest.approx(np.mean(SCORES["mine"]) - np.mean(SCORES[row["run"]]))
        assert entry["p_corrected"] == pytest.approx(adjusted[row["run"]])
        wins = sum(m > t for m, t in zip(SCORES["mine"], SCORES[row["run"]]))
        assert entry["wins"] == wins  # our wins over their run
    alpha = result.rows[0]["against"]["mine"]
    assert alpha["difference"] < 0 and alpha["reject"]  # significantly below the run ranked above ours
    text = format_standings(result)
    assert "* mine" in text and "mine vs it (p)" in text and "4 runs ranked by nDCG@5 over 8 topics" in text


def test_several_runs_of_ours_and_the_randomization_test():
    result = standings("args", "r", PER_TOPIC, ["mine", "beta"], "nDCG@5", Significance(test="fisher", seed=2))
    assert set(result.rows[0]["against"]) == {"mine", "beta"}
    assert result.to_json()["test"] == "fisher" and result.to_json()["ours"] == ["mine", "beta"]


def test_standings_need_our_runs_and_a_participant():
    with pytest.raises(ValueError, match="no run tagged nope"):
        standings("args", "r", PER_TOPIC, ["nope"], "nDCG@5")
    with pytest.raises(ValueError, match="no participant"):
        standings("args", "r", PER_TOPIC, list(PER_TOPIC), "nDCG@5")
