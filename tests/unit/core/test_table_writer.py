"""Rows to one Parquet table: blank texts dropped, the first of a repeated id kept, both counted and warned once."""

from __future__ import annotations

import logging

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from argrank.core.errors import InputError
from argrank.core.table_writer import EXAMPLES, write_rows

SCHEMA = pa.schema([("id", pa.string()), ("title", pa.string()), ("text", pa.string())])


def test_rows_are_written_in_order_across_batches(tmp_path):
    rows = [(f"d{i}", f"title {i}", f"text {i}") for i in range(7)]
    stats = write_rows(iter(rows), SCHEMA, tmp_path / "docs.parquet", "text", "documents", "corpus.jsonl", batch_size=3)
    table = pq.read_table(tmp_path / "docs.parquet")
    assert table.schema == SCHEMA
    assert [tuple(row.values()) for row in table.to_pylist()] == rows
    assert (stats.rows, stats.duplicates, stats.empty) == (7, 0, 0)


def test_blank_texts_and_repeated_ids_are_dropped_counted_and_warned_once_each(tmp_path, caplog):
    rows = [
        ("a", "A", "first a"),
        ("b", "B", "  \n"),
        ("a", "A again", "second a"),
        ("c", "C", ""),
        ("d", "D", None),
        ("e", "E", "kept"),
    ]
    with caplog.at_level(logging.WARNING):
        stats = write_rows(rows, SCHEMA, tmp_path / "docs.parquet", "text", "documents", "corpus.jsonl", batch_size=2)
    assert pq.read_table(tmp_path / "docs.parquet").to_pylist() == [
        {"id": "a", "title": "A", "text": "first a"},
        {"id": "e", "title": "E", "text": "kept"},
    ]
    assert (stats.rows, stats.duplicates, stats.empty) == (2, 1, 3)
    assert (stats.duplicate_ids, stats.empty_ids) == (["a"], ["b", "c", "d"])
    assert [record.getMessage() for record in caplog.records] == [
        "corpus.jsonl: dropped 1 documents with an id seen before (kept the first), e.g. a",
        "corpus.jsonl: dropped 3 documents with empty text text, e.g. b, c, d",
    ]


def test_a_blank_text_counts_before_a_repeated_id(tmp_path):
    stats = write_rows([("a", "A", "x"), ("a", "A", " ")], SCHEMA, tmp_path / "t.parquet", "text", "rows", "src")
    assert (stats.rows, stats.duplicates, stats.empty) == (1, 0, 1)


def test_only_the_first_few_dropped_ids_are_kept_as_examples(tmp_path):
    rows = [("a", "A", "x")] + [("a", "A", "x")] * 3 + [(f"blank{i}", "B", "") for i in range(EXAMPLES + 2)]
    stats = write_rows(rows, SCHEMA, tmp_path / "t.parquet", "text", "rows", "src")
    assert stats.empty == EXAMPLES + 2 and stats.empty_ids == [f"blank{i}" for i in range(EXAMPLES)]
    assert stats.duplicates == 3 and stats.duplicate_ids == ["a", "a", "a"]


def test_without_a_text_column_blank_texts_are_kept(tmp_path):
    stats = write_rows([("a", "", ""), ("b", None, None)], SCHEMA, tmp_path / "t.parquet", None, "rows", "src")
    assert stats.rows == 2 and stats.empty == 0
    assert pq.read_table(tmp_path / "t.parquet").column("text").to_pylist() == ["", None]


def test_a_source_with_no_row_left_is_an_input_error_and_leaves_no_table(tmp_path):
    with pytest.raises(InputError) as error:
        write_rows([("a", "A", " ")], SCHEMA, tmp_path / "t.parquet", "text", "arguments", "args.json")
    assert str(error.value) == "args.json: no arguments with text text: nothing to index"
    with pytest.raises(InputError, match="^src: no rows: nothing to index$"):
        write_rows([], SCHEMA, tmp_path / "t.parquet", None, "rows", "src")
    assert list(tmp_path.iterdir()) == []
