"""Retrieval models over the sparse index: BM25 (rank-bm25's BM25Okapi, bit for bit) and Dirichlet-smoothed query likelihood.

Scores are accumulated term by term over posting lists only; a document that matches no query term is
not a candidate. Top-k selection breaks ties by document id, which is the index's column order. A model
scores one index with the statistics of a collection that may be larger (the index is one shard of it), so
shards scored apart give the unsharded index's scores exactly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Mapping

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from argrank.index.store import Index

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


@dataclass(frozen=True, eq=False)
class CollectionStatistics:
    """What scores need to know of the whole collection, which a shard's index alone does not hold.

    Per term, in the order the unsharded index numbers its terms (first occurrence over the documents sorted
    by id): BM25's average idf is a sum in that order, and floating-point sums depend on their order. Query
    terms are looked up here, so a term the collection has but the scored index lacks still counts (query
    likelihood charges every candidate for it).
    """

    terms: pa.Array
    document_frequencies: np.ndarray
    # None in an index's own statistics (of_index): BM25 never needs them, and summing the postings would read
    # the whole memory-mapped matrix; query likelihood then takes them from the index.
    collection_frequencies: np.ndarray | None
    num_docs: int
    total_length: int

    @classmethod
    def of_index(cls, index: Index) -> CollectionStatistics:
        """An unsharded index's own statistics."""
        return cls(
            terms=index.terms,
            document_frequencies=index.document_frequencies,
            collection_frequencies=None,
            num_docs=index.num_docs,
            total_length=index.total_length,
        )

    @cached_property
    def _term_lookup(self) -> dict[str, int]:
        return {t: i for i, t in enumerate(self.terms.to_pylist())}

    def term_ids(self, terms: list[str]) -> list[int]:
        """Ids of the given terms in query order, repeats kept, terms the collection lacks dropped."""
        return [self._term_lookup[t] for t in terms if t in self._term_lookup]


def postings_rows(index: Index, statistics: CollectionStatistics) -> np.ndarray:
    """For each term of the statistics, its row of the index's postings, or -1 where the index lacks it."""
    if statistics.terms.equals(index.terms):
        return np.arange(len(index.terms))
    return pc.index_in(statistics.terms, value_set=index.terms).fill_null(-1).to_numpy().astype(np.int64)


class Scorer:
    """What both models share: an index to score, the collection's statistics, and the map between their terms.

    Query term ids are the statistics' ids; without statistics the index's own are used, which is the
    unsharded pipeline.
    """

    def __init__(self, index: Index, statistics: CollectionStatistics | None):
        self.index = index
        self.statistics = statistics if statistics is not None else CollectionStatistics.of_index(index)
        self.rows = postings_rows(index, self.statistics)
        self.doc_lengths = index.doc_lengths.astype(np.float64)

    def term_ids(self, terms: list[str]) -> list[int]:
        return self.statistics.term_ids(terms)


class BM25(Scorer):
    """Okapi BM25 as rank-bm25's BM25Okapi computes it, including its idf floor for very common terms."""

    def __init__(
        self, index: Index, k1: float, b: float, epsilon: float, statistics: CollectionStatistics | None = None
    ):
        super().__init__(index, statistics)
        self.k1, self.b = k1, b
        n = self.statistics.num_docs
        self.avgdl = self.statistics.total_length / n
        df = self.statistics.document_frequencies
        distinct, position = np.unique(df, return_inverse=True)
        # math.log, not np.log: numpy's SIMD log may differ from libm in the last bit.
        idf = np.array([math.log(n - d + 0.5) - math.log(d + 0.5) for d in distinct.tolist()])[position]
        # rank-bm25 sums idf left to right in first-occurrence order; cumsum is that sequential sum.
        average_idf = np.cumsum(idf)[-1] / len(idf) if len(idf) else 0.0
        self.idf = np.where(idf < 0, epsilon * average_idf, idf)

    def score(self, term_ids: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """Candidate documents (ascending) and their scores for a query given as term ids (repeats count)."""
        postings = self.index.postings
        scores = np.zeros(self.index.num_docs)
        touched = np.zeros(self.index.num_docs, dtype=bool)
        k1, b = self.k1, self.b
        for t in term_ids:
            row = self.rows[t]
            if row < 0:  # no document of this index has the term
                continue
            start, end = postings.indptr[row], postings.indptr[row + 1]
            docs = postings.indices[start:end]
            tf = postings.data[start:end].astype(np.float64)
            dl = self.doc_lengths[docs]
            scores[docs] += self.idf[t] * (tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / self.avgdl)))
            touched[docs] = True
        candidates = np.flatnonzero(touched)
        return candidates, scores[candidates]


class DirichletLM(Scorer):
    """Query log-likelihood with Dirichlet smoothing: Σ_t log((tf + μ·P(t|C)) / (|d| + μ)) over query terms."""

    def __init__(self, index: Index, mu: float, statistics: CollectionStatistics | None = None):
        super().__init__(index, statistics)
        self.mu = mu
        frequencies = self.statistics.collection_frequencies
        frequencies = index.collection_frequencies if frequencies is None else frequencies
        self.background = frequencies / self.statistics.total_length

    def score(self, term_ids: list[int]) -> tuple[np.ndarray, np.ndarray]:
        postings = self.index.postings
        rows = [self.rows[t] for t in term_ids]
        spans = [(postings.indptr[r], postings.indptr[r + 1]) if r >= 0 else (0, 0) for r in rows]
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


def make_ranker(
    index: Index, method: str, params: Mapping[str, Any], statistics: CollectionStatistics | None = None
) -> BM25 | DirichletLM:
    """The named model over `index`; `statistics` are the whole collection's where `index` is one shard of it."""
    resolved = resolve_params(method, params)
    model = BM25 if method == "bm25" else DirichletLM
    return model(index, **resolved, statistics=statistics)


def top_k(candidates: np.ndarray, scores: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The k best candidates by score, ties by document id (candidates are column ids, ordered by id)."""
    if len(scores) > k:
        threshold = np.partition(scores, len(scores) - k)[len(scores) - k]
        keep = scores >= threshold
        candidates, scores = candidates[keep], scores[keep]
    order = np.lexsort((candidates, -scores))[:k]
    return candidates[order], scores[order]
