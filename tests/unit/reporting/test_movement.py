"""How far a nightly's rankings moved: the kept copy, its manifest, and the overlap per run."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from argrank.core.layout import experiment_folder, nightly_rankings_folder
from argrank.reporting.movement import keep_rankings, kept_date, moved_beyond, movement


def _experiment(tags):
    return SimpleNamespace(name="runs", tracks={"args": SimpleNamespace(runs=[SimpleNamespace(tag=t) for t in tags])})


def _publish(outputs, tag, lines):
    folder = experiment_folder(outputs, "runs") / "args"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{tag}.txt").write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")


def test_kept_rankings_are_compared_by_tag_and_a_move_is_flagged(tmp_path):
    experiment = _experiment(["a", "b"])
    _publish(tmp_path, "a", ["1 Q0 x 1 3.0 a", "1 Q0 y 2 2.0 a", "1 Q0 z 3 1.0 a"])
    _publish(tmp_path, "b", ["1 Q0 x 1 3.0 b", "1 Q0 y 2 2.0 b"])
    (experiment_folder(tmp_path, "runs") / "args" / "evaluation.txt").write_text("not a run")
    assert kept_date(tmp_path) is None
    keep_rankings(experiment, tmp_path, "2026-11-27T02:30:00Z")
    assert kept_date(tmp_path) == "2026-11-27T02:30:00Z"
    assert sorted(p.name for p in (nightly_rankings_folder(tmp_path) / "args").iterdir()) == ["a.txt", "b.txt"]
    _publish(tmp_path, "b", ["1 Q0 q 1 3.0 b", "1 Q0 r 2 2.0 b"])  # b's list is another one tonight
    moved = movement(experiment, tmp_path)
    assert moved["args"]["a"] == pytest.approx(1.0) and moved["args"]["b"] == pytest.approx(0.0)
    assert moved_beyond(moved, 0.5) == ["args b: rank-biased overlap 0.0000 with the last nightly's (change 1.0000)"]
    assert moved_beyond(moved, 1.0) == []


def test_a_copy_cut_short_has_no_manifest(tmp_path, monkeypatch):
    experiment = _experiment(["a"])
    _publish(tmp_path, "a", ["1 Q0 x 1 3.0 a"])
    keep_rankings(experiment, tmp_path, "first")

    def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr("argrank.reporting.movement.shutil.copyfile", broken)
    with pytest.raises(OSError):
        keep_rankings(experiment, tmp_path, "second")
    assert kept_date(tmp_path) is None  # never compared with
