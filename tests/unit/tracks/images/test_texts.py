"""tracks/images/texts.py: an image's stance text, its context and searches, read by id from the table."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from argrank.tracks.images.texts import STANCE_FIELDS, stance_texts


def _table(tmp_path: Path, rows: list[tuple[str, str | None, str | None, str]]) -> Path:
    """An ingested table's columns that matter here: id, context, queries and the page text."""
    ids, contexts, queries, pages = (list(column) for column in zip(*rows))
    path = tmp_path / "images.parquet"
    table = pa.table(
        {"id": ids, "context": contexts, "queries": queries, "page_text": pages},
        schema=pa.schema([(name, pa.string()) for name in ("id", "context", "queries", "page_text")]),
    )
    pq.write_table(table, path, row_group_size=2)  # several row groups: ids are found in each
    return path


ROWS = [
    ("I01", "A chart of rising wages.\nCaption: wages", "minimum wage\nwage increase", "whole page one"),
    ("I02", None, "school uniforms", "whole page two"),
    ("I03", "A protest sign.", None, "whole page three"),
    ("I04", None, None, "whole page four"),
    ("I05", "", "", "whole page five"),
]


def test_the_stance_fields_are_the_context_and_the_searches_not_the_page():
    assert STANCE_FIELDS == ("context", "queries")


def test_context_then_searches_joined_by_a_newline(tmp_path):
    path = _table(tmp_path, ROWS)
    assert stance_texts(path, {"I01"}) == {
        "I01": "A chart of rising wages.\nCaption: wages\nminimum wage\nwage increase"
    }


def test_a_missing_field_is_empty_and_never_the_text_none(tmp_path):
    path = _table(tmp_path, ROWS)
    assert stance_texts(path, {"I02", "I03", "I04", "I05"}) == {
        "I02": "\nschool uniforms",
        "I03": "A protest sign.\n",
        "I04": "\n",
        "I05": "\n",
    }


def test_only_the_ids_asked_for_and_held_by_the_table_are_returned(tmp_path):
    path = _table(tmp_path, ROWS)
    assert set(stance_texts(path, {"I01", "I05", "I99"})) == {"I01", "I05"}
    assert stance_texts(path, set()) == {}


def test_the_page_text_is_never_part_of_it(tmp_path):
    path = _table(tmp_path, ROWS)
    assert not any("whole page" in text for text in stance_texts(path, {row[0] for row in ROWS}).values())
