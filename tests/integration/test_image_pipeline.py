"""The images track through the Luigi graph: on the embedded collection and on the real 50-image sample."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pyarrow.parquet as pq
import pytest
import yaml
from graph import REPO, build, cache_state, copy_project, luigi_command, stages_of

from argrank.tracks.registry import track
from argrank.formats.runfile import read_run
from argrank.formats.validation import validate_run
from argrank.tracks.images.collection import SCHEMA
from argrank.tracks.images.phash import hamming


def run_rules(name: str):
    """The run-file rules of the registered track `name`."""
    return track(name).run_rules


MEASURES = ("on_topic@10", "argumentative@10", "on_stance@10", "judged@10")


@pytest.fixture()
def images(tmp_path) -> tuple[Path, Path]:
    return copy_project(tmp_path, "images")


def _hashes(outputs: Path) -> dict[str, int]:
    (table,) = (outputs / "cache" / "images" / "ingest").glob("*.parquet")
    ingested = pq.read_table(table, columns=["id", "phash"])
    return dict(zip(ingested["id"].to_pylist(), ingested["phash"].to_pylist()))


def test_embedded_submission_has_ten_pro_and_ten_con_images_per_topic_scored(images):
    runs_file, outputs = images
    build(runs_file, outputs)
    folder = outputs / "submission" / "images"
    runs = yaml.safe_load(runs_file.read_text())["images"]["runs"]
    evaluation = json.loads((folder / "evaluation.json").read_text())
    assert sorted(evaluation) == sorted(runs)
    hashes = _hashes(outputs)
    assert len(hashes) == 95  # every image of the embedded collection, the PNG one included
    for tag, spec in runs.items():
        path = folder / f"{tag}.txt"
        # At most 10 per topic and stance, ranks from 1, disjoint lists.
        validate_run(path, rules=run_rules("images"))
        by_topic: dict[str, list[str]] = {}
        for line in read_run(path):
            by_topic.setdefault(line.qid, []).append(line.doc)
        # 6 topics (4 test, 2 training); all but the zoo topic have 20 or more candidates. Only 17 images of the
        # collection mention zoos or abolishing, and the selection does not pad lists with images that match nothing.
        assert sorted(len(docs) for docs in by_topic.values()) == [17, 20, 20, 20, 20, 20]
        for topic, docs in by_topic.items():
            codes = [hashes[doc] for doc in docs]
            # No two images of a topic's 20 are near-duplicates (the collection has two pairs, 0 and 4 bits apart).
            assert all(hamming(codes[i + 1 :], code).min(initial=64) >= 10 for i, code in enumerate(codes)), topic
        result = evaluation[tag]["relevance"]
        assert result["topics"] == 4 and set(result["per_topic"]) == {"1", "2", "3", "4"}
        assert all(0.0 <= result[m] <= 1.0 for m in MEASURES)
        assert result["on_topic@10"] >= result["argumentative@10"] >= result["on_stance@10"] > 0.3
        if spec["stance"]:
            classifier = evaluation[tag]["stance"]["classifier"]
            assert classifier["examples"] >= 20 and 0.5 < classifier["cv_macro_f1"] <= 1.0
        else:
            assert "stance" not in evaluation[tag]
    text = (folder / "evaluation.txt").read_text()
    assert "on_stance@10" in text and "argrank-img-bm25-found / relevance" in text


def test_changing_the_search_weight_reruns_only_the_selection(images):
    runs_file, outputs = images
    config = yaml.safe_load(runs_file.read_text())
    config["images"]["runs"] = {"only": {"found_weight": 1.0, "stance": True}}
    runs_file.write_text(yaml.safe_dump(config))
    build(runs_file, outputs)
    before = cache_state(outputs)
    config["images"]["runs"]["only"]["found_weight"] = 0.25
    runs_file.write_text(yaml.safe_dump(config))
    build(runs_file, outputs)
    new = set(cache_state(outputs)) - set(before)
    # Ingest, tokens, index, ranking and the stance model are reused.
    assert stages_of(new) == {"selection", "run", "evaluation"}


def test_same_inputs_give_byte_identical_runs(images, tmp_path):
    runs_file, outputs = images
    build(runs_file, outputs)
    build(runs_file, tmp_path / "again")
    for run in (outputs / "submission" / "images").glob("*.txt"):
        assert run.read_bytes() == (tmp_path / "again" / "submission" / "images" / run.name).read_bytes()


def test_a_training_set_without_both_stances_fails_naming_the_file(images, tmp_path):
    runs_file, outputs = images
    training = tmp_path / "data" / "images" / "collection" / "training-qrels.txt"
    training.write_text("".join(line for line in training.read_text().splitlines(True) if " PRO " in line))
    done = subprocess.run(luigi_command(runs_file, outputs), cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 30  # [retcode] task_failed in luigi.cfg
    assert f"argrank: TrainImageStance failed on bad input: {training}: cannot train the image stance model" in done.stderr
    assert "Traceback" not in done.stderr


def test_real_sample_ingests_completely_and_scores(shared_data, tmp_path):
    """The real 50-image excerpt, its queries.jsonl topics (34, 48) and the official 2022 judgments."""
    folder = shared_data / "image-retrieval"
    runs_file = tmp_path / "runs.yaml"
    runs_file.write_text(
        yaml.safe_dump(
            {
                "images": {
                    "collection": str(folder / "sample-collection"),
                    "topics": str(folder / "sample-collection" / "queries.jsonl"),
                    "qrels": {"relevance": str(folder / "touche-task3-001-050-relevance.qrels")},
                    "runs": {"found": {"found_weight": 1.0}, "text": {"found_weight": 0.0}},
                }
            }
        )
    )
    outputs = tmp_path / "outputs"
    build(runs_file, outputs)
    (table,) = (outputs / "cache" / "images" / "ingest").glob("*.parquet")
    ingested = pq.read_table(table)
    assert ingested.schema == SCHEMA and ingested.num_rows == 50
    formats = dict(zip(ingested["id"].to_pylist(), ingested["format"].to_pylist()))
    assert formats["Ibaa25a9245a3cd96"] == "PNG" and list(formats.values()).count("WEBP") == 49
    # An experiment, not the submission: published under its name (the file's stem) only.
    assert not (outputs / "submission").exists()
    evaluation = json.loads((outputs / "experiments" / "runs" / "images" / "evaluation.json").read_text())
    for tag in ("found", "text"):
        result = evaluation[tag]["relevance"]
        # Scored over the topics run (34 and 48), not the qrels' 50; every sample image is judged for one of them.
        assert result["topics"] == 2 and set(result["per_topic"]) == {"34", "48"}
        assert result["judged@10"] >= 0.8
        assert 0.3 < result["on_topic@10"] <= 0.65  # 12 + 14 on-topic images of 40 slots at most
        assert 0.0 < result["on_stance@10"] <= result["argumentative@10"] <= result["on_topic@10"]
