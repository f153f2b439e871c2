"""Build the index from token lists: documents ordered by id, terms numbered by first occurrence over them.

That term order is the one rank-bm25 sums its idf values in, and the document order is what "ties broken by
document id" means for the ranking models.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from argrank.core.parquet_file import open_parquet
from argrank.formats.token_table import read_terms
from argrank.index.store import Index, Postings
from argrank.kernels import ahead_of_time
from argrank.kernels.inversion import invert

BLOCK = 1 << 22  # codes mapped at a time


@dataclass
class TokenCodes:
    """A token table reduced to what the index needs: per document (table order) its id and length, and every
    token as a code into `dictionary`, the distinct term strings."""

    ids: pa.Array
    lengths: np.ndarray
    codes: np.ndarray
    dictionary: pa.Array


def read_tokens(path: Path) -> tuple[pa.Array, pa.ChunkedArray]:
    """A token table's ids and token lists, in table order, each chunk's terms a dictionary array over the table's
    terms (argrank.text.tokenize)."""
    file = open_parquet(path, streaming=True)
    terms = read_terms(path, file.metadata.metadata)
    ids, chunks = [], []
    for group in range(file.num_row_groups):
        table = file.read_row_group(group, columns=["id", "tokens"])
        ids.append(table.column("id"))
        for chunk in table.column("tokens").chunks:
            values = pa.DictionaryArray.from_arrays(chunk.values, terms)  # the offsets index the whole values
            chunks.append(pa.ListArray.from_arrays(chunk.offsets, values, mask=chunk.is_null()))
    kind = pa.list_(pa.dictionary(pa.int32(), pa.string()))
    return pa.chunked_array(ids, type=pa.string()).combine_chunks(), pa.chunked_array(chunks, type=kind)


def read_token_codes(path: Path) -> TokenCodes:
    """A token table's codes, read one row group at a time into one array sized from the file's metadata, so that
    beside the codes (4 bytes a token) only one row group's lists are ever held (gathered and joined, the codes
    would be held twice)."""
    file = open_parquet(path, streaming=True)
    terms = read_terms(path, file.metadata.metadata)
    leaf = file.metadata.num_columns - 1  # the tokens' element column, after the ids
    # An upper bound: the leaf column counts a slot for each empty or null list too.
    codes = np.empty(sum(file.metadata.row_group(g).column(leaf).num_values for g in range(file.num_row_groups)),
                     dtype=np.int32)  # fmt: skip
    ids, lengths, filled = [], [], 0
    for group in range(file.num_row_groups):
        table = file.read_row_group(group, columns=["id", "tokens"], use_threads=False)
        ids.append(table.column("id"))
        for chunk in table.column("tokens").chunks:
            lengths.append(pc.list_value_length(chunk).fill_null(0).to_numpy().astype(np.int64))
            values = chunk.flatten().to_numpy()
            codes[filled : filled + len(values)] = values
            filled += len(values)
    return TokenCodes(
        pa.chunked_array(ids, type=pa.string()).combine_chunks(),
        np.concatenate(lengths) if lengths else np.zeros(0, dtype=np.int64),
        codes[:filled],
        terms,
    )


def build_index(ids: pa.Array, tokens: pa.ListArray | pa.ChunkedArray) -> Index:
    """Index documents given as ids and their token lists (any order; the index sorts by id): see index_codes."""
    tokens = tokens if isinstance(tokens, pa.ChunkedArray) else pa.chunked_array([tokens])
    coder = _Coder(sum(len(chunk.flatten()) for chunk in tokens.chunks))
    for chunk in tokens.chunks:
        coder.add(chunk)
    return index_codes(coder.finish(ids))


def index_codes(tokens: TokenCodes) -> Index:
    """The index of coded token lists. Terms are numbered by their first occurrence over the documents in id
    order; the work is on the integer codes, not strings (kernels/inversion.py, built ahead of time where
    `make kernels` built it)."""

    ids = tokens.ids
    order = pc.sort_indices(ids)
    ids = ids.take(order)
    if len(pc.unique(ids)) != len(ids):
        raise ValueError("document ids are not unique")
    row_order = order.to_numpy().astype(np.int64)
    offsets = _offsets(tokens.lengths)
    indptr, indices, data, term_codes = invert(tokens.codes, offsets, row_order, len(tokens.dictionary),
                                               ahead_of_time.load())  # fmt: skip
    postings = Postings(indptr, indices, data, (len(term_codes), len(ids)))
    terms = tokens.dictionary.take(pa.array(term_codes))
    return Index(postings=postings, terms=terms, doc_ids=ids, doc_lengths=tokens.lengths[row_order])


def _offsets(lengths: np.ndarray) -> np.ndarray:
    offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    return offsets


class _Coder:
    """Codes token lists chunk by chunk into one array: a chunk read as a dictionary (read_tokens) keeps its codes,
    plain strings are coded here; at the end every code is mapped into the union of the chunks' dictionaries."""

    def __init__(self, capacity: int):
        self.codes = np.empty(capacity, dtype=np.int32)
        self.position = self.start = 0
        self.lengths: list[np.ndarray] = []
        self.dictionaries: list[pa.Array] = []

    def add(self, chunk: pa.ListArray) -> None:
        self.lengths.append(pc.list_value_length(chunk).fill_null(0).to_numpy().astype(np.int64))
        values = chunk.flatten()
        values = values if pa.types.is_dictionary(values.type) else pc.dictionary_encode(values)
        local = values.indices.to_numpy(zero_copy_only=False)
        self.codes[self.position : self.position + len(local)] = local + self.start  # into the dictionaries in turn
        self.position += len(local)
        self.start += len(values.dictionary)
        self.dictionaries.append(values.dictionary)

    def finish(self, ids: pa.Array) -> TokenCodes:
        union = pc.dictionary_encode(pa.chunked_array(self.dictionaries, type=pa.string())).combine_chunks()
        to_union = union.indices.to_numpy(zero_copy_only=False)
        codes = self.codes[: self.position]
        for block in range(0, len(codes), BLOCK):  # in place, a block at a time: no second array of codes
            codes[block : block + BLOCK] = to_union[codes[block : block + BLOCK]]
        lengths = np.concatenate(self.lengths) if self.lengths else np.zeros(0, dtype=np.int64)
        return TokenCodes(ids, lengths, codes, union.dictionary)
