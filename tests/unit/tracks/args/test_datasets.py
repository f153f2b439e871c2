"""tracks/args/datasets.py: each ir_datasets id resolved in a cache laid out as ir_datasets lays it out."""

from __future__ import annotations

from pathlib import Path

import pytest

from argrank.core.errors import InputError
from argrank.formats.ir_datasets_cache import dataset_settings
from argrank.tracks.args.datasets import ARGSME_2020, BEIR_TOUCHE, DATASETS, TOPICS_2020
from argrank.tracks.args.layout import SOURCE_FILES, corpus_files, is_beir_zip

RUNS = Path("runs.yaml")


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    home = tmp_path / "ir_datasets"
    monkeypatch.setenv("IR_DATASETS_HOME", str(home))
    return home


def _cache(home: Path, dataset_id: str) -> None:
    """Every file `dataset_id` reads, empty, where ir_datasets writes it."""
    dataset = DATASETS[dataset_id]
    for cached in (dataset.corpus, dataset.topics, *dataset.qrels.values()):
        for path in [home / cached.path / name for name in cached.holds] or [home / cached.path]:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.touch()


def test_the_known_ids_are_touche_task_1_of_2020_and_2021_and_beirs_collection():
    assert list(DATASETS) == [
        "argsme/2020-04-01/touche-2020-task-1",
        "argsme/2020-04-01/touche-2020-task-1/uncorrected",
        "argsme/1.0/touche-2020-task-1/uncorrected",
        "argsme/2020-04-01/touche-2021-task-1",
        "beir/webis-touche2020/v2",
    ]


def test_args_me_2020_is_one_cached_folder_of_the_five_portal_files_for_every_id_that_reads_it():
    assert (ARGSME_2020.path, ARGSME_2020.part, ARGSME_2020.holds) == ("argsme/2020-04-01", "docs", SOURCE_FILES)
    readers = [key for key, dataset in DATASETS.items() if dataset.corpus == ARGSME_2020]
    assert readers == [key for key in DATASETS if key.startswith("argsme/2020-04-01/")]
    assert [key for key, dataset in DATASETS.items() if dataset.topics == TOPICS_2020] == list(DATASETS)[:3]


@pytest.mark.parametrize(
    ("dataset_id", "corpus", "topics", "qrels"),
    [
        ("argsme/2020-04-01/touche-2020-task-1", "argsme/2020-04-01", "touche/2020/task-1/queries.xml",
         {"relevance": "touche/2020/task-1/qrels.qrels"}),
        ("argsme/2020-04-01/touche-2020-task-1/uncorrected", "argsme/2020-04-01", "touche/2020/task-1/queries.xml",
         {"relevance": "touche/2020/task-1/qrels-argsme-2020-04-01-uncorrected.qrels"}),
        ("argsme/1.0/touche-2020-task-1/uncorrected", "argsme/1.0.json", "touche/2020/task-1/queries.xml",
         {"relevance": "touche/2020/task-1/qrels-argsme-1.0-uncorrected.qrels"}),
        ("argsme/2020-04-01/touche-2021-task-1", "argsme/2020-04-01", "touche/2021/task-1/queries.xml",
         {"relevance": "touche/2021/task-1/qrels-relevance.qrels",
          "quality": "touche/2021/task-1/qrels-quality.qrels"}),
        ("beir/webis-touche2020/v2", "beir/webis-touche2020/v2/source.zip", "beir/webis-touche2020/v2/queries.json",
         {"relevance": "beir/webis-touche2020/v2/test.qrels"}),
    ],
)  # fmt: skip
def test_each_id_resolves_to_the_paths_ir_datasets_writes(home, dataset_id, corpus, topics, qrels):
    _cache(home, dataset_id)
    settings = dataset_settings(RUNS, "args.dataset", dataset_id, DATASETS, "corpus", set())
    assert settings == {
        "corpus": str(home / corpus),
        "topics": str(home / topics),
        "qrels": {name: str(home / path) for name, path in qrels.items()},
    }


@pytest.mark.parametrize("dataset_id", list(DATASETS))
def test_each_ids_corpus_is_what_the_ingest_reads_args_me_files_or_beirs_zip(home, dataset_id):
    _cache(home, dataset_id)
    corpus = dataset_settings(RUNS, "args.dataset", dataset_id, DATASETS, "corpus", set())["corpus"]
    files = corpus_files(corpus)
    assert [is_beir_zip(file) for file in files] == [dataset_id == BEIR_TOUCHE] * len(files)
    assert len(files) == (len(SOURCE_FILES) if dataset_id.startswith("argsme/2020-04-01/") else 1)


@pytest.mark.parametrize("dataset_id", list(DATASETS))
def test_an_empty_cache_names_the_first_corpus_file_and_the_command_that_fetches_it(home, dataset_id):
    corpus = DATASETS[dataset_id].corpus
    first = home / corpus.path / corpus.holds[0] if corpus.holds else home / corpus.path
    with pytest.raises(InputError) as caught:
        dataset_settings(RUNS, "args.dataset", dataset_id, DATASETS, "corpus", set())
    assert caught.value.where == "args.dataset"
    assert caught.value.problem == (
        f"{first} is not in ir_datasets' cache; fetch it with: ir_datasets export {dataset_id} docs > /dev/null"
    )


def test_a_2021_cache_without_its_quality_judgments_names_them(home):
    dataset_id = "argsme/2020-04-01/touche-2021-task-1"
    _cache(home, dataset_id)
    (home / "touche/2021/task-1/qrels-quality.qrels").unlink()
    with pytest.raises(InputError, match=f"ir_datasets export {dataset_id} qrels > /dev/null"):
        dataset_settings(RUNS, "args.dataset", dataset_id, DATASETS, "corpus", set())
    given = dataset_settings(RUNS, "args.dataset", dataset_id, DATASETS, "corpus", {"qrels"})
    assert set(given) == {"corpus", "topics"}
