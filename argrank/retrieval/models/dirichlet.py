"""Query log-likelihood with Dirichlet smoothing: Σ_t log((tf + μ·P(t|C)) / (|d| + μ)) over query terms."""

from __future__ import annotations

import numpy as np

from argrank.index.statistics import CollectionStatistics
from argrank.index.store import Index
from argrank.retrieval.registry import Range, RankingModel
from argrank.retrieval.scorer import PostingsScorer


class DirichletLM(PostingsScorer):
    def __init__(self, index: Index, mu: float, statistics: CollectionStatistics | None = None):
        super().__init__(index, statistics)
        self.mu = mu
        frequencies = self.statistics.collection_frequencies
        frequencies = index.collection_frequencies if frequencies is None else frequencies
        self.background = frequencies / self.statistics.total_length

    def score(self, term_ids: list[int], weights: list[float] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """As Scorer.score; with `weights`, each term's log-likelihood counts that many times (an expanded query)."""
        weights = [1.0] * len(term_ids) if weights is None else list(weights)
        postings = self.index.postings
        rows = [self.rows[t] for t in term_ids]
        spans = [(postings.indptr[r], postings.indptr[r + 1]) if r >= 0 else (0, 0) for r in rows]
        if not spans:
            return np.empty(0, dtype=np.int64), np.empty(0)
        candidates = np.unique(np.concatenate([postings.indices[s:e] for s, e in spans]))
        log_likelihood = np.zeros(len(candidates))
        for t, weight, (start, end) in zip(term_ids, weights, spans):
            tf = np.zeros(len(candidates))
            tf[np.searchsorted(candidates, postings.indices[start:end])] = postings.data[start:end]
            part = np.log(tf + self.mu * self.background[t])
            log_likelihood += part if weight == 1.0 else weight * part
        log_likelihood -= sum(weights) * np.log(self.doc_lengths[candidates] + self.mu)  # n·1.0 is n, bit for bit
        return candidates, log_likelihood


MODEL = RankingModel(
    name="dirichlet",
    scorer=DirichletLM,
    defaults={"mu": 2000.0},
    ranges={"mu": Range(low_open=True)},  # mu 0 is the log of 0 for a document without a query term
    description="query likelihood with Dirichlet smoothing: mu the pseudo-count of the collection model",
)
