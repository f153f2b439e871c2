"""Okapi BM25 as rank-bm25's BM25Okapi computes it, bit for bit, including its idf floor for very common terms."""

from __future__ import annotations

import math
import mmap
from collections.abc import Sequence

import numpy as np

from argrank.index.statistics import CollectionStatistics
from argrank.index.store import Index
from argrank.kernels import Kernels, block_documents, choose
from argrank.kernels.bm25_numba import sample_length
from argrank.kernels.bm25_numpy import DAMAGED, UNTOUCHED
from argrank.retrieval.registry import Range, RankingModel
from argrank.retrieval.scorer import PostingsScorer
from argrank.retrieval.top_k import top_k

ROOM = 1 << 16  # candidates of queries ranked together (`top_many`) that the buffers hold before they are selected


class BM25(PostingsScorer):
    """Scores one query at a time in the kernels `kernels` chooses (argrank.kernels), into buffers of its own."""

    def __init__(
        self,
        index: Index,
        k1: float,
        b: float,
        epsilon: float,
        statistics: CollectionStatistics | None = None,
        kernels: str = "auto",
    ):
        super().__init__(index, statistics)
        self.kernels = choose(kernels)
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
        # Per document, once per ranker: rank-bm25's length term, k1·(1 − b + b·dl/avgdl), in its order of operations;
        # per posting, the tf factor that uses it (see kernels/bm25_numba.py). In place: a document-sized
        # temporary per step would be fresh memory for every ranker.
        self.norm = b * self.doc_lengths  # floats: make_ranker passes parameters as floats
        self.norm /= self.avgdl
        self.norm += 1 - b
        self.norm *= k1
        # Each posting's tf factor, kept from its term's second query on (kernels/bm25_numba.py): unwritten pages
        # of `_impacts` take no memory.
        self._impacts = _small_page_buffer(len(self.index.postings.indices))
        self._ready = np.zeros(len(self.index.postings.indptr) - 1, dtype=np.bool_)  # factors in `_impacts`
        self._seen = np.zeros(len(self.index.postings.indptr) - 1, dtype=np.bool_)  # queried before
        self._table = np.full(self.index.num_docs, UNTOUCHED)  # every document between queries
        # A query may list every document, after the candidates of queries listed before it (`top_many`).
        self._candidates = np.empty(self.index.num_docs + ROOM, dtype=np.int32)
        self._rows = np.zeros(0, dtype=np.int64)  # the posting rows of the query in the table
        self._scores = np.empty(self.index.num_docs + ROOM)
        self._block = block_documents()
        self._sample = np.empty(0)  # the largest sampled scores of a query (`top_candidates`), grown to its k

    def score(self, term_ids: list[int], weights: list[float] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """As Scorer.score; with `weights`, each term's part is multiplied by its weight (a query expanded with
        translations that count less than its own words)."""
        self._accumulate(term_ids, weights)
        n = self._collect(UNTOUCHED)
        return self._candidates[:n].copy(), self._scores[:n].copy()

    def top(self, term_ids: list[int], k: int) -> tuple[np.ndarray, np.ndarray]:
        """As Scorer.top. The kernels list a set of documents that holds the k best (kernels/bm25_numba.py's
        `top_candidates`: the documents scored in blocks that stay in the cache, and only those above a bar a sample
        of the scores sets listed), and top_k selects from those, the kernels ordering its ties."""
        if k <= 0:
            return top_k(self._candidates[:0], self._scores[:0], k, self.kernels)
        n = self._list(term_ids, k, 0)
        return top_k(self._candidates[:n], self._scores[:n], k, self.kernels)

    def top_many(self, queries: Sequence[list[int]], k: int) -> list[tuple[np.ndarray, np.ndarray]]:
        """As Scorer.top_many: the kernels list one query's candidates after another's, and top_k selects from them
        afterwards. The kernels, run back to back, find more of what they read still in the cache than with a
        selection between them."""
        if k <= 0:
            return [self.top(term_ids, k) for term_ids in queries]
        ranked: list[tuple[np.ndarray, np.ndarray]] = []
        listed: list[tuple[int, int]] = []  # where each query not yet selected from has its candidates
        start = 0
        for term_ids in queries:
            n = self._list(term_ids, k, start)
            listed.append((start, n))
            start += n
            if start > ROOM:  # the next query could list every document past `start`: select first
                ranked += self._select(listed, k)
                listed, start = [], 0
        return ranked + self._select(listed, k)

    def _select(self, listed: list[tuple[int, int]], k: int) -> list[tuple[np.ndarray, np.ndarray]]:
        """top_k of each query's candidates, listed in the buffers at (start, count)."""
        return [top_k(self._candidates[start : start + n], self._scores[start : start + n], k, self.kernels)
                for start, n in listed]

    def _list(self, term_ids: list[int], k: int, start: int) -> int:
        """List a set of the query's documents that holds its k best into the buffers from `start` on (see `top`);
        how many."""
        self._prepare(term_ids, None)
        if len(self._sample) < sample_length(k):
            self._sample = np.empty(sample_length(k))
        postings = self.index.postings
        n = self.kernels.top_candidates(
            postings.indptr, postings.indices, postings.data, self.norm, self.k1 + 1, self._impacts, self._cached,
            self._rows, self._idf, self._scale, self._table, int(k), self._block, self._sample,
            self._candidates[start:], self._scores[start:],
        )  # fmt: skip
        if n == DAMAGED:
            self._table.fill(UNTOUCHED)
            raise _damaged()
        return n

    def _prepare(self, term_ids: list[int], weights: list[float] | None) -> None:
        """The query's posting rows, idf, weights and whether each row's tf factors are kept (`_kept_factors`), for
        its terms that some document holds (a term no document of this index holds adds nothing)."""
        term_ids = np.asarray(term_ids, dtype=np.int64)
        rows = self.rows[term_ids] if len(term_ids) else term_ids
        scale = np.ones(len(term_ids)) if weights is None else np.asarray(weights, dtype=np.float64)
        present = rows >= 0
        self._rows, term_ids, self._scale = rows[present], term_ids[present], scale[present]
        self._idf = self.idf[term_ids]
        self._cached = self._kept_factors(self.kernels, self._rows)

    def _accumulate(self, term_ids: list[int], weights: list[float] | None) -> None:
        """Add the query's scores into the table; `_collect` then lists them (and clears it)."""
        self._prepare(term_ids, weights)
        postings = self.index.postings
        result = self.kernels.accumulate(
            postings.indptr, postings.indices, postings.data, self.norm, self.k1 + 1, self._impacts, self._cached,
            self._rows, self._idf, self._scale, self._table,
        )  # fmt: skip
        if result == DAMAGED:
            self._table.fill(UNTOUCHED)  # the table holds this query's partial sums: start afresh
            raise _damaged()

    def _collect(self, bar: float) -> int:
        """List the query's documents scoring at least `bar` into the buffers (`_candidates[:n]`, `_scores[:n]`) and
        clear the table; n."""
        postings = self.index.postings
        n = self.kernels.collect(postings.indptr, postings.indices, self._rows, self._table, bar, self._candidates,
                                 self._scores)  # fmt: skip
        if n == DAMAGED:
            self._table.fill(UNTOUCHED)
            raise _damaged()
        return n

    def _kept_factors(self, kernels: Kernels, rows: np.ndarray) -> np.ndarray:
        """Whether the accumulator reads each row's tf·(k1+1) / (tf + norm) from `_impacts`: a row's first query
        computes its factors in the accumulator and keeps none; its second writes them there, for every later one."""
        kept = self._ready[rows]
        if kept.all():
            return kept
        again = rows[~kept & self._seen[rows]]
        if len(again):
            missing = np.unique(again)
            postings = self.index.postings
            if kernels.impacts(postings.indptr, postings.indices, postings.data, missing, self.norm, self.k1 + 1,
                               self._impacts) == DAMAGED:  # fmt: skip
                raise _damaged()
            self._ready[missing] = True
        self._seen[rows] = True
        return self._ready[rows]


def _small_page_buffer(size: int) -> np.ndarray:
    """`size` float64s in anonymous memory, zeros until written, without the huge-page advice numpy gives large
    arrays: in huge pages, a run's queries (a few postings in most regions) would make the whole buffer resident;
    in small pages they take about what they write."""
    return np.frombuffer(mmap.mmap(-1, max(size, 1) * 8), dtype=np.float64)[:size]


def _damaged() -> ValueError:
    return ValueError("the index is damaged: a posting list points outside it (delete it to rebuild it)")


MODEL = RankingModel(
    name="bm25",
    compiled=True,
    scorer=BM25,
    defaults={"k1": 1.2, "b": 0.75, "epsilon": 0.25},
    # b beyond [0, 1] and a negative k1 make the length or frequency factor negative: scores rank nonsense.
    ranges={"k1": Range(), "b": Range(0, 1), "epsilon": Range()},
    description="Okapi BM25 (rank-bm25's BM25Okapi): k1 term-frequency saturation, b length normalisation, "
    "epsilon the idf floor's share of the average idf",
)
