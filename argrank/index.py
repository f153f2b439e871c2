"""The sparse index: a term × document matrix of term frequencies and the statistics BM25 and query likelihood need.

Documents are ordered by id, so "ties broken by document id" is the matrix's own column order. Term ids
follow first occurrence over that document order, which is the order rank-bm25 sums its idf values in.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import scipy.sparse as sp

from argrank.atomic import atomic_path

MATRIX_FILE = "postings.npz"
TERMS_FILE = "terms.parquet"
DOCS_FILE = "docs.parquet"


@dataclass
class Index:
    """Row t of `postings` holds term t's documents (column ids) and frequencies."""

    postings: sp.csr_matrix
    terms: pa.Array
    doc_ids: pa.Array
    doc_lengths: np.ndarray

    @property
    def num_docs(self) -> int:
        return len(self.doc_lengths)

    @property
    def total_length(self) -> int:
        return int(self.doc_lengths.sum())

    @property
    def document_frequencies(self) -> np.ndarray:
        return np.diff(self.postings.indptr)

    @property
    def collection_frequencies(self) -> np.ndarray:
        return np.asarray(self.postings.sum(axis=1), dtype=np.int64).ravel()

    @cached_property
    def _term_lookup(self) -> dict[str, int]:
        return {t: i for i, t in enumerate(self.terms.to_pylist())}

    def term_ids(self, terms: list[str]) -> list[int]:
        """Ids of the given terms in query order, repeats kept, unknown terms dropped."""
        return [self._term_lookup[t] for t in terms if t in self._term_lookup]


def build_index(ids: pa.Array, tokens: pa.ListArray) -> Index:
    """Index documents given as ids and their token lists (any order; the index sorts by id)."""
    order = pc.sort_indices(ids)
    ids = ids.take(order)
    tokens = tokens.take(order)
    if len(pc.unique(ids)) != len(ids):
        raise ValueError("document ids are not unique")
    lengths = pc.list_value_length(tokens).fill_null(0).to_numpy().astype(np.int64)
    encoded = pc.dictionary_encode(tokens.flatten())
    term_of_token = encoded.indices.to_numpy().astype(np.int32, copy=False)
    doc_of_token = np.repeat(np.arange(len(ids), dtype=np.int32), lengths)
    counts = np.ones(len(term_of_token), dtype=np.int32)
    postings = sp.csr_matrix(
        (counts, (term_of_token, doc_of_token)), shape=(len(encoded.dictionary), len(ids))
    )
    postings.sum_duplicates()
    return Index(postings=postings, terms=encoded.dictionary, doc_ids=ids, doc_lengths=lengths)


def save_index(index: Index, path: Path) -> None:
    """Write the index as a folder, atomically."""
    with atomic_path(path) as tmp:
        tmp.mkdir()
        sp.save_npz(tmp / MATRIX_FILE, index.postings, compressed=False)
        pq.write_table(pa.table({"term": index.terms}), tmp / TERMS_FILE)
        pq.write_table(pa.table({"id": index.doc_ids, "length": index.doc_lengths}), tmp / DOCS_FILE)


def load_index(path: Path) -> Index:
    path = Path(path)
    postings = sp.load_npz(path / MATRIX_FILE).tocsr()
    terms = pq.read_table(path / TERMS_FILE).column("term").combine_chunks()
    docs = pq.read_table(path / DOCS_FILE)
    return Index(
        postings=postings,
        terms=terms,
        doc_ids=docs.column("id").combine_chunks(),
        doc_lengths=docs.column("length").to_numpy(),
    )
