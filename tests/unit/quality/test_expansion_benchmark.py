"""quality.expansion_benchmark: folds deal every topic once, a fold's setting is chosen on the other folds' topics
only, and the benchmark scores BM25 and each expansion on the embedded sample."""

from __future__ import annotations

from pathlib import Path

from argrank.quality.data import queries_for, read_quality_set, read_quality_topics
from argrank.quality.expansion_benchmark import GRIDS, _folds, cross_validated, expansion_benchmark

DATA = Path(__file__).resolve().parents[3] / "data" / "quality"


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


def test_the_benchmark_scores_every_topic_under_a_setting_of_its_grid():
    examples = read_quality_set(DATA / "argquality-sample.csv")
    queries = queries_for(examples, read_quality_topics(DATA / "topics.csv"), DATA / "topics.csv")
    result = expansion_benchmark(examples, queries, folds=3, seed=0).to_json()
    topics = {str(topic) for topic in queries}
    assert set(result["bm25_per_topic"]) == topics and set(result["expansions"]) == set(GRIDS)
    for name, figures in result["expansions"].items():
        assert set(figures["per_topic"]) == topics and len(figures["folds"]) == 3
        assert figures["wins"] + figures["ties"] + figures["losses"] == len(topics)
        for fold in figures["folds"]:
            assert all(fold["setting"][key] in values for key, values in GRIDS[name].items())
