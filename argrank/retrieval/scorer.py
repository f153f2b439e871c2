"""What a ranking model is to the search: a `Scorer` turns a query's term ids into candidate documents and
their scores. `PostingsScorer` is the base the registered models share: an index to score, the collection's
statistics (the whole collection's where the index is one shard of it), and the map between their terms.

Scores are accumulated term by term over posting lists only; a document that matches no query term is not a
candidate.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from argrank.index.statistics import CollectionStatistics
from argrank.index.store import Index
from argrank.retrieval.top_k import top_k


class Scorer(Protocol):
    """The contract `search.rank_queries` relies on."""

    def term_ids(self, terms: Iterable[str]) -> list[int]:
        """The ids `score` takes for analysed query terms, in query order, repeats kept, unknown terms dropped."""
        ...

    def term_ids_of_lists(self, lists: pa.Array | pa.ChunkedArray) -> list[list[int]]:
        """`term_ids` of each list of a list<string> column, the queries of a run at once."""
        ...

    def score(self, term_ids: list[int], weights: list[float] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Candidate documents (the index's column ids, each once, in any order) and their scores; repeated query
        term ids count again, and with `weights` each term's part is multiplied by its weight."""
        ...

    def top(self, term_ids: list[int], k: int) -> tuple[np.ndarray, np.ndarray]:
        """The k best candidates and their scores, best first, ties by document id (`search.top_k` of `score`)."""
        ...

    def top_many(self, queries: Sequence[list[int]], k: int) -> list[tuple[np.ndarray, np.ndarray]]:
        """`top` of each query, in order: a run's queries ranked together, which a model may do faster than one by
        one."""
        ...


class PostingsScorer:
    """Query term ids are the statistics' ids; without statistics the index's own are used (the unsharded graph)."""

    def __init__(self, index: Index, statistics: CollectionStatistics | None = None):
        self.index = index
        self.statistics = statistics if statistics is not None else CollectionStatistics.of_index(index)
        self.rows = postings_rows(index, self.statistics)
        # The index's integers: a model's arithmetic turns them into floats exactly where it uses them.
        self.doc_lengths = index.doc_lengths

    def term_ids(self, terms: Iterable[str]) -> list[int]:
        return self.statistics.vocabulary.ids(terms)

    def term_ids_of_lists(self, lists: pa.Array | pa.ChunkedArray) -> list[list[int]]:
        return self.statistics.vocabulary.ids_of_lists(lists)

    def top(self, term_ids: list[int], k: int) -> tuple[np.ndarray, np.ndarray]:
        return top_k(*self.score(term_ids), k)

    def top_many(self, queries: Sequence[list[int]], k: int) -> list[tuple[np.ndarray, np.ndarray]]:
        return [self.top(term_ids, k) for term_ids in queries]


def postings_rows(index: Index, statistics: CollectionStatistics) -> np.ndarray:
    """For each term of the statistics, its row of the index's postings, or -1 where the index lacks it."""
    if statistics.terms.equals(index.terms):
        return np.arange(len(index.terms))
    found = pc.index_in(statistics.terms, value_set=index.terms)
    return pc.fill_null(found, -1).to_numpy().astype(np.int64)
