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

from argrank.core.atomic import atomic_path

# Bump when the folder's layout changes, so indexes cached in the old one are rebuilt rather than misread.
FORMAT = 2
POSTINGS_ARRAYS = ("indptr", "indices", "data")  # the CSR matrix's arrays, one .npy file each
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


TOKENS_ELEMENT = "tokens.list.element"  # the token table's term strings, as Parquet names the list's items


def read_tokens(path: Path) -> tuple[pa.Array, pa.ChunkedArray]:
    """A token table's ids and token lists, in table order, each chunk's terms read as a dictionary: every
    distinct term string is held once per chunk instead of once per token, which at args.me size is most of
    the index stage's memory (0.17 GB instead of about 1 GB for 37 M tokens)."""
    table = pq.read_table(path, read_dictionary=[TOKENS_ELEMENT])
    return table.column("id").combine_chunks(), table.column("tokens")


def build_index(ids: pa.Array, tokens: pa.ListArray | pa.ChunkedArray) -> Index:
    """Index documents given as ids and their token lists (any order; the index sorts by id).

    Terms are numbered by their first occurrence over the documents in id order. The work is on integer term
    codes, not strings: the tokens are coded once, gathered into id order, renumbered, and laid out per
    document (CSC, one column per document as the tokens come) before turning into per-term postings."""
    tokens = tokens if isinstance(tokens, pa.ChunkedArray) else pa.chunked_array([tokens])
    order = pc.sort_indices(ids)
    ids = ids.take(order)
    if len(pc.unique(ids)) != len(ids):
        raise ValueError("document ids are not unique")
    lengths = pc.list_value_length(tokens).fill_null(0).to_numpy().astype(np.int64)
    codes, dictionary = _token_codes(tokens)
    in_order = pa.ListArray.from_arrays(pa.array(_offsets(lengths)), pa.array(codes)).take(order).flatten()
    del codes
    renumbered = pc.dictionary_encode(in_order)  # its dictionary: the old codes, by first occurrence in id order
    del in_order
    lengths = lengths[order.to_numpy()]
    term_of_token = renumbered.indices.to_numpy()
    by_document = sp.csc_matrix(
        (np.ones(len(term_of_token), dtype=np.int32), term_of_token, _offsets(lengths)),
        shape=(len(renumbered.dictionary), len(ids)),
    )
    del term_of_token
    postings = by_document.tocsr()
    del by_document
    postings.sum_duplicates()
    return Index(postings=postings, terms=dictionary.take(renumbered.dictionary), doc_ids=ids, doc_lengths=lengths)


def _offsets(lengths: np.ndarray) -> np.ndarray:
    offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    return offsets


def _token_codes(tokens: pa.ChunkedArray) -> tuple[np.ndarray, pa.Array]:
    """Every token as a code into one array of distinct term strings, in table order. Chunks read as dictionaries
    (read_tokens) keep their codes, mapped through the union of their dictionaries; plain strings are coded here."""
    values = [chunk.flatten() for chunk in tokens.chunks]
    values = [v if pa.types.is_dictionary(v.type) else pc.dictionary_encode(v) for v in values]
    union = pc.dictionary_encode(pa.chunked_array([v.dictionary for v in values], type=pa.string())).combine_chunks()
    to_union = union.indices.to_numpy(zero_copy_only=False)
    codes = np.empty(sum(len(v) for v in values), dtype=np.int32)
    position = start = 0
    for v in values:
        local = v.indices.to_numpy(zero_copy_only=False)
        codes[position : position + len(v)] = to_union[start + local]
        position += len(v)
        start += len(v.dictionary)
    return codes, union.dictionary


def save_index(index: Index, path: Path) -> None:
    """Write the index as a folder, atomically: the postings as plain .npy arrays, which load_index maps."""
    with atomic_path(path) as tmp:
        tmp.mkdir()
        for name in POSTINGS_ARRAYS:
            np.save(tmp / f"{name}.npy", getattr(index.postings, name))
        pq.write_table(pa.table({"term": index.terms}), tmp / TERMS_FILE)
        pq.write_table(pa.table({"id": index.doc_ids, "length": index.doc_lengths}), tmp / DOCS_FILE)


def load_index(path: Path) -> Index:
    """The index of a folder, its postings memory-mapped read-only: a query reads only its terms' posting
    lists, so a ranking stage neither reads nor holds the whole matrix (at args.me size, 0.3 GB and about a
    second saved per ranking)."""
    path = Path(path)
    terms = pq.read_table(path / TERMS_FILE).column("term").combine_chunks()
    docs = pq.read_table(path / DOCS_FILE)
    indptr, indices, data = (np.load(path / f"{name}.npy", mmap_mode="r") for name in POSTINGS_ARRAYS)
    return Index(
        postings=sp.csr_matrix((data, indices, indptr), shape=(len(terms), docs.num_rows), copy=False),
        terms=terms,
        doc_ids=docs.column("id").combine_chunks(),
        doc_lengths=docs.column("length").to_numpy(),
    )
