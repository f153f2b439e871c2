"""Okapi BM25 as rank-bm25's BM25Okapi computes it, bit for bit, including its idf floor for very common terms."""

from __future__ import annotations

import math

import numpy as np

from argrank.index.statistics import CollectionStatistics
from argrank.index.store import Index
from argrank.retrieval.registry import Range, RankingModel
from argrank.retrieval.scorer import PostingsScorer


class BM25(PostingsScorer):
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

    def score(self, term_ids: list[int], weights: list[float] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """As Scorer.score; with `weights`, each term's part is multiplied by its weight (a query expanded with
        translations that count less than its own words)."""
        postings = self.index.postings
        scores = np.zeros(self.index.num_docs)
        touched = np.zeros(self.index.num_docs, dtype=bool)
        k1, b = self.k1, self.b
        for place, t in enumerate(term_ids):
            row = self.rows[t]
            if row < 0:  # no document of this index has the term
                continue
            start, end = postings.indptr[row], postings.indptr[row + 1]
            docs = postings.indices[start:end]
            tf = postings.data[start:end].astype(np.float64)
            dl = self.doc_lengths[docs]
            part = self.idf[t] * (tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / self.avgdl)))
            scores[docs] += part if weights is None else weights[place] * part
            touched[docs] = True
        candidates = np.flatnonzero(touched)
        return candidates, scores[candidates]


MODEL = RankingModel(
    name="bm25",
    scorer=BM25,
    defaults={"k1": 1.2, "b": 0.75, "epsilon": 0.25},
    # b beyond [0, 1] and a negative k1 make the length or frequency factor negative: scores rank nonsense.
    ranges={"k1": Range(), "b": Range(0, 1), "epsilon": Range()},
    description="Okapi BM25 (rank-bm25's BM25Okapi): k1 term-frequency saturation, b length normalisation, "
    "epsilon the idf floor's share of the average idf",
)
