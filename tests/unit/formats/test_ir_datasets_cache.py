"""`dataset: <ir_datasets id>` in the args section: corpus, topics and qrels read from a cache laid out as
ir_datasets lays it out (written here in a temporary IR_DATASETS_HOME), explicit keys winning, a missing file one
line naming the command that fetches it, and the graph's ingest reading the cached corpus."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from argrank.config import load_config
from argrank.core.errors import InputError
from argrank.formats.qrels import read_qrels
from argrank.formats.topics import read_topics
from argrank.tracks.args.argsme import ingest_argsme
from argrank.tracks.args.layout import SOURCE_FILES, corpus_files

from .test_beir import cache_beir

TOUCHE_2021 = "argsme/2020-04-01/touche-2021-task-1"
BEIR = "beir/webis-touche2020/v2"
TOPICS = "<topics><topic><number>51</number><title>Is a topic?</title></topic></topics>"


def argument(arg_id: str) -> dict:
    premises = [{"text": f"premise of {arg_id}", "stance": "PRO"}]
    return {"id": arg_id, "conclusion": f"conclusion of {arg_id}", "premises": premises, "context": {}}


def cache_2021(home: Path) -> None:
    """argsme/2020-04-01/touche-2021-task-1 as ir_datasets caches it: a file per portal, topics and both qrels."""
    (home / "argsme" / "2020-04-01").mkdir(parents=True)
    for name in SOURCE_FILES:
        arguments = [argument(f"{Path(name).stem}-1")]
        (home / "argsme" / "2020-04-01" / name).write_text(json.dumps({"arguments": arguments}), encoding="utf-8")
    task = home / "touche" / "2021" / "task-1"
    task.mkdir(parents=True)
    (task / "queries.xml").write_text(TOPICS, encoding="utf-8")
    (task / "qrels-relevance.qrels").write_text("51 0 debateorg-1 2\n", encoding="utf-8")
    (task / "qrels-quality.qrels").write_text("51 0 debateorg-1 1\n", encoding="utf-8")


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    home = tmp_path / "ir_datasets"
    monkeypatch.setenv("IR_DATASETS_HOME", str(home))
    return home


def runs_file(folder: Path, section: str) -> Path:
    path = folder / "runs.yaml"
    path.write_text(f"args:\n{section}  runs: {{r: {{}}}}\n", encoding="utf-8")
    return path


def test_a_dataset_id_fills_in_corpus_topics_and_qrels_from_the_cache(home, tmp_path):
    cache_2021(home)
    track = load_config(runs_file(tmp_path, "  dataset: argsme/2020-04-01/touche-2021-task-1\n"))["args"]
    task = home / "touche" / "2021" / "task-1"
    assert track.corpus == home / "argsme" / "2020-04-01" and track.topics == task / "queries.xml"
    assert track.qrels == {"relevance": task / "qrels-relevance.qrels", "quality": task / "qrels-quality.qrels"}
    assert [topic.number for topic in read_topics(track.topics)] == ["51"]
    assert read_qrels(track.qrels["relevance"]) == {"51": {"debateorg-1": 2.0}}
    out = tmp_path / "out" / "args.parquet"  # the args ingest of the graph: corpus_files, then ingest_argsme
    assert ingest_argsme(corpus_files(track.corpus), out).rows == len(SOURCE_FILES)
    assert pq.read_table(out).column("id").to_pylist() == [f"{Path(name).stem}-1" for name in SOURCE_FILES]


def test_keys_given_beside_the_dataset_win_and_need_no_cached_file(home, tmp_path):
    cache_2021(home)
    (home / "touche" / "2021" / "task-1" / "qrels-quality.qrels").unlink()
    section = "  dataset: argsme/2020-04-01/touche-2021-task-1\n  topics: mine.xml\n  qrels: {relevance: mine.qrels}\n"
    track = load_config(runs_file(tmp_path, section))["args"]
    assert track.topics == tmp_path / "mine.xml" and track.qrels == {"relevance": tmp_path / "mine.qrels"}
    assert track.corpus == home / "argsme" / "2020-04-01"


@pytest.mark.parametrize(
    "dataset, missing, part",
    [
        (TOUCHE_2021, "argsme/2020-04-01/idebate.json", "docs"),
        (TOUCHE_2021, "touche/2021/task-1/queries.xml", "queries"),
        (TOUCHE_2021, "touche/2021/task-1/qrels-quality.qrels", "qrels"),
        (BEIR, f"{BEIR}/source.zip", "docs"),
        (BEIR, f"{BEIR}/queries.json", "queries"),
        (BEIR, f"{BEIR}/test.qrels", "qrels"),
    ],
)
def test_a_file_not_in_the_cache_is_one_line_naming_it_and_the_command_that_fetches_it(
    home, tmp_path, dataset, missing, part
):
    cache_2021(home)
    cache_beir(home)
    (home / missing).unlink()
    path = runs_file(tmp_path, f"  dataset: {dataset}\n")
    with pytest.raises(InputError) as caught:
        load_config(path)
    assert str(caught.value) == (
        f"{path}: args.dataset: {home / missing} is not in ir_datasets' cache; fetch it with: "
        f"ir_datasets export {dataset} {part} > /dev/null"
    )


def test_without_ir_datasets_home_the_cache_is_in_the_home_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("IR_DATASETS_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    cache_2021(tmp_path / "user" / ".ir_datasets")
    track = load_config(runs_file(tmp_path, "  dataset: argsme/2020-04-01/touche-2021-task-1\n"))["args"]
    assert track.corpus == tmp_path / "user" / ".ir_datasets" / "argsme" / "2020-04-01"


def test_version_1_0_is_its_one_cached_json_file(home, tmp_path):
    (home / "argsme").mkdir(parents=True)
    (home / "argsme" / "1.0.json").write_text(json.dumps({"arguments": [argument("a")]}), encoding="utf-8")
    (home / "touche" / "2020" / "task-1").mkdir(parents=True)
    (home / "touche" / "2020" / "task-1" / "queries.xml").write_text(TOPICS, encoding="utf-8")
    (home / "touche" / "2020" / "task-1" / "qrels-argsme-1.0-uncorrected.qrels").write_text("51 0 a 1.5\n")
    track = load_config(runs_file(tmp_path, "  dataset: argsme/1.0/touche-2020-task-1/uncorrected\n"))["args"]
    assert corpus_files(track.corpus) == [home / "argsme" / "1.0.json"]


def test_an_unknown_id_names_the_known_ones(home, tmp_path):
    with pytest.raises(InputError, match="args.dataset: unknown ir_datasets id 'msmarco-passage' .known: argsme/"):
        load_config(runs_file(tmp_path, "  dataset: msmarco-passage\n"))


def test_a_renamed_args_me_file_is_a_corpus_and_a_bad_corpus_fails_when_the_runs_file_is_read(tmp_path):
    (tmp_path / "my-args.json").write_text(json.dumps({"arguments": [argument("a")]}), encoding="utf-8")
    track = load_config(runs_file(tmp_path, "  corpus: my-args.json\n  topics: t.xml\n"))["args"]
    assert corpus_files(track.corpus) == [tmp_path / "my-args.json"]
    (tmp_path / "partial").mkdir()
    (tmp_path / "partial" / "debateorg.json").write_text("{}", encoding="utf-8")
    for corpus, problem in (("nowhere", "no args.me corpus: no such folder or file"), ("partial", "missing")):
        path = runs_file(tmp_path, f"  corpus: {corpus}\n  topics: t.xml\n")
        with pytest.raises(InputError, match=f"^{path}: args.corpus: {tmp_path / corpus}: .*{problem}"):
            load_config(path)
