"""Our runs among a year's participants: ranked by the first measure with t intervals, every measure shown, each of
ours tested against each of theirs on each measure; as text, CSV rows and a paper's table, with one mark per meaning."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from argrank.evaluation.comparison import Significance
from argrank.evaluation.in_sample import MARK
from argrank.evaluation.names import SIGNIFICANT
from argrank.evaluation.significance import corrected, paired_p_value
from argrank.evaluation.standings import (
    STANDINGS_COLUMNS,
    format_standings,
    standings,
    standings_latex,
    standings_markdown,
    standings_rows,
)

TOPICS = "12345678"
SCORES = {
    "alpha": [0.9, 0.8, 0.7, 0.9, 0.8, 0.6, 0.9, 0.7],
    "beta": [0.5, 0.4, 0.6, 0.5, 0.3, 0.4, 0.6, 0.5],
    "mine": [0.7, 0.6, 0.6, 0.8, 0.5, 0.5, 0.7, 0.6],
    "gamma": [0.2, 0.3, 0.1, 0.2, 0.4, 0.1, 0.2, 0.3],
}
PER_TOPIC = {run: {t: {"nDCG@5": v[i]} for i, t in enumerate(TOPICS)} for run, v in SCORES.items()}
P5 = {  # a second measure on which the order differs: gamma is best, alpha and mine tie on every topic
    "alpha": [0.4, 0.6, 0.2, 0.4, 0.6, 0.4, 0.2, 0.6],
    "beta": [0.2, 0.2, 0.4, 0.2, 0.0, 0.2, 0.4, 0.2],
    "mine": [0.4, 0.6, 0.2, 0.4, 0.6, 0.4, 0.2, 0.6],
    "gamma": [0.8, 0.8, 0.6, 1.0, 0.8, 0.6, 0.8, 1.0],
}
BOTH = {run: {t: {**PER_TOPIC[run][t], "P@5": P5[run][i]} for i, t in enumerate(TOPICS)} for run in SCORES}


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
    assert "mine (ours)" in text and "mine vs it (p)" in text and "4 runs ranked by nDCG@5 over 8 topics" in text
    assert "paired t-test, each run of ours against every participant's run, p-values Holm-corrected per measure " \
           "over the participants' runs; alpha 0.05" in text  # fmt: skip
    assert MARK not in text  # * marks in-sample figures only: ours is said in words, significance by a dagger
    alpha_line = next(line for line in text.splitlines() if line.split()[1:2] == ["alpha"])
    assert alpha_line.endswith(f"-0.1625 ({alpha['p_corrected']:.4f}) {SIGNIFICANT}")


def test_every_measure_is_shown_and_tested_ranked_by_the_first():
    result = standings("args", "r", BOTH, ["mine"], ["nDCG@5", "P@5"], pooled={"mine": {"stance_f1": 0.3},
                                                                                "alpha": {"stance_f1": None}})
    assert result.measures == ["nDCG@5", "P@5", "stance_f1"] and result.measure == "nDCG@5"
    assert [row["run"] for row in result.rows] == ["alpha", "mine", "beta", "gamma"]  # by nDCG@5, not P@5
    raw = [paired_p_value(np.array(P5[t]), np.array(P5["mine"])) for t in ("alpha", "beta", "gamma")]
    adjusted = dict(zip(("alpha", "beta", "gamma"), corrected(raw)))  # Holm per measure over the participants
    for row in result.rows:
        p5 = row["by_measure"]["P@5"]
        assert p5["mean"] == pytest.approx(np.mean(P5[row["run"]]))
        assert row["by_measure"]["nDCG@5"]["mean"] == row["mean"]  # the ranking measure's figures stay at the top
        if not row["ours"]:
            entry = p5["against"]["mine"]
            assert entry["p_corrected"] == (None if adjusted[row["run"]] is None else
                                            pytest.approx(adjusted[row["run"]]))  # fmt: skip
    rows = {row["run"]: row for row in result.rows}
    assert rows["alpha"]["by_measure"]["P@5"]["against"]["mine"]["identical"]
    assert rows["mine"]["by_measure"]["stance_f1"] == {"mean": 0.3} and "stance_f1" not in rows["beta"]["by_measure"]
    text = format_standings(result)
    header = text.splitlines()[2].split("  ")
    assert [cell.strip() for cell in header if cell.strip()] == [
        "rank", "run", "nDCG@5", "95% interval", "P@5", "stance_f1", "mine vs it, nDCG@5 (p)", "mine vs it, P@5 (p)"]
    gamma = next(line for line in text.splitlines() if " gamma " in line)
    p5 = rows["gamma"]["by_measure"]["P@5"]["against"]["mine"]
    assert gamma.endswith(f"-0.3750 ({p5['p_corrected']:.4f}) {SIGNIFICANT}")
    assert result.to_json()["measures"] == ["nDCG@5", "P@5", "stance_f1"]


def test_tukey_is_named_and_recorded_as_tukeys_hsd_not_as_a_correction():
    result = standings("args", "r", PER_TOPIC, ["mine"], "nDCG@5", Significance(test="tukey"))
    assert result.to_json()["correction"] == "tukey-hsd"
    text = format_standings(result)
    assert "Tukey's HSD, adjusted for all pairs" in text and "holm" not in text.lower()
    assert "Tukey's HSD, adjusted for all pairs" in standings_markdown(result)


def test_the_standings_as_a_paper_table_and_as_csv():
    result = standings("args", "relevance", BOTH, ["mine"], ["nDCG@5", "P@5"])
    markdown = standings_markdown(result, decimals=3)
    assert markdown.startswith("Table: Runs ranked by nDCG@5: mean over 8 topics with its 95% confidence interval")
    assert "relevance" not in markdown.splitlines()[0] and "(ours) marks our runs" in markdown
    assert "| 2 | mine (ours) | 0.625 | \\[0.538, 0.712\\] | 0.425 |  |  |" in markdown
    # Bold: the best P@5, gamma's; a dagger: our significant differences from it.
    assert "| 4 | gamma | 0.225 | \\[0.138, 0.312\\] | **0.800** | +0.400 (0.001) † | -0.375 (0.001) † |" in \
           markdown  # fmt: skip
    latex = standings_latex(result, "tab:p")
    assert r"1 & alpha & \textbf{0.7875} & [0.6934, 0.8816] & 0.4250 & " in latex and r"\dag{}" in latex
    assert r"\label{tab:p}" in latex and "&" not in latex.splitlines()[2].replace(r"\&", "")
    rows = standings_rows(result)
    assert len(rows) == 4 * 2 and set(rows[0]) == set(STANDINGS_COLUMNS)
    gamma = next(row for row in rows if row["run"] == "gamma" and row["measure"] == "P@5")
    assert (gamma["against"], gamma["mean"]) == ("mine", pytest.approx(0.8)) and isinstance(gamma["p"], float)
    mine = next(row for row in rows if row["run"] == "mine" and row["measure"] == "nDCG@5")
    assert mine["ours"] and mine["against"] is None and mine["difference"] is None


def test_a_run_named_with_a_newline_cannot_go_into_the_paper_table():
    result = standings("args", "r", {"two\nlines" if t == "beta" else t: v for t, v in PER_TOPIC.items()}, ["mine"],
                       "nDCG@5")  # fmt: skip
    for write in (standings_latex, standings_markdown):
        with pytest.raises(ValueError, match=r"'two\\nlines' holds a newline"):
            write(result)


def test_several_runs_of_ours_and_the_randomization_test():
    result = standings("args", "r", PER_TOPIC, ["mine", "beta"], "nDCG@5", Significance(test="fisher", seed=2))
    assert set(result.rows[0]["against"]) == {"mine", "beta"}
    assert result.to_json()["test"] == "fisher" and result.to_json()["ours"] == ["mine", "beta"]


def test_standings_need_our_runs_and_a_participant():
    with pytest.raises(ValueError, match="no run tagged nope"):
        standings("args", "r", PER_TOPIC, ["nope"], "nDCG@5")
    with pytest.raises(ValueError, match="no participant"):
        standings("args", "r", PER_TOPIC, list(PER_TOPIC), "nDCG@5")
