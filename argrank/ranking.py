"""Retrieval models over the sparse index: BM25 (rank-bm25's BM25Okapi, bit for bit) and Dirichlet-smoothed query likelihood.

Scores are accumulated term by term over posting lists only; a document that matches no query term is
not a candidate. Top-k selection breaks ties by document id, which is the index's column order.
"""

from __future__ import annotations

import math
from typing import Any, Mapping

import numpy as np

from argrank.index import Index

METHOD_DEFAULTS: dict[str, dict[str, float]] = {
    "bm25": {"k1": 1.2, "b": 0.75, "epsilon": 0.25},
    "dirichlet": {"mu": 2000.0},
}


def resolve_params(method: str, params: Mapping[str, Any]) -> dict[str, float]:
    """The method's full parameter set: defaults filled in, unknown names and non-numbers rejected (ValueError)."""
    if method not in METHOD_DEFAULTS:
        raise ValueError(f"unknown ranking method {method!r} (known: {', '.join(sorted(METHOD_DEFAULTS))})")
    defaults = METHOD_DEFAULTS[method]
    unknown = sorted(set(params) - set(defaults))
    if unknown:
        raise ValueError(f"unknown parameter(s) {', '.join(unknown)} for {method} (known: {', '.join(defaults)})")
    resolved = dict(defaults)
    for name, value in params.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ValueError(f"parameter {name} of {method} must be a finite number, got {value!r}")
        resolved[name] = float(value)
    return resolved


class BM25:
    """Okapi BM25 as rank-bm25's BM25Okapi computes it, including its idf floor for very common terms."""

    def __init__(self, index: Index, k1: float, b: float, epsilon: float):
        self.index = index
        self.k1, self.b = k1, b
        n = index.num_docs
        self.avgdl = index.total_length / n
        df = index.document_frequencies
        distinct, position = np.unique(df, return_inverse=True)
        # math.log, not np.log: numpy's SIMD log may differ from libm in the last bit.
        idf = np.array([math.log(n - d + 0.5) - math.log(d + 0.5) for d in distinct.tolist()])[position]
        # rank-bm25 sums idf left to right in first-occurrence order; cumsum is that sequential sum.
        average_idf = np.cumsum(idf)[-1] / len(idf) if len(idf) else 0.0
        self.idf = np.where(idf < 0, epsilon * average_idf, idf)
        self.doc_lengths = index.doc_lengths.astype(np.float64)

    def score(self, term_ids: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """Candidate documents (ascending) and their scores for a query given as term ids (repeats count)."""
        postings = self.index.postings
        scores = np.zeros(self.index.num_docs)
        touched = np.zeros(self.index.num_docs, dtype=bool)
        k1, b = self.k1, self.b
        for t in term_ids:
            start, end = postings.indptr[t], postings.indptr[t + 1]
            docs = postings.indices[start:end]
            tf = postings.data[start:end].astype(np.float64)
            dl = self.doc_lengths[docs]
            scores[docs] += self.idf[t] * (tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / self.avgdl)))
            touched[docs] = True
        candidates = np.flatnonzero(touched)
        return candidates, scores[candidates]


class DirichletLM:
    """Query log-likelihood with Dirichlet smoothing: Σ_t log((tf + μ·P(t|C)) / (|d| + μ)) over query terms."""

    def __init__(self, index: Index, mu: float):
        self.index = index
        self.mu = mu
        self.background = index.collection_frequencies / index.total_length
        self.doc_lengths = index.doc_lengths.astype(np.float64)

    def score(self, term_ids: list[int]) -> tuple[np.ndarray, np.ndarray]:
        postings = self.index.postings
        spans = [(postings.indptr[t], postings.indptr[t + 1]) for t in term_ids]
        if not spans:
            return np.empty(0, dtype=np.int64), np.empty(0)
        candidates = np.unique(np.concatenate([postings.indices[s:e] for s, e in spans]))
        log_likelihood = np.zeros(len(candidates))
        for t, (start, end) in zip(term_ids, spans):
            tf = np.zeros(len(candidates))
            tf[np.searchsorted(candidates, postings.indices[start:end])] = postings.data[start:end]
            log_likelihood += np.log(tf + self.mu * self.background[t])
        log_likelihood -= len(term_ids) * np.log(self.doc_lengths[candidates] + self.mu)
        return candidates, log_likelihood


def make_ranker(index: Index, method: str, params: Mapping[str, Any]) -> BM25 | DirichletLM:
    resolved = resolve_params(method, params)
    return BM25(index, **resolved) if method == "bm25" else DirichletLM(index, **resolved)


def top_k(candidates: np.ndarray, scores: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The k best candidates by score, ties by document id (candidates are column ids, ordered by id)."""
    if len(scores) > k:
        threshold = np.partition(scores, len(scores) - k)[len(scores) - k]
        keep = scores >= threshold
        candidates, scores = candidates[keep], scores[keep]
    order = np.lexsort((candidates, -scores))[:k]
    return candidates[order], scores[order]
