"""The token table's terms: a JSON list in the file's metadata, which a table of any other origin lacks."""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from argrank.core.errors import InputError
from argrank.formats.token_table import TERMS_KEY, TOKENS_FORMAT, TOKENS_SCHEMA, read_terms
from argrank.index.build import read_tokens


def test_a_parquet_file_without_terms_is_no_token_table(tmp_path):
    pq.write_table(pa.table({"id": ["a"], "tokens": pa.array([[0]], pa.list_(pa.int32()))}), tmp_path / "t.parquet")
    with pytest.raises(InputError, match="not a token table"):
        read_tokens(tmp_path / "t.parquet")


def test_the_terms_are_read_from_the_metadata_in_code_order():
    metadata = {TERMS_KEY.encode(): json.dumps(["zoo", "cruel", "ü"]).encode(), b"other": b"x"}
    terms = read_terms("t.parquet", metadata)
    assert terms.type == pa.string() and terms.to_pylist() == ["zoo", "cruel", "ü"]


@pytest.mark.parametrize("metadata", [None, {}, {b"pandas": b"{}"}])
def test_a_file_without_the_terms_is_refused_naming_the_format(metadata):
    with pytest.raises(InputError) as error:
        read_terms("old.parquet", metadata)
    assert str(error.value) == (
        f"old.parquet: not a token table of format {TOKENS_FORMAT} (no 'argrank.terms' in its metadata)"
    )


def test_a_table_written_with_its_terms_reads_back_as_term_lists(tmp_path):
    table = pa.table(
        {"id": ["a", "b"], "tokens": pa.array([[0, 1, 0], []], pa.list_(pa.int32()))}, schema=TOKENS_SCHEMA
    )
    pq.write_table(table.replace_schema_metadata({TERMS_KEY: json.dumps(["zoo", "cruel"])}), tmp_path / "t.parquet")
    ids, tokens = read_tokens(tmp_path / "t.parquet")
    assert ids.to_pylist() == ["a", "b"] and tokens.to_pylist() == [["zoo", "cruel", "zoo"], []]
