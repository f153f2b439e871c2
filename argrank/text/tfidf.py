"""A TF-IDF vectorizer fitted, and its matrix of documents, counted in numpy rather than term by term in Python.

scikit-learn's `TfidfVectorizer` looks every term up and counts it in a dictionary per document, and while fitting
renumbers and prunes its vocabulary term by term; where a model predicts many short texts (the stance classifiers'
sentences and contexts), or model selection fits a vectorizer per fold, those loops are a large part of the time.
Here the terms of all documents are looked up in one pass and summed as a sparse matrix; the TF-IDF weights and norms
are the vectorizer's own, so the vectorizer and the matrix are those `fit_transform` and `transform` give.
"""

from __future__ import annotations

from itertools import chain, repeat
from numbers import Integral
from typing import Sequence

import numpy as np

import argrank.lazylibs as lazylibs


def tfidf_fit_transform(vectorizer, documents: Sequence):
    """`vectorizer.fit_transform(documents)` for a scikit-learn TfidfVectorizer: it ends up fitted as its own call
    leaves it, and the matrix is the same, each row's entries in the same order (terms by first occurrence), so that
    a classifier fitted on it sums in the same order. A fixed vocabulary or `max_features` is left to scikit-learn."""
    sparse = lazylibs.scipy("sparse")
    text = lazylibs.sklearn("feature_extraction.text")

    if vectorizer.vocabulary is not None or vectorizer.max_features is not None or isinstance(documents, str):
        return vectorizer.fit_transform(documents)
    # What scikit-learn checks and sets before counting, in its order (so the fitted vectorizer pickles the same).
    vectorizer._validate_params()
    vectorizer._check_params()
    vectorizer._tfidf = text.TfidfTransformer(norm=vectorizer.norm, use_idf=vectorizer.use_idf,
                                              smooth_idf=vectorizer.smooth_idf, sublinear_tf=vectorizer.sublinear_tf)
    vectorizer._validate_ngram_range()
    vectorizer._warn_for_unused_params()
    vectorizer._validate_vocabulary()
    analyze = _analyzer(vectorizer)
    terms = [analyze(document) for document in documents]
    seen = dict.fromkeys(chain.from_iterable(terms))  # every term once, by first occurrence
    if not seen:
        return vectorizer.fit_transform(documents)  # which says why there is no vocabulary
    numbered = dict(zip(seen, range(len(seen))))
    lengths = np.fromiter(map(len, terms), dtype=np.intp, count=len(terms))
    ids = np.fromiter(map(numbered.__getitem__, chain.from_iterable(terms)), dtype=np.intp, count=int(lengths.sum()))
    counts = sparse.csr_matrix(
        (np.ones(len(ids), dtype=vectorizer.dtype), (np.repeat(np.arange(len(terms)), lengths), ids)),
        shape=(len(terms), len(numbered)),
        dtype=vectorizer.dtype,
    )
    counts.sum_duplicates()  # each row's terms once, by first occurrence, with their counts
    if vectorizer.binary:
        counts.data.fill(1)
    kept = _kept_terms(vectorizer, np.bincount(counts.indices, minlength=len(numbered)), len(terms))
    # Terms numbered in sorted order, the vocabulary listing them by first occurrence, as scikit-learn's does.
    kept_terms = [term for term, keep in zip(seen, kept) if keep]
    numbers = dict(zip(sorted(kept_terms), range(len(kept_terms))))
    vocabulary = dict(zip(kept_terms, map(numbers.__getitem__, kept_terms)))
    renumbered = np.fromiter(map(vocabulary.get, seen, repeat(-1)), dtype=counts.indices.dtype, count=len(seen))
    keep = kept[counts.indices]
    rows = np.repeat(np.arange(len(terms)), np.diff(counts.indptr))[keep]
    indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=len(terms)))]).astype(counts.indptr.dtype)
    counts = sparse.csr_matrix(
        (counts.data[keep], renumbered[counts.indices[keep]], indptr), shape=(len(terms), len(vocabulary))
    )
    vectorizer._tfidf.fit(counts)
    vectorizer.vocabulary_ = vocabulary
    return vectorizer._tfidf.transform(counts, copy=False)


def _kept_terms(vectorizer, document_counts: np.ndarray, documents: int) -> np.ndarray:
    """Which terms the vectorizer's `min_df` and `max_df` keep, as scikit-learn reads them (a share of the documents
    where a float), given in how many documents each occurs."""
    high = vectorizer.max_df if isinstance(vectorizer.max_df, Integral) else vectorizer.max_df * documents
    low = vectorizer.min_df if isinstance(vectorizer.min_df, Integral) else vectorizer.min_df * documents
    if high < low:
        raise ValueError("max_df corresponds to < documents than min_df")
    kept = (document_counts <= high) & (document_counts >= low)
    if not kept.any():
        raise ValueError("After pruning, no terms remain. Try a lower min_df or a higher max_df.")
    return kept


def tfidf_transform(vectorizer, documents: Sequence):
    """What the fitted `vectorizer` (a scikit-learn TfidfVectorizer) makes of `documents`: the same CSR matrix, in
    the same order, as its `transform`; terms outside its vocabulary are left out, as there."""
    sparse = lazylibs.scipy("sparse")
    preprocessing = lazylibs.sklearn("preprocessing")

    if isinstance(documents, str):
        raise ValueError("expected a sequence of documents, got one string")
    analyze = _analyzer(vectorizer)
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


def _analyzer(vectorizer):
    """The vectorizer's analyzer: scikit-learn's own, except that word n-grams (without stop words) are joined by
    `map`, not one by one in Python; the same terms in the same order."""
    analyze = vectorizer.build_analyzer()
    if vectorizer.analyzer != "word" or vectorizer.get_stop_words() is not None:
        return analyze
    decode, preprocess, tokenize = vectorizer.decode, vectorizer.build_preprocessor(), vectorizer.build_tokenizer()
    shortest, longest = vectorizer.ngram_range

    def terms(document) -> list[str]:
        tokens = tokenize(preprocess(decode(document)))
        grams = list(tokens) if shortest == 1 else []
        for n in range(max(shortest, 2), longest + 1):
            grams += map(" ".join, zip(*(tokens[i:] for i in range(n))))
        return grams

    return terms
