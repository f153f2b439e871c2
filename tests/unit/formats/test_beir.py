"""`dataset: beir/webis-touche2020/v2`: BEIR's corpus read from inside the zip ir_datasets downloads, its queries
and qrels from the files ir_datasets copies out, all laid out in a temporary IR_DATASETS_HOME as ir_datasets lays
them out (beir/webis-touche2020/v2/{source.zip, queries.json, test.qrels}; the zip's member webis-touche2020/…)."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from argrank.config import load_config
from argrank.core.errors import InputError
from argrank.formats.beir import read_corpus
from argrank.formats.qrels import read_qrels
from argrank.formats.topics import Topic, read_topics
from argrank.tracks.args.argsme import SCHEMA
from argrank.tracks.args.beir import ingest_beir

FOLDER = "beir/webis-touche2020/v2"
MEMBER = "webis-touche2020/corpus.jsonl"
DOCS = [
    {"_id": "a-1", "title": "School uniforms help", "text": "They cut costs.", "metadata": {"stance": "PRO",
                                                                                          "url": "http://a/1"}},
    {"_id": "a-2", "title": "Uniforms stifle", "text": "They limit expression.", "metadata": {}},
]
QUERY = {"_id": "1", "text": "Should uniforms be required?", "metadata": {"description": "d", "narrative": "n"}}


def write_zip(path: Path, corpus: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(MEMBER, corpus)
        archive.writestr("webis-touche2020/queries.jsonl", json.dumps(QUERY) + "\n")
    return path


def lines(*records: object) -> str:
    return "".join((record if isinstance(record, str) else json.dumps(record)) + "\n" for record in records)


def cache_beir(home: Path) -> None:
    """beir/webis-touche2020/v2 as ir_datasets caches it: the downloaded zip, the queries and qrels copied out."""
    write_zip(home / FOLDER / "source.zip", lines(*DOCS))
    (home / FOLDER / "queries.json").write_text(lines(QUERY, {"_id": "2", "text": "Ban homework?"}), encoding="utf-8")
    (home / FOLDER / "test.qrels").write_text("query-id\tcorpus-id\tscore\n1\ta-1\t2\n1\ta-2\t0\n", encoding="utf-8")


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    home = tmp_path / "ir_datasets"
    monkeypatch.setenv("IR_DATASETS_HOME", str(home))
    cache_beir(home)
    return home


def test_the_id_fills_in_the_zip_queries_and_qrels_and_given_keys_win(home, tmp_path):
    runs = tmp_path / "runs.yaml"
    runs.write_text(f"args:\n  dataset: {FOLDER}\n  runs: {{r: {{}}}}\n", encoding="utf-8")
    track = load_config(runs)["args"]
    assert track.corpus == home / FOLDER / "source.zip" and track.topics == home / FOLDER / "queries.json"
    assert track.qrels == {"relevance": home / FOLDER / "test.qrels"}
    (tmp_path / "t.xml").write_text("<topics><topic><number>1</number><title>x</title></topic></topics>")
    runs.write_text(f"args:\n  dataset: {FOLDER}\n  topics: t.xml\n  runs: {{r: {{}}}}\n", encoding="utf-8")
    assert load_config(runs)["args"].topics == tmp_path / "t.xml"


def test_the_corpus_ingests_to_the_args_me_schema_conclusion_from_title_premise_from_text(home, tmp_path):
    stats = ingest_beir(home / FOLDER / "source.zip", tmp_path / "arguments.parquet")
    table = pq.read_table(tmp_path / "arguments.parquet")
    assert stats.rows == 2 and table.schema == SCHEMA
    rows = table.to_pylist()
    assert [(row["id"], row["conclusion"], row["premise"]) for row in rows] == [
        (doc["_id"], doc["title"], doc["text"]) for doc in DOCS
    ]
    assert (rows[0]["stance"], rows[0]["source_url"], rows[1]["stance"]) == ("PRO", "http://a/1", None)


@pytest.mark.parametrize(("line", "where", "problem"), [
    ('{"_id": "a-3", "title": ', "line 3, column 24", "malformed JSON: Expecting value"),
    ('{"title": "t", "text": "x"}', "line 3", 'no "_id" (or not a non-empty string)'),
    ('["a-3"]', "line 3", "not a JSON object"),
    ('{"_id": "a-3", "text": 7}', "line 3", '"text" is not a string'),
])  # fmt: skip
def test_a_bad_corpus_line_names_the_zip_member_and_line(tmp_path, line, where, problem):
    path = write_zip(tmp_path / "source.zip", lines(*DOCS, line))
    with pytest.raises(InputError) as error:
        list(read_corpus(path))
    assert str(error.value) == f"{path}: {MEMBER}, {where}: {problem}"


def test_a_zip_without_a_corpus_member_is_named(tmp_path):
    path = tmp_path / "source.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("other/queries.jsonl", "")
    with pytest.raises(InputError, match="expected one <name>/corpus.jsonl in the zip, found 0"):
        list(read_corpus(path))


def test_queries_become_topics_with_description_and_narrative_where_given(home):
    assert read_topics(home / FOLDER / "queries.json") == [
        Topic("1", "Should uniforms be required?", "d", "n"),
        Topic("2", "Ban homework?"),
    ]


@pytest.mark.parametrize(("line", "problem"), [
    ('{"_id": "x", "text": "t"}', "_id 'x' is not a non-negative integer"),
    ('{"_id": "3"}', "missing 'text'"),
    ('{"_id": "3", "text": "t", "metadata": []}', '"metadata" is not an object'),
])  # fmt: skip
def test_a_bad_query_line_is_named(tmp_path, line, problem):
    path = tmp_path / "queries.json"
    path.write_text(lines(QUERY, line), encoding="utf-8")
    with pytest.raises(InputError) as error:
        read_topics(path)
    assert str(error.value) == f"{path}: line 2: {problem}"


def test_qrels_under_the_beir_header_read_as_trec_judgments(home):
    assert read_qrels(home / FOLDER / "test.qrels") == {"1": {"a-1": 2.0, "a-2": 0.0}}


def test_a_qrels_line_with_the_wrong_column_count_is_named(tmp_path):
    path = tmp_path / "test.qrels"
    path.write_text("query-id\tcorpus-id\tscore\n1\ta-1\t2\n1\t0\ta-2\t1\n", encoding="utf-8")
    with pytest.raises(InputError) as error:
        read_qrels(path)
    assert str(error.value) == f"{path}: line 3: expected 3 fields (query-id corpus-id score), found 4"
