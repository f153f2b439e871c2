"""The sparse index as the stages hand it on: a term × document matrix of term frequencies with what ranking
models need of it, saved as a folder whose postings later stages memory-map.

The matrix is held as its three CSR arrays (`Postings`), not as scipy's csr_matrix: ranking reads only the arrays,
and importing scipy.sparse would weigh on every process that ranks or just schedules the graph.

Documents are ordered by id, so "ties broken by document id" is the matrix's own column order (see build.py for
the term order).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa

import argrank.lazylibs as lazylibs
from argrank.core.arrow_arrays import one_array
from argrank.core.atomic import atomic_path
from argrank.index.vocabulary import Vocabulary

if TYPE_CHECKING:
    import scipy.sparse as sp

# Bump when the folder's layout changes, so indexes cached in the old one are rebuilt rather than misread.
FORMAT = 3
POSTINGS_ARRAYS = ("indptr", "indices", "data")  # the CSR matrix's arrays, one .npy file each
# The terms and the documents' ids and lengths as Arrow IPC files, which load_index maps instead of decoding them
# in every process that ranks.
TERMS_FILE = "terms.arrow"
DOCS_FILE = "docs.arrow"


@dataclass(frozen=True, eq=False)
class Postings:
    """A term × document matrix in compressed sparse rows: row t's documents (column ids, ascending) are
    `indices[indptr[t]:indptr[t + 1]]`, their term frequencies the same slice of `data`."""

    indptr: np.ndarray
    indices: np.ndarray
    data: np.ndarray
    shape: tuple[int, int]

    @property
    def nnz(self) -> int:
        return len(self.indices)

    def row_sums(self) -> np.ndarray:
        """Each row's sum of `data`, as int64."""
        totals = np.zeros(len(self.data) + 1, dtype=np.int64)
        np.cumsum(self.data, out=totals[1:])
        return np.diff(totals[self.indptr])

    def matrix(self) -> sp.csr_matrix:
        """The same matrix as scipy's csr_matrix, sharing the arrays, for callers that need its algebra."""
        return lazylibs.scipy("sparse").csr_matrix((self.data, self.indices, self.indptr), shape=self.shape, copy=False)


@dataclass
class Index:
    """Row t of `postings` holds term t's documents (column ids) and frequencies."""

    postings: Postings
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
        return self.postings.row_sums()

    @cached_property
    def vocabulary(self) -> Vocabulary:
        return Vocabulary(self.terms)


def save_index(index: Index, path: Path) -> None:
    """Write the index as a folder, atomically: the postings as plain .npy arrays, which load_index maps."""
    with atomic_path(path) as tmp:
        tmp.mkdir()
        for name in POSTINGS_ARRAYS:
            np.save(tmp / f"{name}.npy", getattr(index.postings, name))
        _write_arrow(pa.table({"term": index.terms}), tmp / TERMS_FILE)
        _write_arrow(pa.table({"id": index.doc_ids, "length": index.doc_lengths}), tmp / DOCS_FILE)


def load_index(path: Path) -> Index:
    """The index of a folder, its postings memory-mapped read-only: a query reads only its terms' posting
    lists, so a ranking stage neither reads nor holds the whole matrix."""
    path = Path(path)
    terms = one_array(_map_arrow(path / TERMS_FILE).column("term"))
    docs = _map_arrow(path / DOCS_FILE)
    # Plain arrays over the maps (which they keep open): every slice of a np.memmap is another memmap object, and
    # a ranking slices a posting list per query term, thousands of them.
    indptr, indices, data = (np.load(path / f"{name}.npy", mmap_mode="r").view(np.ndarray) for name in POSTINGS_ARRAYS)
    return Index(
        postings=Postings(indptr, indices, data, (len(terms), docs.num_rows)),
        terms=terms,
        doc_ids=one_array(docs.column("id")),
        doc_lengths=docs.column("length").to_numpy(),
    )


def _write_arrow(table: pa.Table, path: Path) -> None:
    with pa.OSFile(str(path), "wb") as sink, pa.ipc.new_file(sink, table.schema) as writer:
        writer.write_table(table)


def _map_arrow(path: Path) -> pa.Table:
    """The table of an Arrow IPC file, its buffers in the mapped file (they keep the mapping after it is closed)."""
    with pa.memory_map(str(path)) as source:
        return pa.ipc.open_file(source).read_all()
