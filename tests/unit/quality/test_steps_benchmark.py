"""quality.steps_benchmark: folds deal every topic once, a fold's setting is chosen (and its ltr configuration
chosen in inner folds, its model learnt) on the other folds' topics only, judgments of a fold's own topics change
nothing chosen for it, the report's inner, outer and spread figures are those of its folds, and repeated draws of
the folds are each the benchmark of their seed."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from argrank.evaluation.fusion_tuning import folds as _folds
from argrank.index.build import build_index
from argrank.quality.benchmark import NON_ARGUMENT_RELEVANCE, graded
from argrank.quality.data import queries_for, read_quality_set, read_quality_topics
from argrank.quality.steps_benchmark import (
    BM25_ALONE, DEPTH, GRIDS, MODELS, WEIGHTS, StepsBenchmark, _learnt, cross_validated, format_steps_benchmark,
    ltr_candidates, steps_benchmark,
)  # fmt: skip
from argrank.retrieval.queries import QUERY_SCHEMA
from argrank.retrieval.registry import make_ranker
from argrank.retrieval.search import rank_queries
from argrank.text.multilingual import make_analyzer

DATA = Path(__file__).resolve().parents[3] / "data" / "quality"
CONFIGURATIONS = [BM25_ALONE, *({**model, "weight": weight} for model in MODELS for weight in WEIGHTS)]


@pytest.fixture(scope="module")
def sample():
    examples = read_quality_set(DATA / "argquality-sample.csv")
    return examples, queries_for(examples, read_quality_topics(DATA / "topics.csv"), DATA / "topics.csv")


@pytest.fixture(scope="module")
def result(sample):
    return steps_benchmark(*sample, folds=3, seed=0)


def test_folds_deal_each_topic_once_and_follow_the_seed():
    topics = [str(t) for t in range(1, 21)]
    groups = _folds(topics, 5, seed=0)
    assert sorted(t for group in groups for t in group) == sorted(topics) and len(groups) == 5
    assert _folds(topics, 5, seed=0) == groups and _folds(topics, 5, seed=1) != groups
    assert len(_folds(topics[:3], 5, seed=0)) == 3  # no empty fold


def test_a_fold_never_chooses_on_its_own_topics():
    """Setting "b" is far better on topic 3 alone, "a" better on the others: topic 3's fold takes "a", and the
    folds of the other topics take whichever wins on the rest, topic 3 included."""
    per_setting = {("a",): {"1": 0.6, "2": 0.6, "3": 0.0}, ("b",): {"1": 0.5, "2": 0.5, "3": 1.0}}
    scores, chosen = cross_validated(per_setting, [["1"], ["2"], ["3"]], ["name"])
    assert [fold["setting"] for fold in chosen] == [{"name": "b"}, {"name": "b"}, {"name": "a"}]
    assert scores == {"1": 0.5, "2": 0.5, "3": 0.0}
    assert [fold["training_mean"] for fold in chosen] == pytest.approx([0.75, 0.75, 0.6])
    assert [fold["inner_mean"] for fold in chosen] == [fold["training_mean"] for fold in chosen]
    assert [fold["held_out_mean"] for fold in chosen] == [0.5, 0.5, 0.0]


def test_the_benchmark_scores_every_topic_under_a_setting_of_its_grid(sample, result):
    data = result.to_json()
    topics = {str(topic) for topic in sample[1]}
    assert set(data["bm25_per_topic"]) == topics and set(data["steps"]) == set(GRIDS) | {"ltr"}
    for name, figures in data["steps"].items():
        assert set(figures["per_topic"]) == topics and len(figures["folds"]) == 3
        assert figures["wins"] + figures["ties"] + figures["losses"] == len(topics)
        for fold in figures["folds"]:
            assert all(fold["setting"][key] in values for key, values in GRIDS.get(name, {}).items())
    assert all(fold["setting"] in CONFIGURATIONS for fold in data["steps"]["ltr"]["folds"])


def test_inner_outer_and_spread_are_those_of_the_folds(result):
    """The outer figure is the mean of the held-out scores, each fold's held-out mean that of its topics', the
    inner figure the mean of the folds' inner means, and the spread that of the folds' held-out means; in text too."""
    data = result.to_json()
    for name, figures in data["steps"].items():
        folds = figures["folds"]
        assert figures["nDCG@5"] == pytest.approx(np.mean(list(figures["per_topic"].values())))
        for fold in folds:
            assert fold["held_out_mean"] == pytest.approx(np.mean([figures["per_topic"][t] for t in fold["topics"]]))
        means = [fold["held_out_mean"] for fold in folds]
        assert figures["cv_inner_mean"] == pytest.approx(np.mean([fold["inner_mean"] for fold in folds]))
        assert figures["cv_spread"] == pytest.approx({"sd": np.std(means, ddof=1), "min": min(means),
                                                      "max": max(means)})  # fmt: skip
        row = next(line for line in format_steps_benchmark(result).splitlines() if line.startswith(f"BM25 + {name} "))
        assert row.split()[3:8] == [f"{figures['nDCG@5']:.4f}", f"{figures['cv_inner_mean']:.4f}",
                                    *(f"{figures['cv_spread'][key]:.4f}" for key in ("sd", "min", "max"))]  # fmt: skip
    bm25_means = [np.mean([data["bm25_per_topic"][t] for t in fold["topics"]]) for fold in folds]
    assert data["bm25_cv_spread"]["min"] == pytest.approx(min(bm25_means))


def test_the_ltr_inner_figure_is_the_best_configurations(result):
    """BM25 alone is a configuration that learns nothing, so its inner figure is BM25's mean on the training topics
    (each held out once per shuffle): an ltr fold's inner figure is at least that, and equal where BM25 alone won."""
    data = result.to_json()
    for fold in data["steps"]["ltr"]["folds"]:
        training = [t for t in data["bm25_per_topic"] if t not in fold["topics"]]
        bm25 = np.mean([data["bm25_per_topic"][t] for t in training])
        assert fold["inner_mean"] >= bm25 - 1e-12
        assert (fold["setting"] == BM25_ALONE) == (fold["inner_mean"] == pytest.approx(bm25, abs=1e-12))


@pytest.mark.parametrize("flipped", range(3))
def test_flipping_a_folds_own_judgments_changes_nothing_chosen_for_it(sample, result, flipped):
    """The relevance of one outer fold's topics reversed (their best arguments judged worst): every step makes the
    same choice for that fold, with the same inner and training figures, while its held-out scores change."""
    examples, queries = sample
    before = result.to_json()
    topics = before["steps"]["ltr"]["folds"][flipped]["topics"]
    held = np.isin(examples.topics.astype(str), topics)
    after = steps_benchmark(replace(examples, relevance=np.where(held, -examples.relevance, examples.relevance)),
                            queries, folds=3, seed=0).to_json()  # fmt: skip
    assert any(after["bm25_per_topic"][t] != before["bm25_per_topic"][t] for t in topics)  # the flip took effect
    for name in before["steps"]:
        kept, now = before["steps"][name]["folds"][flipped], after["steps"][name]["folds"][flipped]
        assert now["topics"] == topics
        assert (now["setting"], now["inner_mean"], now["training_mean"]) == (
            kept["setting"], kept["inner_mean"], kept["training_mean"])
        others = [k for k in range(3) if k != flipped]  # their training topics hold the flipped ones: they see it
        assert any(after["steps"][name]["folds"][k]["inner_mean"] != before["steps"][name]["folds"][k]["inner_mean"]
                   for k in others)  # fmt: skip


def test_an_ltr_fold_never_learns_from_its_own_topics():
    """Topic A's judgments changed: the other topic of A's fold keeps its held-out score (its model never saw A)."""
    examples = read_quality_set(DATA / "argquality-sample.csv")
    queries = queries_for(examples, read_quality_topics(DATA / "topics.csv"), DATA / "topics.csv")
    index, analyzer, first, qrels = _first(examples, queries)
    groups = [["101", "102"], ["103", "104"], ["105", "106"]]
    before, chosen = _learnt(ltr_candidates(examples, queries, index, analyzer, first, qrels), first, qrels, groups)
    flipped = {**qrels, "101": {doc: 2 - label if label >= 0 else label for doc, label in qrels["101"].items()}}
    after, again = _learnt(ltr_candidates(examples, queries, index, analyzer, first, flipped), first, flipped, groups)
    assert after["102"] == before["102"] and again[0] == {**chosen[0], "held_out_mean": again[0]["held_out_mean"]}
    assert any(after[t] != before[t] for t in ("103", "104", "105", "106")) or again[1:] != chosen[1:]


def test_the_report_is_the_same_every_time(sample, result):
    assert steps_benchmark(*sample, folds=3, seed=0).to_json() == result.to_json()
    assert isinstance(result, StepsBenchmark)


def _first(examples, queries):
    analyzer = make_analyzer("en")
    index = build_index(pa.array(list(examples.ids), pa.string()), analyzer.analyze_many(list(examples.texts)))
    table = pa.table({"qid": [str(t) for t in queries], "terms": [analyzer.analyze(q) for q in queries.values()]},
                     schema=QUERY_SCHEMA)  # fmt: skip
    first = rank_queries(index, table, make_ranker(index, "bm25", {}), DEPTH, warn_unmatched=False)
    return index, analyzer, first, graded(examples, examples.relevance, NON_ARGUMENT_RELEVANCE)


def test_repeated_draws_are_each_the_benchmark_of_their_seed_and_keep_the_first_as_headline(sample, result):
    repeated = steps_benchmark(*sample, folds=3, seed=0, repeats=2)
    data = repeated.to_json()
    assert {key: value for key, value in data.items() if key != "cv_repeats"} == result.to_json()
    other = steps_benchmark(*sample, folds=3, seed=1).to_json()["steps"]
    draws = data["cv_repeats"]
    assert draws["seeds"] == [0, 1] and set(draws) >= {"rm3", "bo1", "ltr", "mean_ltr", "ltr_spread"}
    for name, figures in result.to_json()["steps"].items():
        assert draws[name] == [figures["nDCG@5"], other[name]["nDCG@5"]]
    assert "over 2 draws of the folds (seeds 0 to 1): BM25 + rm3 mean " in format_steps_benchmark(repeated)
    with pytest.raises(ValueError, match="repeats must be at least 1, got 0"):
        steps_benchmark(*sample, folds=3, repeats=0)
