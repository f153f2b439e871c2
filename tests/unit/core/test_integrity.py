"""State files damaged by hand or by a crash (a manifest, a record of a target's sizes) never cause a traceback:
the publication or the stage they stand for is done again, and the file is written anew."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from argrank.core.integrity import damage, forget_written, record_written
from argrank.core.published_folder import MANIFEST, is_published, publish


def _publish(folder: Path) -> None:
    def write(staging: Path) -> list[str]:
        (staging / "evaluation.json").write_text('{"run": {"nDCG@5": 0.5}}')
        (staging / "run.txt").write_text("1 Q0 d 1 1.0 run\n")
        return ["evaluation.json", "run.txt"]

    publish(folder, "sig", write)


@pytest.mark.parametrize(
    "damaged",
    ["folder", '{"signature": "sig", "files": 5}', '{"signature": "sig", "files": ["evaluation.json"]}', "\xff",
     '{"signature": "sig", "files": {"evaluation.json": "big"}}', "[" * 5000],
)  # fmt: skip
def test_a_damaged_manifest_is_not_published_and_publishing_heals_it(tmp_path, damaged):
    folder = tmp_path / "args"
    _publish(folder)
    assert is_published(folder, "sig")
    (folder / MANIFEST).unlink()
    if damaged == "folder":
        (folder / MANIFEST).mkdir()
    else:
        (folder / MANIFEST).write_bytes(damaged.encode("latin-1"))
    assert not is_published(folder, "sig")
    _publish(folder)
    assert is_published(folder, "sig")


def test_a_published_file_of_another_size_than_written_is_published_again(tmp_path):
    """A truncated evaluation.json was taken as published, and every reader of it failed."""
    folder = tmp_path / "args"
    _publish(folder)
    evaluation = folder / "evaluation.json"
    evaluation.write_text(evaluation.read_text()[:10])
    assert not is_published(folder, "sig")
    _publish(folder)
    assert json.loads(evaluation.read_text()) == {"run": {"nDCG@5": 0.5}}
    files = json.loads((folder / MANIFEST).read_text())["files"]
    assert {name: entry["bytes"] for name, entry in files.items()} == {"evaluation.json": 24, "run.txt": 17}


@pytest.mark.parametrize("how", ["flipped", "garbage"])
def test_a_published_file_changed_to_the_same_size_is_published_again(tmp_path, how):
    """A run file flipped or overwritten with as many bytes of garbage stayed published."""
    folder = tmp_path / "args"
    _publish(folder)
    run = folder / "run.txt"
    written = run.read_bytes()
    run.write_bytes(written.replace(b"Q0", b"Q1") if how == "flipped" else b"x" * len(written))
    assert not is_published(folder, "sig")
    _publish(folder)
    assert run.read_bytes() == written and is_published(folder, "sig")


@pytest.mark.parametrize(
    "record",
    ["[]", '{"a.parquet": "12"}', '{"a.parquet": 9}', '{"a.parquet": {"bytes": 9, "mtime_ns": 1}}', "\xff", "folder",
     "[" * 5000],
)  # fmt: skip
def test_a_damaged_record_is_damage_and_is_written_anew(tmp_path, record):
    target = tmp_path / "a.parquet"
    target.write_bytes(b"PAR1 data")
    record_written(target)
    assert damage(target) is None
    written = tmp_path / ".a.parquet.written.json"
    written.unlink()
    if record == "folder":
        written.mkdir()
        (written / "inside").write_text("x")
    else:
        written.write_bytes(record.encode("latin-1"))
    assert damage(target) == f"{written}: not a record of the files written"
    forget_written(target)  # what a stage run does first, then writes and records again
    record_written(target)
    assert damage(target) is None and json.loads(written.read_text())["a.parquet"]["bytes"] == 9


def test_a_file_changed_in_place_to_the_same_size_is_damage_and_one_only_touched_is_not(tmp_path):
    target = tmp_path / "index"
    target.mkdir()
    (target / "data.npy").write_bytes(b"\x93NUMPY" + bytes(range(200)))
    (target / "indptr.npy").write_bytes(b"\x93NUMPY" + bytes(50))
    record_written(target)
    data = target / "data.npy"
    written = data.stat().st_mtime_ns
    os.utime(data, ns=(written + 10**9, written + 10**9))  # touched: the same bytes, hashed again and taken
    assert damage(target) is None
    flipped = bytearray(data.read_bytes())
    flipped[100] ^= 0xFF
    data.write_bytes(bytes(flipped))
    assert damage(target) == f"{data}: its content is not what was written (same size, changed in place)"
    os.utime(data, ns=(written, written))  # damage that keeps the recorded time is not found by the record
    assert damage(target) is None


def test_a_target_recorded_by_sizes_alone_is_taken_and_its_old_record_forgotten(tmp_path):
    """Targets written before contents were recorded keep their old record of sizes: it is not read, and goes when
    the stage runs again."""
    target = tmp_path / "a.parquet"
    target.write_bytes(b"PAR1 data")
    old = tmp_path / ".a.parquet.sizes.json"
    old.write_text('{"a.parquet": 9}')
    assert damage(target) is None
    forget_written(target)
    assert not old.exists()
