"""The graph with shards: tokenize, index and rank per row range publish what the unsharded graph publishes."""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml
from graph import build, copy_project


def set_shards(runs_file: Path, track: str, shards: int) -> None:
    config = yaml.safe_load(runs_file.read_text())
    config[track]["shards"] = shards
    runs_file.write_text(yaml.safe_dump(config), encoding="utf-8")


def targets(outputs: Path, track: str, stage: str) -> list[str]:
    folder = outputs / "cache" / track / stage
    return sorted(p.name for p in folder.iterdir() if not p.name.startswith(".")) if folder.is_dir() else []


def test_sharded_graph_publishes_the_unsharded_runs(tmp_path):
    runs_file, _ = copy_project(tmp_path, "args")
    set_shards(runs_file, "args", 1)
    build(runs_file, tmp_path / "one")
    set_shards(runs_file, "args", 3)
    build(runs_file, tmp_path / "three")
    one, three = (tmp_path / name / "submission" / "args" for name in ("one", "three"))
    runs = [f"{tag}.txt" for tag in yaml.safe_load(runs_file.read_text())["args"]["runs"]]
    assert sorted(p.name for p in one.iterdir()) == sorted(p.name for p in three.iterdir())
    for name in [*runs, "evaluation.json"]:
        assert (one / name).read_bytes() == (three / name).read_bytes(), name
    counts = {stage: len(targets(tmp_path / "three", "args", stage)) for stage in ("tokens", "index", "statistics")}
    assert counts == {"tokens": 3, "index": 3, "statistics": 1}
    # One ranking per distinct retrieval setting: a run re-ranked by quality reads its twin's ranking.
    rankings = {(run.get("method"), str(run.get("params")), run.get("query"))
                for run in yaml.safe_load(runs_file.read_text())["args"]["runs"].values()}  # fmt: skip
    assert len(targets(tmp_path / "three", "args", "rank-shard")) == 3 * len(rankings) == 9
    assert not targets(tmp_path / "one", "args", "statistics") and not targets(tmp_path / "one", "args", "rank-shard")


def test_sharded_images_track_selects_the_same_images(tmp_path):
    """Images rank text too, then choose from it; two shards change nothing they publish."""
    runs_file, outputs = copy_project(tmp_path, "images")
    build(runs_file, outputs)
    unsharded = tmp_path / "unsharded"
    shutil.copytree(outputs / "submission" / "images", unsharded)
    set_shards(runs_file, "images", 2)
    build(runs_file, outputs)
    assert len(targets(outputs, "images", "index")) == 3  # the unsharded index and two shards'
    published = sorted(p.name for p in unsharded.glob("*.txt"))
    assert published and published == sorted(p.name for p in (outputs / "submission" / "images").glob("*.txt"))
    for name in published:
        assert (unsharded / name).read_bytes() == (outputs / "submission" / "images" / name).read_bytes(), name
