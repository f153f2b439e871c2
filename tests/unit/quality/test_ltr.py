"""quality.ltr: the features of a query and its candidates against the index, and a LambdaMART model that learns
an order from judgments, the same model from the same data."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from argrank.index.build import build_index
from argrank.quality.ltr import feature_matrix, feature_names, judgments, ranker_scores, train_ranker
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


def _candidates(rows):
    return pa.table({
        "topic": [t for t, _ in rows], "doc": [d for _, d in rows], "score": [1.0] * len(rows),
        "text": [" ".join(DOCS[d]) for _, d in rows], "conclusion": [DOCS[d][0] for _, d in rows],
        "premise": [DOCS[d][1] for _, d in rows],
    })  # fmt: skip


def test_features_score_each_candidate_against_its_query():
    index = _index()
    candidates = _candidates([("1", "d1"), ("1", "d2"), ("2", "d4"), ("2", "d3")])
    terms = {"1": ["tax"], "2": ["school", "uniform"]}
    names = feature_names(["conclusion", "premise"], with_quality=False)
    assert names == ["bm25", "dirichlet", "bm25_conclusion", "bm25_premise", "words", "coverage"]
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


def test_a_model_learns_the_judged_order_and_is_the_same_model_every_time():
    rng = np.random.default_rng(0)
    features = rng.random((200, 3))
    labels = (features[:, 1] * 3).astype(int)  # the second feature decides
    groups = [20] * 10
    model = train_ranker(features, labels, groups, ["a", "b", "c"], {"trees": 20, "min_leaf": 2})
    assert model == train_ranker(features, labels, groups, ["a", "b", "c"], {"trees": 20, "min_leaf": 2})
    test = rng.random((50, 3))
    scores = ranker_scores(model, test)
    assert np.corrcoef(scores, test[:, 1])[0, 1] > 0.9
    assert ranker_scores(model, np.zeros((0, 3))).shape == (0,)


def test_judgments_count_unjudged_and_negative_as_given_and_group_topics():
    candidates = _candidates([("1", "d1"), ("1", "d2"), ("2", "d3")])
    labels, groups = judgments(candidates, {"1": {"d1": 2, "d2": -2}})
    assert labels == [2, -2, 0] and groups == [2, 1]
