"""A fusion run in a runs file: `fuse: {runs: [...], method, norm, params}` fuses other runs' rankings as a cached
stage, swept over its parameters, published, evaluated and compared like any run, on args and comparative; it
equals `argrank fuse` on the published runs; mistakes are named."""

from __future__ import annotations

import subprocess
import sys

import pytest
import yaml
from graph import REPO, build, cache_state, copy_project, stages_of

from argrank.config import load_config
from argrank.core.errors import InputError

RUNS = {
    "args": {"bm25": {"method": "bm25"}, "lm": {"method": "dirichlet"}},
    "comparative": {"bm25": {"method": "bm25", "stance": False}, "lm": {"method": "dirichlet", "stance": False}},
}


def _runs_file(tmp_path, track: str, fusion: dict):
    runs_file, outputs = copy_project(tmp_path, track)
    config = yaml.safe_load(runs_file.read_text())
    config[track]["runs"] = {**RUNS[track], "fused": {"fuse": fusion}}
    config[track].pop("baseline", None)
    runs_file.write_text(yaml.safe_dump(config), encoding="utf-8")
    return runs_file, outputs


@pytest.mark.parametrize("track", ["args", "comparative"])
def test_a_fusion_run_is_a_swept_cached_stage_equal_to_argrank_fuse(tmp_path, track):
    fusion = {"runs": ["bm25", "lm"], "method": "rrf", "norm": "min-max", "params": {"k": [10, 60]}}
    runs_file, outputs = _runs_file(tmp_path, track, fusion)
    build(runs_file, outputs)
    folder = outputs / "submission" / track
    assert {p.name for p in folder.glob("fused*.txt")} == {"fused-k_10.txt", "fused-k_60.txt"}
    assert len([p for p in cache_state(outputs) if stages_of([p]) == {"fusion"}]) == 2
    command = [sys.executable, "-m", "workflows.cli", "fuse", "--run", str(folder / "bm25.txt"), "--run",
               str(folder / "lm.txt"), "--method", "rrf", "--param", "k=10", "--tag", "fused-k_10",
               "--output", str(tmp_path / "again.txt")]  # fmt: skip
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    published = [line.split()[2:] for line in (folder / "fused-k_10.txt").read_text().splitlines()]
    again = [line.split()[2:] for line in (tmp_path / "again.txt").read_text().splitlines()]
    assert [row[:2] for row in published] == [row[:2] for row in again]  # the same documents at the same ranks


@pytest.mark.parametrize(
    ("fusion", "where", "problem"),
    [
        ({"runs": ["bm25"]}, "fuse.runs", "expected a list of two or more run tags"),
        ({"runs": ["bm25", "nope"]}, "fuse.runs", "no run nope in this section"),
        ({"runs": ["bm25", "lm"], "method": "mean"}, "fuse", "unknown fusion method 'mean'"),
        ({"runs": ["bm25", "lm"], "method": "wsum", "params": {"weights": [[1]]}}, "fuse", "wsum needs one weight per run"),
        ({"runs": ["bm25", "lm"], "depth": 3}, "fuse", "unknown setting.s. depth"),
        ({"runs": ["bm25", "lm"], "method": "wsum", "params": {"weights": 0.5}}, "fuse.params.weights",
         "expected a list of numbers, one per fused run"),
    ],
)
def test_fusion_mistakes_are_named(tmp_path, fusion, where, problem):
    runs_file, _ = _runs_file(tmp_path, "args", fusion)
    with pytest.raises(InputError, match=f"args.runs.fused.{where}: {problem}"):
        load_config(runs_file)


def test_weights_are_one_list_or_a_list_of_lists_to_sweep(tmp_path):
    fixed = {"runs": ["bm25", "lm"], "method": "wsum", "params": {"weights": [0.7, 0.3]}}
    runs_file, _ = _runs_file(tmp_path, "args", fixed)
    (spec,) = [spec for spec in load_config(runs_file)["args"].runs if spec.fuse]
    assert spec.tag == "fused" and spec.fuse[1] == {"method": "wsum", "norm": "min-max",
                                                    "params": {"weights": [0.7, 0.3]}}  # fmt: skip
    assert [member.tag for member in spec.fuse[0]] == ["bm25", "lm"]
    swept = {**fixed, "params": {"weights": [[0.7, 0.3], [0.5, 0.5]]}}
    runs_file, _ = _runs_file(tmp_path / "swept", "args", swept)
    tags = [spec.tag for spec in load_config(runs_file)["args"].runs if spec.fuse]
    assert tags == ["fused-weights_0.7_0.3", "fused-weights_0.5_0.5"]
