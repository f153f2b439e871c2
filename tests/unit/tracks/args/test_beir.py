"""tracks/args/beir.py: BEIR's zip to the args.me table: metadata, policies, batch sizes, a bad line named."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from argrank.core.errors import InputError
from argrank.tracks.args.argsme import CONTEXT_COLUMNS, SCHEMA
from argrank.tracks.args.beir import ingest_beir

MEMBER = "webis-touche2020/corpus.jsonl"


def _zip(path: Path, *documents: dict | str) -> Path:
    text = "".join((d if isinstance(d, str) else json.dumps(d)) + "\n" for d in documents)
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(MEMBER, text)
    return path


def _document(doc_id: str, text: str = "a premise", **metadata) -> dict:
    return {"_id": doc_id, "title": f"conclusion {doc_id}", "text": text, "metadata": metadata}


def _rows(path: Path) -> list[dict]:
    table = pq.read_table(path)
    assert table.schema == SCHEMA
    return table.to_pylist()


def test_a_document_is_a_row_of_conclusion_premise_stance_and_url_the_rest_empty(tmp_path):
    source = _zip(tmp_path / "source.zip", _document("x-1", "They cut costs.", stance="CON", url="http://x/1"))
    stats = ingest_beir(source, tmp_path / "out.parquet")
    assert stats.rows == 1
    [row] = _rows(tmp_path / "out.parquet")
    assert row == {
        "id": "x-1", "conclusion": "conclusion x-1", "premise": "They cut costs.", "stance": "CON", "source": None,
        **{column: None for _, column in CONTEXT_COLUMNS}, "source_url": "http://x/1",
    }  # fmt: skip


@pytest.mark.parametrize("metadata", [{}, {"stance": "", "url": ""}, {"stance": 1, "url": ["http://x"]}])
def test_metadata_missing_empty_or_not_text_is_left_empty(tmp_path, metadata):
    source = _zip(tmp_path / "source.zip", _document("x-1", **metadata))
    ingest_beir(source, tmp_path / "out.parquet")
    [row] = _rows(tmp_path / "out.parquet")
    assert (row["stance"], row["source_url"]) == (None, None)


def test_documents_keep_the_zips_order_a_blank_premise_is_dropped_and_a_repeated_id_keeps_the_first(tmp_path):
    source = _zip(
        tmp_path / "source.zip",
        _document("b-2", "second in id order, first in the file"),
        _document("blank", "  \n "),
        _document("a-1", "kept"),
        _document("b-2", "a repeat, dropped"),
    )
    stats = ingest_beir(source, tmp_path / "out.parquet")
    assert (stats.rows, stats.empty, stats.empty_ids, stats.duplicates, stats.duplicate_ids) == (
        2, 1, ["blank"], 1, ["b-2"],
    )  # fmt: skip
    rows = _rows(tmp_path / "out.parquet")
    assert [(row["id"], row["premise"]) for row in rows] == [("b-2", "second in id order, first in the file"),
                                                              ("a-1", "kept")]  # fmt: skip


def test_the_table_does_not_depend_on_the_batch_size(tmp_path):
    source = _zip(tmp_path / "source.zip", *(_document(f"d-{i}", f"premise {i}", stance="PRO") for i in range(7)))
    ingest_beir(source, tmp_path / "one.parquet", batch_size=1)
    ingest_beir(source, tmp_path / "all.parquet")
    assert pq.read_table(tmp_path / "one.parquet").equals(pq.read_table(tmp_path / "all.parquet"))


def test_a_bad_line_names_the_member_and_line_and_writes_no_table(tmp_path):
    source = _zip(tmp_path / "source.zip", _document("a-1"), '{"_id": "a-2", "text": 7}')
    with pytest.raises(InputError) as caught:
        ingest_beir(source, tmp_path / "out.parquet", batch_size=1)
    assert str(caught.value) == f'{source}: {MEMBER}, line 2: "text" is not a string'
    assert not (tmp_path / "out.parquet").exists()
