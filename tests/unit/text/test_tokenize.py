"""The tokenize stage: a document table's chosen fields through the analyzer into a token table of term codes."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from argrank.index.build import read_tokens
from argrank.text.analyzer import Analyzer
from argrank.text.multilingual import make_analyzer
from argrank.text.tokenize import EXTRA, LANGUAGE, document_texts, source_columns, tokenize_table

EXTRAS = pa.array([[("doc2query", "why zoos")], [], None], type=pa.map_(pa.string(), pa.string()))


@pytest.fixture(scope="module")
def analyzer() -> Analyzer:
    return Analyzer("en")


def test_tokenize_table_streams_ids_and_token_lists(analyzer, tmp_path):
    source = tmp_path / "args.parquet"
    pq.write_table(
        pa.table(
            {
                "id": ["b", "a", "c"],
                "conclusion": ["Ban zoos", None, "Vote"],
                "premise": ["Zoos are cruel.", "Cages!", ""],
            }
        ),
        source,
    )
    out = tmp_path / "tokens.parquet"
    kept = tokenize_table(source, out, analyzer, ["conclusion", "premise"], batch_size=2)
    ids, tokens = read_tokens(out)
    assert ids.to_pylist() == ["b", "a", "c"]
    assert tokens.to_pylist() == [["ban", "zoo", "zoo", "cruel"], ["cage"], ["vote"]]
    assert pq.read_schema(out).field("tokens").type == pa.list_(pa.int32())  # codes; the terms in its metadata
    assert kept == 6


def test_a_token_table_does_not_depend_on_what_the_analyzer_met_before(tmp_path):
    """A resumed run's analyzer may have analysed topics or another shard first: its table is the same bytes."""
    source = tmp_path / "args.parquet"
    texts = ["Zoos are cruel to animals.", "Animals suffer; zoos protect species.", "", "Vote for zoos!"]
    pq.write_table(pa.table({"id": ["a", "b", "c", "d"], "premise": texts}), source)
    fresh, used = tmp_path / "fresh.parquet", tmp_path / "used.parquet"
    tokenize_table(source, fresh, Analyzer("en"), ["premise"], batch_size=3)
    warmed = Analyzer("en")
    warmed.analyze("Species vote; the cruel suffer, and a zebra too.")  # other terms, numbered first
    tokenize_table(source, used, warmed, ["premise"], batch_size=3)
    assert used.read_bytes() == fresh.read_bytes()
    assert read_tokens(used)[1].to_pylist()[0] == ["zoo", "cruel", "animal"]


def test_a_field_is_a_column_or_a_key_of_the_extra_map():
    schema = pa.schema([("id", pa.string()), ("title", pa.string()), (EXTRA, EXTRAS.type)])
    assert source_columns(schema, ["title", "doc2query"]) == ["title", EXTRA]
    assert source_columns(schema, ["title"]) == ["title"]
    assert source_columns(pa.schema([("id", pa.string()), ("title", pa.string())]), ["title", "summary"]) == ["title"]


def test_the_text_indexed_joins_the_fields_by_newlines_and_a_missing_field_is_empty():
    batch = pa.record_batch({"id": ["a", "b", "c"], "title": ["T", None, "U"], EXTRA: EXTRAS})
    assert document_texts(batch, ["title", "doc2query"]).to_pylist() == ["T\nwhy zoos", "\n", "U\n"]
    with pytest.raises(ValueError, match=r"^no field 'title' in the document table \(columns: id\)$"):
        document_texts(pa.record_batch({"id": ["a"]}), ["title"])


def test_the_shards_of_a_table_together_are_the_whole_table(analyzer, tmp_path):
    source = tmp_path / "docs.parquet"
    texts = ["Zoos are cruel.", "Cats and dogs.", "Vote for zoos!", "Dogs bark.", "Cruel cats."]
    pq.write_table(pa.table({"id": list("abcde"), "text": texts}), source, row_group_size=2)
    whole = tmp_path / "whole.parquet"
    assert tokenize_table(source, whole, analyzer, ["text"]) == 10
    parts = []
    for shard in range(2):
        tokenize_table(source, tmp_path / f"{shard}.parquet", analyzer, ["text"], batch_size=2, shard=shard, shards=2)
        ids, tokens = read_tokens(tmp_path / f"{shard}.parquet")
        parts.append(list(zip(ids.to_pylist(), tokens.to_pylist())))
    assert [ids for ids, _ in parts[0]] == ["a", "b"] and [ids for ids, _ in parts[1]] == ["c", "d", "e"]
    ids, tokens = read_tokens(whole)
    assert parts[0] + parts[1] == list(zip(ids.to_pylist(), tokens.to_pylist()))
    assert tokens.to_pylist()[0] == ["zoo", "cruel"]


def test_a_mixed_table_is_analysed_by_each_rows_stored_language(tmp_path):
    source = tmp_path / "docs.parquet"
    # "sono" and "sind" stored under each other's language stay as they are: neither table lemmatizes them.
    pq.write_table(pa.table({"id": ["a", "b"], "text": ["sono", "sind"], LANGUAGE: ["de", "it"]}), source)
    tokenize_table(source, tmp_path / "tokens.parquet", make_analyzer("de,it"), ["text"])
    assert read_tokens(tmp_path / "tokens.parquet")[1].to_pylist() == [["sono"], ["sind"]]
