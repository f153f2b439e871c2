"""Collection statistics merged from shards' indexes: the unsharded index's terms, order and counts, saved whole."""

from __future__ import annotations

import pyarrow as pa
import pytest

from argrank.index.build import build_index
from argrank.index.statistics import (
    CollectionStatistics,
    load_statistics,
    merge_statistics,
    save_statistics,
    term_table,
)

DOCS = {"a": ["sun", "rain"], "b": [], "c": ["wind", "sun", "sun"], "d": ["rain", "snow"], "e": ["wind"]}


def _index(ids: list[str]):
    return build_index(pa.array(ids), pa.array([DOCS[doc] for doc in ids], type=pa.list_(pa.string())))


def _shards():
    return [_index(["c", "e"]), _index(["a", "d"]), _index(["b"])]  # not in id order, one without terms


def test_one_shards_term_table_by_hand():
    table = term_table(_index(["d", "c", "e"]))  # terms: wind, sun (c), rain, snow (d)
    assert table.to_pydict() == {
        "term": ["wind", "sun", "rain", "snow"],
        "first_doc": ["c", "c", "d", "d"],
        "local": [0, 1, 2, 3],
        "df": [2, 1, 1, 1],
        "cf": [2, 2, 1, 1],
    }


def test_merged_statistics_are_the_unsharded_indexs():
    whole = _index(list(DOCS))
    merged = merge_statistics(_shards())
    assert merged.terms.to_pylist() == whole.terms.to_pylist() == ["sun", "rain", "wind", "snow"]
    assert merged.document_frequencies.tolist() == whole.document_frequencies.tolist() == [2, 2, 2, 1]
    assert merged.collection_frequencies.tolist() == whole.collection_frequencies.tolist() == [3, 2, 2, 1]
    assert (merged.num_docs, merged.total_length) == (whole.num_docs, whole.total_length) == (5, 8)
    own = CollectionStatistics.of_index(whole)
    assert own.collection_frequencies is None and own.terms.to_pylist() == merged.terms.to_pylist()
    assert merged.vocabulary is merged.vocabulary  # built once


def test_shards_sharing_a_document_are_refused():
    with pytest.raises(ValueError, match="^document ids are not unique across shards$"):
        merge_statistics([_index(["a", "b"]), _index(["b", "c"])])


def test_saved_statistics_load_back_as_they_were(tmp_path):
    merged = merge_statistics(_shards())
    save_statistics(merged, tmp_path / "statistics.parquet")
    loaded = load_statistics(tmp_path / "statistics.parquet")
    assert loaded.terms.to_pylist() == merged.terms.to_pylist()
    assert loaded.document_frequencies.tolist() == merged.document_frequencies.tolist()
    assert loaded.collection_frequencies.tolist() == merged.collection_frequencies.tolist()
    assert (loaded.num_docs, loaded.total_length) == (5, 8)
    assert [path.name for path in tmp_path.iterdir()] == ["statistics.parquet"]
