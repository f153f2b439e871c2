"""quality.steps_benchmark: folds deal every topic once, a fold's setting is chosen (and its ltr model learnt) on
the other folds' topics only, and the benchmark scores BM25 and each step on the embedded sample."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from argrank.evaluation.fusion_tuning import folds as _folds
from argrank.index.build import build_index
from argrank.quality.benchmark import NON_ARGUMENT_RELEVANCE, graded
from argrank.quality.data import queries_for, read_quality_set, read_quality_topics
from argrank.quality.steps_benchmark import DEPTH, GRIDS, _learnt, cross_validated, steps_benchmark
from argrank.retrieval.queries import QUERY_SCHEMA
from argrank.retrieval.registry import make_ranker
from argrank.retrieval.search import rank_queries
from argrank.text.multilingual import make_analyzer

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
    result = steps_benchmark(examples, queries, folds=3, seed=0).to_json()
    topics = {str(topic) for topic in queries}
    assert set(result["bm25_per_topic"]) == topics and set(result["steps"]) == set(GRIDS) | {"ltr"}
    for name, figures in result["steps"].items():
        assert set(figures["per_topic"]) == topics and len(figures["folds"]) == 3
        assert figures["wins"] + figures["ties"] + figures["losses"] == len(topics)
        for fold in figures["folds"]:
            assert all(fold["setting"][key] in values for key, values in GRIDS.get(name, {}).items())


def test_an_ltr_fold_never_learns_from_its_own_topics():
    """Topic A's judgments changed: the other topic of A's fold keeps its held-out score (its model never saw A)."""
    examples = read_quality_set(DATA / "argquality-sample.csv")
    queries = queries_for(examples, read_quality_topics(DATA / "topics.csv"), DATA / "topics.csv")
    analyzer = make_analyzer("en")
    index = build_index(pa.array(list(examples.ids), pa.string()), analyzer.analyze_many(list(examples.texts)))
    table = pa.table({"qid": [str(t) for t in queries], "terms": [analyzer.analyze(q) for q in queries.values()]},
                     schema=QUERY_SCHEMA)  # fmt: skip
    first = rank_queries(index, table, make_ranker(index, "bm25", {}), DEPTH, warn_unmatched=False)
    qrels = graded(examples, examples.relevance, NON_ARGUMENT_RELEVANCE)
    groups = [["101", "102"], ["103", "104"], ["105", "106"]]
    before, _ = _learnt(examples, queries, index, analyzer, first, qrels, groups)
    flipped = {**qrels, "101": {doc: 2 - label if label >= 0 else label for doc, label in qrels["101"].items()}}
    after, _ = _learnt(examples, queries, index, analyzer, first, flipped, groups)
    assert after["102"] == before["102"]
    assert any(after[t] != before[t] for t in ("103", "104", "105", "106"))  # the other folds learnt from 101
