"""quality.ltr: the features of a query and its candidates against the index (first-stage scores, their per-topic
normalised forms, proximity of the query terms, argumentativeness cues), worked by hand on tiny inputs, and the
models (LambdaMART, the linear ranker) that learn an order from judgments, the same model from the same data."""

from __future__ import annotations

import json

import numpy as np
import pyarrow as pa
import pytest

from argrank.index.build import build_index
from argrank.quality.ltr import (
    MAX_GRADE,
    PAIR_SPAN,
    feature_matrix,
    feature_names,
    grade_problem,
    judgments,
    ranker_scores,
    train_ranker,
)
from argrank.quality.rerank import Quality
from argrank.retrieval.registry import make_ranker

DOCS = {
    "d1": ("tax", "tax the rich more tax"),
    "d2": ("tax", "nothing relevant here at all"),
    "d3": ("school", "uniform school rules tax"),
    "d4": ("school", "school uniform uniform"),
}


def _analyze_many(texts):
    return [text.split() for text in texts]


def _index():
    return build_index(pa.array(list(DOCS)), pa.array([f"{c} {p}".split() for c, p in DOCS.values()],
                                                      type=pa.list_(pa.string())))  # fmt: skip


def _candidates(rows, texts=None):
    return pa.table({
        "topic": [t for t, _ in rows], "doc": [d for _, d in rows], "score": [1.0] * len(rows),
        "text": texts or [" ".join(DOCS[d]) for _, d in rows], "conclusion": [DOCS[d][0] for _, d in rows],
        "premise": [DOCS[d][1] for _, d in rows],
    })  # fmt: skip


NAMES = ["bm25", "dirichlet", "bm25_conclusion", "bm25_premise", "words", "coverage", "bm25_share", "bm25_rank",
         "dirichlet_share", "window", "pairs", "markers", "claims", "first_person"]  # fmt: skip


def _columns(rows, terms, texts=None):
    """The features of candidates `rows` (texts as given) by name."""
    matrix = feature_matrix(_candidates(rows, texts), terms, _index(), _analyze_many, ["conclusion", "premise"])
    assert matrix.shape == (len(rows), len(NAMES))
    return dict(zip(NAMES, matrix.T.tolist()))


def test_features_score_each_candidate_against_its_query():
    index = _index()
    candidates = _candidates([("1", "d1"), ("1", "d2"), ("2", "d4"), ("2", "d3")])
    terms = {"1": ["tax"], "2": ["school", "uniform"]}
    names = feature_names(["conclusion", "premise"], with_quality=False)
    assert names == NAMES
    assert feature_names(["conclusion", "premise"], with_quality=True) == [*NAMES, "quality", "argument"]
    matrix = feature_matrix(candidates, terms, index, _analyze_many, ["conclusion", "premise"])
    assert matrix.shape == (4, len(names))
    bm25 = make_ranker(index, "bm25", {})
    found, scores = bm25.score(bm25.term_ids(["tax"]))
    assert matrix[0, 0] == dict(zip(found.tolist(), scores.tolist()))[0]  # d1 is column 0
    column = dict(zip(names, matrix.T))
    assert column["coverage"].tolist() == [1.0, 1.0, 1.0, 1.0]
    premise = column["bm25_premise"]
    assert premise[0] > 0 == premise[1] and premise[2] > premise[3] > 0  # "uniform" twice in a shorter premise
    assert column["words"].tolist() == pytest.approx(np.log1p([6, 6, 4, 5]).tolist())
    quality = Quality({"d1": 0.5, "d2": -1.0, "d3": 0.0, "d4": 1.0}, {d: 0.9 for d in DOCS}, {d: 3 for d in DOCS})
    with_quality = feature_matrix(candidates, terms, index, _analyze_many, ["conclusion", "premise"], quality)
    assert with_quality[:, -2].tolist() == [0.5, -1.0, 1.0, 0.0] and with_quality.shape[1] == len(names) + 2


def test_scores_are_normalised_per_topic():
    """Topic 1: d1 holds "tax" three times, d3 once, d4 never; topic 2 has one candidate. BM25's share of the best
    and the rank's discount are per topic; tied candidates share the better rank."""
    column = _columns([("1", "d1"), ("1", "d3"), ("1", "d4"), ("2", "d2")], {"1": ["tax"], "2": ["tax"]})
    bm25 = column["bm25"]
    assert bm25[0] > bm25[1] > bm25[2] == 0
    assert column["bm25_share"] == pytest.approx([1.0, bm25[1] / bm25[0], 0.0, 1.0])
    assert column["bm25_rank"] == pytest.approx([1.0, 1 / np.log2(3), 1 / np.log2(4), 1.0])
    dirichlet = column["dirichlet"]
    assert dirichlet[0] < 0 and dirichlet[1] < 0 and dirichlet[2] == 0  # log-likelihoods; d4 holds no query term
    low, high = min(dirichlet[:2]), max(dirichlet[:2])  # scaled over the candidates holding a query term
    assert column["dirichlet_share"] == pytest.approx([*((d - low) / (high - low) for d in dirichlet[:2]), 0.0, 0.0])
    assert {column["dirichlet_share"][0], column["dirichlet_share"][1]} == {0.0, 1.0}  # topic 2's one has no range
    tied = _columns([("1", "d1"), ("1", "d1"), ("1", "d4")], {"1": ["tax"]})
    assert tied["bm25_rank"] == pytest.approx([1.0, 1.0, 1 / np.log2(4)])


def test_proximity_of_the_query_terms():
    """Query "tax rich school": the smallest stretch holding the terms a text has, and the pairs near each other."""
    far = " ".join(["tax", *["x"] * PAIR_SPAN, "rich"])  # PAIR_SPAN + 1 apart: not near
    texts = [
        "tax the rich",  # 2 terms in a stretch of 3; one pair of three near
        "tax a b rich c tax rich",  # the tightest stretch is the last two terms
        "tax tax tax",  # one term: no window, no pair
        far,
        "rich x school y tax",  # all three in five terms: every pair near
        "",
    ]
    column = _columns([("1", "d1")] * len(texts), {"1": ["tax", "rich", "school", "tax"]}, texts)
    assert column["window"] == pytest.approx([2 / 3, 1.0, 0.0, 2 / (PAIR_SPAN + 2), 3 / 5, 0.0])
    assert column["pairs"] == pytest.approx([1 / 3, 1 / 3, 0.0, 0.0, 1.0, 0.0])
    assert column["coverage"] == pytest.approx([2 / 3, 2 / 3, 1 / 3, 2 / 3, 1.0, 0.0])


def test_argumentativeness_cues_are_shares_of_the_words():
    texts = ["I think we should ban it because it is wrong", "The sky is blue.", "", "Therefore, MY view: MUST go."]
    column = _columns([("1", "d1")] * len(texts), {"1": ["tax"]}, texts)
    assert column["markers"] == pytest.approx([1 / 10, 0.0, 0.0, 1 / 5])
    assert column["claims"] == pytest.approx([2 / 10, 0.0, 0.0, 1 / 5])
    assert column["first_person"] == pytest.approx([2 / 10, 0.0, 0.0, 1 / 5])


@pytest.mark.parametrize("params", [{"trees": 20, "min_leaf": 2}, {"ridge": 1.0}], ids=["lambdamart", "linear"])
def test_a_model_learns_the_judged_order_and_is_the_same_model_every_time(params):
    rng = np.random.default_rng(0)
    features = rng.random((200, 3))
    labels = (features[:, 1] * 3).astype(int)  # the second feature decides
    groups = [20] * 10
    model = train_ranker(features, labels, groups, ["a", "b", "c"], params)
    assert model == train_ranker(features, labels, groups, ["a", "b", "c"], params)
    assert model.startswith("{") == ("ridge" in params)  # the linear ranker's JSON, else LightGBM's text
    test = rng.random((50, 3))
    scores = ranker_scores(model, test)
    assert np.corrcoef(scores, test[:, 1])[0, 1] > 0.9
    assert ranker_scores(model, np.zeros((0, 3))).shape == (0,)


def test_the_linear_ranker_is_ridge_regression_of_the_labels():
    """Its weights are those of ridge regression on the standardised features (the closed form worked with numpy),
    a constant feature gets none, and a negative label counts as 0."""
    rng = np.random.default_rng(1)
    features = np.column_stack([rng.random(30), np.full(30, 2.0), rng.random(30)])
    labels = rng.integers(-2, 3, 30)
    model = json.loads(train_ranker(features, labels, [30], ["a", "b", "c"], {"ridge": 5.0}))
    gains = np.maximum(labels, 0)
    x = np.column_stack([(features[:, j] - features[:, j].mean()) / features[:, j].std() for j in (0, 2)])
    expected = np.linalg.solve(x.T @ x + 5.0 * np.eye(2), x.T @ (gains - gains.mean()))
    assert model["weights"][1] == 0.0 and model["weights"][::2] == pytest.approx(expected.tolist())
    assert model["features"] == ["a", "b", "c"] and model["intercept"] == pytest.approx(gains.mean())
    scores = ranker_scores(json.dumps(model), features)
    assert scores == pytest.approx(x @ expected + gains.mean())


def test_judgments_count_unjudged_and_negative_as_given_and_group_topics():
    candidates = _candidates([("1", "d1"), ("1", "d2"), ("2", "d3")])
    labels, groups = judgments(candidates, {"1": {"d1": 2, "d2": -2}})
    assert labels == [2, -2, 0] and groups == [2, 1]


def test_grades_beyond_lightgbms_table_of_gains_are_a_problem_naming_the_judgment():
    assert grade_problem({"1": {"a": 0, "b": MAX_GRADE}, "2": {"c": -2}}) is None
    assert grade_problem({"1": {"a": 2}, "7": {"x": 1_000_000}}) == (
        "topic 7, document x: grade 1,000,000: the ltr step learns from grades up to 30")
