"""quality/benchmark.py: graded labels, correlations, the ceilings, JSON and text by hand; held-out predictions; a
3-topic run; nested folds whose choices never see their held-out topics' labels, and figures that agree with the
folds; repeated draws of the folds, each the benchmark of its seed."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import numpy as np
import pytest

from argrank.quality.benchmark import (
    DRAWN,
    MEASURE,
    NON_ARGUMENT_RELEVANCE,
    Benchmark,
    ceilings,
    correlations,
    format_benchmark,
    graded,
    quality_benchmark,
    topic_held_out,
)
from argrank.quality.data import QualitySet, queries_for, read_quality_set, read_quality_topics
from argrank.quality.features import word_counts
from argrank.quality.model import QualityPredictions
from argrank.quality.settings import DEFAULTS

DATA = Path(__file__).resolve().parents[3] / "data" / "quality"
A = math.sqrt(1.5)  # -A, 0, A: mean 0 and standard deviation 1, as a topic's standardised scores


def _set(topics, texts, quality, is_argument=None) -> QualitySet:
    n = len(topics)
    return QualitySet(
        topics=np.array(topics, dtype=np.int64),
        ids=np.array([f"{topic}/d/{i}" for i, topic in enumerate(topics)]),
        texts=list(texts),
        is_argument=np.ones(n, dtype=bool) if is_argument is None else np.array(is_argument, dtype=bool),
        quality=np.array(quality, dtype=float),
        relevance=np.zeros(n),
    )


@pytest.fixture(scope="module")
def sample() -> QualitySet:
    """Three of the embedded sample's six topics (16 premises each)."""
    examples = read_quality_set(DATA / "argquality-sample.csv")
    return examples.select(np.isin(examples.topics, [101, 102, 103]))


@pytest.fixture(scope="module")
def queries(sample) -> dict[int, str]:
    return queries_for(sample, read_quality_topics(DATA / "topics.csv"), DATA / "topics.csv")


def test_arguments_are_graded_0_1_2_at_their_topics_tertiles_and_the_rest_get_the_non_argument_label():
    examples = _set([1, 1, 1, 1, 1, 2, 2], ["t"] * 7, [0] * 7, is_argument=[1, 1, 1, 1, 0, 0, 0])
    scores = np.array([0.1, 0.2, 0.3, 0.4, 9.9, 5.0, 6.0])
    # Topic 1's arguments: tertiles of 0.1..0.4 at 0.2 and 0.3; a score on a cut goes up.
    assert graded(examples, scores, NON_ARGUMENT_RELEVANCE) == {
        "1": {"1/d/0": 0, "1/d/1": 1, "1/d/2": 2, "1/d/3": 2, "1/d/4": -2},
        "2": {"2/d/5": -2, "2/d/6": -2},
    }
    assert set(graded(examples, scores, 0)["2"].values()) == {0}


def test_grading_is_per_topic_so_an_offset_between_topics_changes_nothing():
    examples = _set([1, 1, 1, 2, 2, 2], ["t"] * 6, [0] * 6)
    scores = np.array([1.0, 2.0, 3.0, 101.0, 102.0, 103.0])
    labels = graded(examples, scores, 0)
    assert list(labels["1"].values()) == list(labels["2"].values()) == [0, 1, 2]


def test_correlations_by_hand_pooled_after_standardising_raw_and_per_topic():
    texts = ["a b c", "a", "a b", "a", "a b", "a b c"]  # length: against quality in topic 1, with it in topic 2
    examples = _set([1, 1, 1, 2, 2, 2], texts, [-A, 0, A, -A, 0, A])
    predicted = np.array([1.0, 2.0, 3.0, 101.0, 102.0, 103.0])  # the right order in each topic, on another level
    figures = correlations(examples, predicted)
    assert figures["spearman"] == pytest.approx(1.0) and figures["kendall"] == pytest.approx(1.0)
    assert figures["spearman_raw"] < 0.9  # pooled raw, topic 2's level puts all of it above topic 1
    assert figures["spearman_per_topic"] == pytest.approx({"1": 1.0, "2": 1.0})
    # Topic 1's lengths rank 3, 1, 2 against 1, 2, 3: Spearman 1 − 6 · (4 + 1 + 1) / (3 · 8) = −0.5.
    assert figures["length_spearman_per_topic"] == pytest.approx({"1": -0.5, "2": 1.0})
    assert figures["topics_above_length"] == 1  # topic 2 is a tie, not a win


def test_a_predictor_in_the_wrong_order_has_a_correlation_of_minus_one():
    examples = _set([1, 1, 1, 2, 2, 2], ["a", "a b", "a b c"] * 2, [-A, 0, A, -A, 0, A])
    figures = correlations(examples, np.array([3.0, 2.0, 1.0, 103.0, 102.0, 101.0]))
    assert figures["spearman"] == pytest.approx(-1.0) and figures["kendall"] == pytest.approx(-1.0)


def test_each_ceiling_makes_one_part_perfect_and_keeps_the_other_as_predicted():
    # Per topic: two arguments (qualities -1 and 1) and a non-argument (-4, the floor).
    examples = _set([1, 1, 1, 2, 2, 2], ["t"] * 6, [-1, 1, -4] * 2, is_argument=[1, 1, 0] * 2)
    floor = np.full(6, -4.0)
    as_argument = np.array([1.0, -1.0, 0.0] * 2)  # the quality part has the arguments the wrong way round
    argument = np.array([0.9, 0.9, 0.95] * 2)  # and the classifier takes the non-argument for the likeliest argument
    predicted = QualityPredictions(argument * as_argument + (1 - argument) * floor, argument, np.ones(6), as_argument)
    found = ceilings(examples, predicted, floor)
    # With the true flag: the non-argument at the floor, the arguments still the wrong way round.
    assert found["true_argument_flag"] == pytest.approx(correlations(examples, np.array([1.0, -1.0, -4.0] * 2),
                                                                     with_length=False)["spearman"])  # fmt: skip
    # With the true quality: 0.9 · ∓1 + 0.1 · (−4) for the arguments, 0.95 · 0 + 0.05 · (−4) for the other.
    expected = np.array([-1.3, 0.5, -0.2] * 2)
    assert found["true_quality"] == pytest.approx(correlations(examples, expected, with_length=False)["spearman"])
    assert correlations(examples, predicted.quality, with_length=False)["spearman"] < found["true_argument_flag"] < 0.9
    # A model already right in a part gains nothing from its ceiling.
    exact = QualityPredictions(examples.is_argument * as_argument + (1 - examples.is_argument) * floor,
                               examples.is_argument.astype(float), np.ones(6), as_argument)  # fmt: skip
    assert ceilings(examples, exact, floor)["true_argument_flag"] == pytest.approx(
        correlations(examples, exact.quality, with_length=False)["spearman"])


NDCG = {
    "bm25": {"relevance": {"1": 0.5, "2": 0.25, "10": 0.0}, "quality": {"1": 0.5, "2": 0.5, "10": 0.5}},
    "reranked": {"relevance": {"1": 1.0, "2": 0.5, "10": 0.0}, "quality": {"1": 0.5, "2": 0.75, "10": 0.25}},
}
CORRELATIONS = {
    "spearman": 0.5, "kendall": 0.4, "spearman_raw": 0.3, "spearman_per_topic": {"1": 0.5, "2": 0.25, "10": 0.0},
    "length_spearman": 0.2, "length_kendall": 0.1, "length_spearman_raw": 0.05,
    "length_spearman_per_topic": {"1": 0.25, "2": 0.5, "10": -0.25}, "topics_above_length": 2,
}  # fmt: skip


def test_the_json_has_the_headline_means_the_tests_and_everything_per_topic():
    data = Benchmark(CORRELATIONS, NDCG, dict(DEFAULTS), 30).to_json()
    assert data["relevance_nDCG@5"] == pytest.approx(0.5) and data["quality_nDCG@5"] == pytest.approx(0.5)
    assert data["bm25_relevance_nDCG@5"] == pytest.approx(0.25) and data["bm25_quality_nDCG@5"] == pytest.approx(0.5)
    assert (data["spearman"], data["kendall"], data["length_spearman"], data["length_kendall"]) == (0.5, 0.4, 0.2, 0.1)
    assert set(data["paired_tests"]) == {"relevance", "quality"}
    assert set(data["paired_tests"]["relevance"]) == {"p_t", "p_wilcoxon"}
    assert (data["topics"], data["premises"], data["settings"]) == (3, 30, DEFAULTS)
    assert data["per_topic_nDCG@5"] == NDCG and data["correlations"] == CORRELATIONS
    assert MEASURE == "nDCG@5"


def test_the_text_has_both_tables_and_the_settings():
    text = format_benchmark(Benchmark(CORRELATIONS, NDCG, {"weight": 0.25, "depth": 50}, 30))
    lines = text.split("\n")
    assert lines[0] == "30 premises, 3 topics, each held out in turn"
    assert lines[3].split() == ["quality", "model", "0.5000", "0.4000", "0.3000", "0.2500"]
    assert lines[4].split() == ["length", "(words)", "0.2000", "0.1000", "0.0500", "0.1667"]
    assert "the model beats length on 2 of 3 topics" in lines
    assert "re-ranking (weight 0.25, depth 50), mean over 3 topics" in lines
    assert lines[-3].split() == ["BM25", "0.2500", "0.5000"]
    assert lines[-2].split()[:6] == ["BM25", "+", "quality", "re-ranking", "0.5000", "0.5000"]
    assert lines[-1].startswith("p (t-test / Wilcoxon)")


def test_held_out_predictions_never_see_their_own_topic(sample):
    predicted = topic_held_out(sample)
    assert len(predicted.quality) == len(sample) and np.array_equal(predicted.words, word_counts(sample.texts))
    own = sample.topics == 101
    relabelled = dataclasses.replace(sample, quality=np.where(own, -sample.quality, sample.quality))
    again = topic_held_out(relabelled)
    assert np.array_equal(again.quality[own], predicted.quality[own])  # topic 101's labels: only its models'
    assert not np.array_equal(again.quality[~own], predicted.quality[~own])  # which scored the other topics


@pytest.fixture(scope="module")
def everything() -> QualitySet:
    return read_quality_set(DATA / "argquality-sample.csv")


@pytest.fixture(scope="module")
def all_queries(everything) -> dict[int, str]:
    return queries_for(everything, read_quality_topics(DATA / "topics.csv"), DATA / "topics.csv")


def test_flipping_one_outer_folds_held_out_labels_changes_no_choice_made_for_it(everything, all_queries):
    first = quality_benchmark(everything, all_queries, folds=3).folds
    for number, fold in enumerate(first):
        held = np.isin(everything.topics.astype(str), fold["topics"])
        flipped = dataclasses.replace(everything, quality=np.where(held, -everything.quality, everything.quality),
                                      relevance=np.where(held, -everything.relevance, everything.relevance))
        again = quality_benchmark(flipped, all_queries, folds=3).folds[number]
        for key in ("topics", "alpha", "inner_spearman", "weight", "inner_quality_nDCG@5", "inner_relevance_nDCG@5"):
            assert again[key] == fold[key], key
        assert again["held_out_spearman"] != fold["held_out_spearman"]


def test_the_nested_figures_agree_with_the_folds(everything, all_queries):
    result = quality_benchmark(everything, all_queries, folds=3)
    data = result.to_json()
    assert sorted(t for fold in result.folds for t in fold["topics"]) == sorted(data["per_topic_nDCG@5"]["bm25"]
                                                                                ["quality"])  # fmt: skip
    assert data["spearman_inner"] == pytest.approx(np.mean([fold["inner_spearman"] for fold in result.folds]))
    held = [fold["held_out_spearman"] for fold in result.folds]
    assert data["spearman_spread"] == pytest.approx({"sd": np.std(held, ddof=1), "min": min(held), "max": max(held)})
    by_fold = [fold["held_out_quality_nDCG@5"] for fold in result.folds]
    assert data["quality_nDCG@5_spread"]["max"] == pytest.approx(max(by_fold))
    assert "weight" not in data["settings"]
    assert format_benchmark(result).splitlines()[-1].startswith("fold 3 (topics ")
    found = data["correlations"]["ceilings"]
    assert set(found) == {"true_argument_flag", "true_quality"} and all(-1 <= v <= 1 for v in found.values())
    assert f"true argument flag in place of P(argument) {found['true_argument_flag']:.4f}" in format_benchmark(result)


def test_the_benchmark_on_three_embedded_topics(sample, queries):
    result = quality_benchmark(sample, queries, {"weight": 0.0})
    data = result.to_json()
    assert (data["premises"], data["topics"]) == (48, 3)
    assert data["settings"] == {**DEFAULTS, "weight": 0.0}
    assert set(result.ndcg["bm25"]["relevance"]) == {"101", "102", "103"}
    # Weight 0 keeps the retrieval order, so the re-ranking scores what BM25 scores.
    assert result.ndcg["reranked"] == result.ndcg["bm25"]
    assert all(0.0 <= v <= 1.0 for by in result.ndcg.values() for scores in by.values() for v in scores.values())
    assert -1.0 <= data["spearman"] <= 1.0 and len(data["correlations"]["spearman_per_topic"]) == 3


def test_repeated_draws_are_each_the_benchmark_of_their_seed_and_keep_the_first_as_headline(everything, all_queries):
    single = quality_benchmark(everything, all_queries, folds=3, seed=1)
    repeated = quality_benchmark(everything, all_queries, folds=3, seed=1, repeats=2)
    data = repeated.to_json()
    assert {key: value for key, value in data.items() if key != "cv_repeats"} == single.to_json()
    other = quality_benchmark(everything, all_queries, folds=3, seed=2).to_json()
    draws = data["cv_repeats"]
    assert draws["seeds"] == [1, 2]
    for name in DRAWN:
        assert draws[name] == [single.to_json()[name], other[name]]
        assert draws[f"mean_{name}"] == pytest.approx((single.to_json()[name] + other[name]) / 2)
    assert "cv_repeats" not in single.to_json()
    assert "over 2 draws of the folds (seeds 1 to 2): Spearman mean " in format_benchmark(repeated)
    with pytest.raises(ValueError, match="repeats must be at least 1, got 0"):
        quality_benchmark(everything, all_queries, folds=3, repeats=0)
