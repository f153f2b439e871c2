"""tracks/perspective/training.py: what the training queries teach, as one immutable value (cross-validation keeps
one per fold set and hands it to several rankers), and what it documents holding, for the embedded release's."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from argrank.tracks.perspective.data import query_file, read_corpus, read_queries
from argrank.tracks.perspective.ranking import training_from_queries
from argrank.tracks.perspective.training import Training

DATA = Path(__file__).resolve().parents[4] / "data" / "perspective"


def test_it_is_built_issues_properties_questions_in_that_order_and_cannot_be_changed():
    issues = [np.array([0, 2]), np.array([1])]
    properties = {("gender", "w"): (np.array([0]), np.array([2]))}
    training = Training(issues, properties, {"Why?": 1})
    assert (training.issues, training.properties, training.questions) == (issues, properties, {"Why?": 1})
    for name in ("issues", "properties", "questions"):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(training, name, None)


def test_without_questions_each_training_gets_an_empty_mapping_of_its_own():
    first, second = Training([], {}), Training([], {})
    assert first.questions == {} and first.questions is not second.questions
    first.questions["Soll?"] = 0
    assert second.questions == {}


def test_the_embedded_release_teaches_issues_questions_and_disjoint_property_examples():
    corpus = read_corpus(DATA)
    position = {int(argument): row for row, argument in enumerate(corpus.ids)}
    baseline = read_queries(query_file(DATA, "baseline", "train"), corpus)
    training = training_from_queries(
        baseline, read_queries(query_file(DATA, "explicit", "train"), corpus), lambda i: position.get(i, -1)
    )
    assert training.issues and training.properties
    for issue in training.issues:  # positions in the documents' order, each argument once
        assert issue.size and len(set(issue.tolist())) == issue.size and 0 <= issue.min() <= issue.max() < len(position)
    assert {query.text for query in baseline} <= set(training.questions)
    assert all(0 <= issue < len(training.issues) for issue in training.questions.values())
    for (key, value), (have, lack) in training.properties.items():
        assert key and value and have.size  # an example of the property, and none known both to have it and not
        assert not set(have.tolist()) & set(lack.tolist())
