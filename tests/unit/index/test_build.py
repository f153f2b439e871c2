"""Building the index: documents in id order, terms numbered by first occurrence over them, frequencies by hand."""

from __future__ import annotations

import json

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from argrank.formats.token_table import TERMS_KEY, TOKENS_SCHEMA
from argrank.index.build import build_index, index_codes, read_token_codes, read_tokens
from argrank.index.store import Index

IDS = pa.array(["c", "a", "b", "d"])
TOKENS = pa.array([["x", "y", "x"], ["y", "z"], [], None], type=pa.list_(pa.string()))


def _postings(index: Index) -> dict[str, dict[str, int]]:
    """term → document id → frequency, read from the compressed rows."""
    postings, ids = index.postings, index.doc_ids.to_pylist()
    rows = {}
    for term, (start, stop) in zip(index.terms.to_pylist(), zip(postings.indptr[:-1], postings.indptr[1:])):
        rows[term] = {ids[doc]: int(tf) for doc, tf in zip(postings.indices[start:stop], postings.data[start:stop])}
    return rows


def test_documents_sorted_by_id_and_terms_numbered_by_first_occurrence_in_that_order():
    index = build_index(IDS, TOKENS)
    assert index.doc_ids.to_pylist() == ["a", "b", "c", "d"]
    assert index.terms.to_pylist() == ["y", "z", "x"]  # a holds y and z, then c first holds x
    assert index.doc_lengths.tolist() == [2, 0, 3, 0]  # an empty and a null token list alike
    assert _postings(index) == {"y": {"a": 1, "c": 1}, "z": {"a": 1}, "x": {"c": 2}}
    assert index.postings.shape == (3, 4) and index.postings.nnz == 4
    assert index.document_frequencies.tolist() == [2, 1, 1]
    assert index.collection_frequencies.tolist() == [2, 1, 2]
    assert (index.num_docs, index.total_length) == (4, 5)


def test_postings_list_each_terms_documents_in_ascending_order():
    ids = pa.array([f"d{i:02d}" for i in range(20)][::-1])
    tokens = pa.array([["t"] * (i % 3 + 1) for i in range(20)], type=pa.list_(pa.string()))
    index = build_index(ids, tokens)
    assert index.postings.indices.tolist() == list(range(20))
    assert index.postings.data.tolist() == [(19 - doc) % 3 + 1 for doc in range(20)]


def test_chunks_coded_apart_give_the_same_index_as_one_chunk():
    one = build_index(IDS, TOKENS)
    chunked = build_index(IDS, pa.chunked_array([TOKENS.slice(0, 1), TOKENS.slice(1)]))
    assert chunked.terms.to_pylist() == one.terms.to_pylist()
    assert _postings(chunked) == _postings(one)
    assert chunked.doc_lengths.tolist() == one.doc_lengths.tolist()


def test_a_repeated_document_id_is_refused():
    with pytest.raises(ValueError, match="^document ids are not unique$"):
        build_index(pa.array(["a", "b", "a"]), pa.array([["x"], ["y"], ["z"]]))


def test_an_empty_collection_is_an_empty_index():
    index = build_index(pa.array([], pa.string()), pa.array([], pa.list_(pa.string())))
    assert (index.num_docs, len(index.terms), index.postings.shape) == (0, 0, (0, 0))


def test_a_token_table_indexes_the_same_read_as_codes_or_as_term_lists(tmp_path):
    path = tmp_path / "tokens.parquet"
    terms = ["zoo", "cruel", "cage"]
    codes = pa.array([[0, 1, 0], [2], [], [1, 2, 2]], type=pa.list_(pa.int32()))
    table = pa.table({"id": ["d", "b", "c", "a"], "tokens": codes}, schema=TOKENS_SCHEMA)
    pq.write_table(table.replace_schema_metadata({TERMS_KEY: json.dumps(terms)}), path, row_group_size=3)
    coded = read_token_codes(path)
    assert coded.ids.to_pylist() == ["d", "b", "c", "a"] and coded.lengths.tolist() == [3, 1, 0, 3]
    assert coded.codes.tolist() == [0, 1, 0, 2, 1, 2, 2] and coded.dictionary.to_pylist() == terms
    from_codes, from_lists = index_codes(coded), build_index(*read_tokens(path))
    assert from_codes.terms.to_pylist() == from_lists.terms.to_pylist() == ["cruel", "cage", "zoo"]
    assert (
        _postings(from_codes)
        == _postings(from_lists)
        == {
            "cruel": {"a": 1, "d": 1},
            "cage": {"a": 2, "b": 1},
            "zoo": {"d": 2},
        }
    )
    assert np.array_equal(from_codes.doc_lengths, from_lists.doc_lengths)
