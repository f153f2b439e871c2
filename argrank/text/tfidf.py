"""A fitted TF-IDF vectorizer's matrix of new documents, counted in numpy rather than term by term in Python.

scikit-learn's `TfidfVectorizer.transform` looks every term up and counts it in a dictionary per document; where a
model predicts many short texts (the stance classifiers' sentences and contexts) that loop is a large part of the
time. Here the terms of all documents are looked up in one pass and summed as a sparse matrix; the TF-IDF weights
and norms are the vectorizer's own, so the matrix is the one `transform` returns.
"""

from __future__ import annotations

from itertools import chain, repeat
from typing import Sequence

import numpy as np

import argrank.lazylibs as lazylibs


def tfidf_transform(vectorizer, documents: Sequence):
    """What the fitted `vectorizer` (a scikit-learn TfidfVectorizer) makes of `documents`: the same CSR matrix, in
    the same order, as its `transform`; terms outside its vocabulary are left out, as there."""
    sparse = lazylibs.scipy("sparse")
    preprocessing = lazylibs.sklearn("preprocessing")

    if isinstance(documents, str):
        raise ValueError("expected a sequence of documents, got one string")
    analyze = vectorizer.build_analyzer()
    terms = [analyze(document) for document in documents]
    lengths = np.fromiter(map(len, terms), dtype=np.intp, count=len(terms))
    vocabulary = vectorizer.vocabulary_
    ids = np.fromiter(
        map(vocabulary.get, chain.from_iterable(terms), repeat(-1)), dtype=np.intp, count=int(lengths.sum())
    )
    rows = np.repeat(np.arange(len(terms)), lengths)
    known = ids >= 0
    counts = sparse.csr_matrix(
        (np.ones(int(known.sum()), dtype=vectorizer.dtype), (rows[known], ids[known])),
        shape=(len(terms), len(vocabulary)),
        dtype=vectorizer.dtype,
    )
    counts.sum_duplicates()  # sorted indices, each term once per row with its count
    if vectorizer.binary:
        counts.data.fill(1)
    if vectorizer.sublinear_tf:
        np.log(counts.data, counts.data)
        counts.data += 1.0
    if vectorizer.use_idf:
        counts.data *= vectorizer.idf_[counts.indices]
    if vectorizer.norm is not None:
        counts = preprocessing.normalize(counts, norm=vectorizer.norm, copy=False)
    return counts
