"""tracks/perspective/concepts.py: tf-idf document vectors and concept signatures worked out by hand."""

from __future__ import annotations

import math

import numpy as np
import pyarrow as pa
import scipy.sparse as sp

from argrank.index.build import build_index
from argrank.tracks.perspective.concepts import concept_signatures, tfidf_documents

S = 1 / math.sqrt(2)


def _index(tokens: dict[str, list[str]]):
    return build_index(pa.array(list(tokens)), pa.array(list(tokens.values()), pa.list_(pa.string())))


def test_document_vectors_by_hand():
    index = _index({"d1": ["x", "y"], "d2": ["x"], "d3": ["z", "z"]})
    assert index.terms.to_pylist() == ["x", "y", "z"]
    vectors = tfidf_documents(index)
    assert sp.issparse(vectors) and vectors.shape == (3, 3)  # documents × terms
    x, y = math.log(3 / 2), math.log(3)  # idf: x in two of the three documents, y in one; tf 1 each
    expected = [[x / math.hypot(x, y), y / math.hypot(x, y), 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]
    assert np.allclose(vectors.toarray(), expected)


def test_term_frequency_is_damped_by_its_log():
    index = _index({"a": ["x", "x", "x", "x", "y"], "b": ["z"], "c": ["z"]})
    row = tfidf_documents(index).toarray()[0]
    ratio = (1 + math.log(4)) / 1.0  # x four times, y once; both in one of the three documents (same idf)
    assert np.isclose(row[0] / row[1], ratio)
    assert np.isclose(np.linalg.norm(row), 1.0)


def test_a_document_of_only_terms_every_document_has_is_a_zero_row_not_nan():
    vectors = tfidf_documents(_index({"a": ["the"], "b": ["the", "tax"]})).toarray()
    assert np.all(np.isfinite(vectors))
    assert np.allclose(vectors[0], 0.0) and np.isclose(np.linalg.norm(vectors[1]), 1.0)


def test_signatures_in_one_language_by_hand():
    documents = sp.csr_matrix(np.eye(4))
    signatures = concept_signatures(documents, np.array(["de"] * 4), [np.array([0, 1]), np.array([2, 3])])
    # Each document's cosine to the centroids is (1/√2, 0) or (0, 1/√2); less the mean and unit length: ±(1/√2).
    assert np.allclose(signatures, [[S, -S], [S, -S], [-S, S], [-S, S]])


def test_one_concepts_arguments_in_two_languages_share_a_signature_without_sharing_a_word():
    documents = sp.csr_matrix(np.eye(4))  # no two documents share a term
    languages = np.array(["de", "de", "fr", "fr"])
    signatures = concept_signatures(documents, languages, [np.array([0, 2]), np.array([1, 3])])
    assert np.allclose(signatures, [[S, -S], [-S, S], [S, -S], [-S, S]])
    assert np.isclose(signatures[0] @ signatures[2], 1.0) and np.isclose(signatures[0] @ signatures[1], -1.0)


def test_a_language_of_one_document_is_centred_to_zero_and_rows_are_unit_or_zero():
    signatures = concept_signatures(
        sp.csr_matrix(np.eye(3)), np.array(["de", "de", "it"]), [np.array([0]), np.array([1])]
    )
    assert np.allclose(signatures, [[S, -S], [-S, S], [0.0, 0.0]])
    documents = sp.csr_matrix(np.array([[1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0], [0, 0, 0]]))
    signatures = concept_signatures(documents, np.array(["de"] * 4), [np.array([0, 3]), np.array([1])])
    assert np.all(np.isfinite(signatures))
    assert np.allclose(np.linalg.norm(signatures, axis=1), 1.0)
    assert np.allclose(signatures[2], signatures[3])  # in neither concept, or in one only with an empty vector


def test_signatures_of_real_vectors_are_deterministic_and_one_row_per_document():
    index = _index({"a": ["tax", "meat"], "b": ["taxe", "viande"], "c": ["dam", "river"], "d": ["barrage", "eau"]})
    documents = tfidf_documents(index)
    languages = np.array(["en", "fr", "en", "fr"])
    concepts = [np.array([0, 1]), np.array([2, 3])]
    first = concept_signatures(documents, languages, concepts)
    assert first.shape == (4, 2)
    assert np.array_equal(first, concept_signatures(documents, languages, concepts))
    assert first[0] @ first[1] > 0.99 and first[0] @ first[2] < -0.99
