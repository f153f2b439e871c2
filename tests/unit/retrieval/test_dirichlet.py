"""retrieval/models/dirichlet.py: query likelihood with Dirichlet smoothing against Σ_t log((tf + μ·cf_t/|C|) /
(|d| + μ)) worked out over the whole collection, on one shard: its collection model is the collection's, a query
term the shard lacks still charges each candidate, and candidates are only the shard's documents holding a query
term. Also its weights and its registration (μ must be above 0)."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pyarrow as pa
import pytest

from argrank.index.build import build_index
from argrank.index.statistics import merge_statistics
from argrank.retrieval.models.dirichlet import DirichletLM
from argrank.retrieval.registry import make_ranker, resolve_params

TOKENS = pa.list_(pa.string())
SHARDS = [
    {"d01": "tax tax rich pay", "d02": "pay wage", "d03": "", "d04": "rich rich rich"},
    {"d05": "wage tax poor", "d06": "poor help help help", "d07": "vote"},
]
MU = 30.0


def _index(documents: dict[str, str]):
    return build_index(
        pa.array(list(documents), pa.string()), pa.array([d.split() for d in documents.values()], TOKENS)
    )


@pytest.fixture(scope="module")
def collection():
    shards = [_index(documents) for documents in SHARDS]
    whole = _index({doc: text for documents in SHARDS for doc, text in documents.items()})
    return shards, whole, merge_statistics(shards)


def _expected(query: list[str], text: str) -> float:
    """The query log-likelihood of one document under the whole collection's model."""
    words = [word for documents in SHARDS for text in documents.values() for word in text.split()]
    cf, tf = Counter(words), Counter(text.split())
    length = len(text.split())
    return sum(math.log((tf[t] + MU * cf[t] / len(words)) / (length + MU)) for t in query)


@pytest.mark.parametrize("query", [["tax", "poor"], ["wage", "wage", "help"], ["rich", "vote"]])
@pytest.mark.parametrize("shard", [0, 1])
def test_a_shard_scores_its_documents_under_the_collections_model(collection, shard, query):
    """Each query holds a term some shard lacks: it still counts, with the collection's frequency."""
    shards, _, statistics = collection
    ranker = DirichletLM(shards[shard], MU, statistics)
    candidates, scores = ranker.score(ranker.term_ids(query))
    documents = list(SHARDS[shard].items())
    holding = [i for i, (_, text) in enumerate(documents) if set(text.split()) & set(query)]
    assert candidates.tolist() == holding  # ascending column ids, each once
    assert scores.tolist() == pytest.approx([_expected(query, documents[i][1]) for i in holding], rel=1e-12)


def test_the_collection_model_is_the_collections_not_the_shards(collection):
    shards, whole, statistics = collection
    expected = DirichletLM(whole, MU).background
    for shard in shards:
        assert DirichletLM(shard, MU, statistics).background.tobytes() == expected.tobytes()
    assert len(expected) == len(statistics.terms) > len(shards[0].terms)


def test_a_query_of_terms_no_document_of_the_shard_holds_has_no_candidates(collection):
    shards, _, statistics = collection
    ranker = DirichletLM(shards[0], MU, statistics)
    for query in (["vote", "poor"], ["unknown"], []):
        candidates, scores = ranker.score(ranker.term_ids(query))
        assert len(candidates) == len(scores) == 0 and candidates.dtype.kind in "iu"


def test_a_weight_of_two_counts_a_term_twice_and_weights_of_one_change_nothing(collection):
    """Repeating a query term and weighting it 2 are the same log-likelihood, bit for bit: both parts and the
    length term (Σ weights·log(|d| + μ))."""
    _, whole, _ = collection
    ranker = DirichletLM(whole, MU)
    tax, pay, poor = ranker.term_ids(["tax", "pay", "poor"])
    repeated = ranker.score([tax, tax, pay, poor])
    weighted = ranker.score([tax, pay, poor], [2.0, 1.0, 1.0])
    ones = ranker.score([tax, tax, pay, poor], [1.0, 1.0, 1.0, 1.0])
    for got in (weighted, ones):
        assert got[0].tolist() == repeated[0].tolist() and got[1].tobytes() == repeated[1].tobytes()
    half = ranker.score([tax], [0.5])[1]
    assert half.tolist() == pytest.approx((0.5 * ranker.score([tax])[1]).tolist(), rel=1e-12)


def test_the_model_is_registered_with_mu_above_zero(collection):
    _, whole, _ = collection
    ranker = make_ranker(whole, "dirichlet", {})
    assert isinstance(ranker, DirichletLM) and ranker.mu == 2000.0
    assert resolve_params("dirichlet", {"mu": 0.5}) == {"mu": 0.5}
    for mu in (0, -1.0):
        with pytest.raises(ValueError, match=f"parameter mu of dirichlet must be a number greater than 0, got {mu}"):
            resolve_params("dirichlet", {"mu": mu})
    assert np.isfinite(make_ranker(whole, "dirichlet", {"mu": 1e-9}).score(ranker.term_ids(["vote", "tax"]))[1]).all()
