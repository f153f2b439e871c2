"""The concept signatures of crosslingual.py's explicit semantic analysis: each argument's similarity to every
concept's centroid in the argument's own language, over (1 + log tf) · idf document vectors.

scipy's sparse algebra, which only building a perspective ranker needs, is imported through `lazylibs`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

import argrank.lazylibs as lazylibs
from argrank.index.store import Index

if TYPE_CHECKING:
    import scipy.sparse as sp


def tfidf_documents(index: Index) -> sp.csr_matrix:
    """documents × terms: (1 + log tf) · log(N / df), rows scaled to unit length."""
    postings = index.postings.matrix().astype(np.float64)
    idf = np.log(index.num_docs / np.maximum(index.document_frequencies, 1))
    weighted = postings.copy()
    weighted.data = 1.0 + np.log(weighted.data)
    weighted = lazylibs.scipy("sparse").diags(idf) @ weighted
    documents = weighted.T.tocsr()
    return _unit_rows(documents)


def concept_signatures(documents: sp.csr_matrix, languages: np.ndarray, concepts: Sequence[np.ndarray]) -> np.ndarray:
    """documents × concepts: each document's cosine to each concept's centroid in the document's own language,
    minus its language's mean signature (so languages are comparable), rows scaled to unit length."""
    sparse = lazylibs.scipy("sparse")
    signatures = np.zeros((documents.shape[0], len(concepts)))
    for language in np.unique(languages):
        own = languages == language
        members = sparse.csr_matrix(
            [np.bincount(concept[own[concept]], minlength=documents.shape[0]) for concept in concepts], dtype=np.float64
        )
        members = members[:, np.flatnonzero(own)]
        centroids = _unit_rows(sparse.csr_matrix(members @ documents[own]))
        block = np.asarray((documents[own] @ centroids.T).todense())
        signatures[own] = block - block.mean(axis=0)
    norms = np.linalg.norm(signatures, axis=1, keepdims=True)
    return signatures / np.maximum(norms, 1e-12)


def _unit_rows(matrix: sp.csr_matrix) -> sp.csr_matrix:
    norms = np.sqrt(np.asarray(matrix.multiply(matrix).sum(axis=1)).ravel())
    return lazylibs.scipy("sparse").diags(1.0 / np.maximum(norms, 1e-12)) @ matrix
