"""Task 2 passage ingest: both file forms, extra fields kept and indexable, the policies, and clear errors."""

from __future__ import annotations

import gzip
import json
import logging
import re
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from argrank.core.errors import InputError
from argrank.index.build import read_tokens
from argrank.text.analyzer import Analyzer
from argrank.text.tokenize import tokenize_table
from argrank.tracks.comparative.passages import ingest_passages, passage_file

PASSAGES = [
    {"id": "clueweb12-0001wb-05-12311___1", "contents": "Trains are cheaper than planes.", "chatNoirUrl": "u1"},
    {
        "id": "clueweb12-0001wb-05-12311___2",
        "contents": "Planes are faster.",
        "doc2query": ["is a plane fast", "speed"],
    },
    {
        "id": "clueweb12-0002wb-17-00042___1",
        "contents": "Caf\u00e9 menu \u20ac3",
        "meta": {"b": 1, "a": [2]},
        "x": None,
    },
]


def write_jsonl(path: Path, lines: list, gz: bool = True) -> Path:
    text = "".join(line if isinstance(line, str) else json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
    if gz:
        with gzip.open(path, "wt", encoding="utf-8") as handle:
            handle.write(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("name", ["passages.jsonl.gz", "passages.jsonl"])
def test_both_forms_read_the_same_rows_with_other_fields_kept_as_text(tmp_path, name):
    source = write_jsonl(tmp_path / name, PASSAGES, gz=name.endswith(".gz"))
    stats = ingest_passages(passage_file(tmp_path), tmp_path / "out.parquet")
    assert passage_file(tmp_path) == source
    assert stats.rows == 3
    rows = pq.read_table(tmp_path / "out.parquet").to_pylist()
    assert [row["id"] for row in rows] == [p["id"] for p in PASSAGES]
    assert rows[0]["extra"] == [("chatNoirUrl", "u1")]
    assert rows[1]["extra"] == [("doc2query", "is a plane fast\nspeed")]
    assert rows[2]["contents"] == "Caf\u00e9 menu \u20ac3"
    assert rows[2]["extra"] == [("meta", '{"a": [2], "b": 1}')]  # null fields are dropped


def test_an_extra_field_can_be_indexed_when_asked_for(tmp_path):
    write_jsonl(tmp_path / "passages.jsonl.gz", PASSAGES)
    ingest_passages(tmp_path / "passages.jsonl.gz", tmp_path / "docs.parquet")
    analyzer = Analyzer("en")
    tokenize_table(tmp_path / "docs.parquet", tmp_path / "plain.parquet", analyzer, ["contents"])
    tokenize_table(tmp_path / "docs.parquet", tmp_path / "expanded.parquet", analyzer, ["contents", "doc2query"])
    plain = read_tokens(tmp_path / "plain.parquet")[1].to_pylist()
    expanded = read_tokens(tmp_path / "expanded.parquet")[1].to_pylist()
    assert "speed" not in plain[1] and expanded[1] == plain[1] + ["plane", "fast", "speed"]
    assert expanded[0] == plain[0] and expanded[2] == plain[2]  # passages without the field are unchanged


def test_duplicates_and_empty_contents_are_dropped_counted_and_logged(tmp_path, caplog):
    lines = [PASSAGES[0], {"id": "b", "contents": "  "}, PASSAGES[0] | {"contents": "again"}, "\n", PASSAGES[1]]
    with caplog.at_level(logging.WARNING, logger="argrank.core.table_writer"):
        stats = ingest_passages(write_jsonl(tmp_path / "p.jsonl", lines, gz=False), tmp_path / "out.parquet")
    assert (stats.rows, stats.duplicates, stats.empty) == (2, 1, 1)
    assert [r.getMessage() for r in caplog.records] == [
        f"{tmp_path / 'p.jsonl'}: dropped 1 passages with an id seen before (kept the first), e.g. "
        "clueweb12-0001wb-05-12311___1",
        f"{tmp_path / 'p.jsonl'}: dropped 1 passages with empty contents text, e.g. b",
    ]


def test_output_is_byte_identical_across_runs(tmp_path):
    source = write_jsonl(tmp_path / "p.jsonl.gz", PASSAGES)
    ingest_passages(source, tmp_path / "a.parquet")
    ingest_passages(source, tmp_path / "b.parquet", batch_size=1)
    assert (tmp_path / "a.parquet").read_bytes() != b"" and pq.read_table(tmp_path / "a.parquet").equals(
        pq.read_table(tmp_path / "b.parquet")
    )
    ingest_passages(source, tmp_path / "c.parquet")
    assert (tmp_path / "a.parquet").read_bytes() == (tmp_path / "c.parquet").read_bytes()


@pytest.mark.parametrize(
    "lines, where, problem",
    [
        ([PASSAGES[0], '{"id": "b", "contents": "x"\n'], "line 2, column 28", "malformed JSON"),
        ([PASSAGES[0], "[1, 2]\n"], "line 2", "not a JSON object"),
        ([{"contents": "x"}], "line 1", 'no "id"'),
        ([{"id": "a b", "contents": "x"}], "line 1", 'no "id"'),
        ([{"id": "a"}], "line 1 (id 'a')", '"contents" missing'),
        ([{"id": "a", "contents": 3}], "line 1 (id 'a')", '"contents" missing'),
        ([], "", "empty file"),
    ],
    ids=["truncated-object", "array", "no-id", "id-with-space", "no-contents", "contents-not-text", "empty"],
)
def test_bad_passages_name_file_and_line(tmp_path, lines, where, problem):
    source = write_jsonl(tmp_path / "p.jsonl.gz", lines)
    with pytest.raises(InputError) as error:
        ingest_passages(source, tmp_path / "out.parquet")
    assert (error.value.path, error.value.where) == (str(source), where)
    assert problem in error.value.problem
    assert not (tmp_path / "out.parquet").exists()


def test_invalid_utf8_names_line_and_byte(tmp_path):
    source = tmp_path / "p.jsonl"
    source.write_bytes(b'{"id": "a", "contents": "ok"}\n{"id": "b", "contents": "caf\xe9"}\n')
    with pytest.raises(InputError, match=r"line 2, byte 29: invalid UTF-8"):
        ingest_passages(source, tmp_path / "out.parquet")


def test_damaged_gzip_is_named(tmp_path):
    source = write_jsonl(tmp_path / "p.jsonl.gz", PASSAGES * 50)
    data = source.read_bytes()
    source.write_bytes(data[: len(data) // 2])
    with pytest.raises(InputError, match="damaged gzip data"):
        ingest_passages(source, tmp_path / "out.parquet")


def test_a_gzip_bomb_line_is_refused_at_the_bound_without_reading_it_whole(tmp_path):
    """A small file whose one line decompresses to far more than any passage: refused naming the line, after at
    most the bound is read (a gibibyte line was a MemoryError)."""
    source = tmp_path / "p.jsonl.gz"
    with gzip.open(source, "wb") as out:
        out.write(json.dumps(PASSAGES[0]).encode() + b"\n")
        out.write(b'{"id": "x", "contents": "' + b" " * (40 << 20) + b'"}\n')
    assert source.stat().st_size < 100_000
    with pytest.raises(InputError, match=r"p.jsonl.gz: line 2: longer than 16,777,216 bytes"):
        ingest_passages(source, tmp_path / "out.parquet")


def test_missing_passages_are_named(tmp_path):
    with pytest.raises(InputError, match="passages file not found"):
        passage_file(tmp_path / "nope.jsonl.gz")
    with pytest.raises(InputError, match="neither passages.jsonl.gz nor passages.jsonl"):
        passage_file(tmp_path)


def test_a_file_of_empty_passages_is_one_error_naming_it(tmp_path):
    source = write_jsonl(tmp_path / "p.jsonl", [{"id": "a", "contents": ""}, {"id": "b", "contents": " "}], gz=False)
    with pytest.raises(InputError, match=re.escape(f"{source}: no passages with contents text: nothing to index")):
        ingest_passages(source, tmp_path / "out.parquet")
    assert not (tmp_path / "out.parquet").exists()
