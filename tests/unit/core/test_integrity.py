"""State files damaged by hand or by a crash (a manifest, a record of a target's sizes) never cause a traceback:
the publication or the stage they stand for is done again, and the file is written anew."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from argrank.core import integrity
from argrank.core.fingerprint import content_digest
from argrank.core.integrity import CHECKSUM, DIGEST, damage, forget_written, record_written, remove_damaged
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


def test_a_file_changed_in_place_to_the_same_size_is_damage_and_one_only_touched_is_not(tmp_path, monkeypatch):
    target = tmp_path / "index"
    target.mkdir()
    (target / "data.npy").write_bytes(b"\x93NUMPY" + bytes(range(200)))
    (target / "indptr.npy").write_bytes(b"\x93NUMPY" + bytes(50))
    record_written(target)
    data = target / "data.npy"
    written = data.stat().st_mtime_ns
    hashed = []
    monkeypatch.setattr(integrity, "content_digest", lambda path: hashed.append(path) or content_digest(path))
    assert damage(target) is None and hashed == []  # a stat per file, no hash
    os.utime(data, ns=(written + 10**9, written + 10**9))  # touched: the same bytes, hashed again and taken
    assert damage(target) is None and hashed == [data]
    assert damage(target) is None and hashed == [data]  # once: its record now has the new times
    flipped = bytearray(data.read_bytes())
    flipped[100] ^= 0xFF
    data.write_bytes(bytes(flipped))
    assert damage(target) == f"{data}: its content is not what was written (same size, changed in place)"
    os.utime(data, ns=(written, written))  # the time set back sets the ctime: still found
    assert damage(target) == f"{data}: its content is not what was written (same size, changed in place)"


def test_damage_below_the_file_system_is_found_by_the_deep_check_alone(tmp_path):
    """Bytes changed where no time changes with them (a disk's fault; here the record made to match the file's
    times) pass the cheap check; the check made where reading failed hashes every file and finds them."""
    target = tmp_path / "run.txt"
    target.write_text("1 Q0 d 1 1.0 run\n")
    record_written(target)
    target.write_text("1 Q0 e 1 1.0 run\n")
    record = tmp_path / ".run.txt.written.json"
    entry = json.loads(record.read_text())
    entry["run.txt"].update(mtime_ns=target.stat().st_mtime_ns, ctime_ns=target.stat().st_ctime_ns)
    del entry[CHECKSUM]
    record.write_text(integrity._record_text(entry))  # a sound record, made to match
    assert damage(target) is None
    assert damage(target, deep=True) == f"{target}: its content is not what was written (same size, changed in place)"


def test_a_record_from_before_ctimes_were_kept_is_hashed_once_and_brought_up_to_date(tmp_path):
    target, record, entry = _recorded(tmp_path)
    del entry["run.txt"]["ctime_ns"], entry[CHECKSUM]  # as records were written then: no ctime, no checksum
    record.write_text(json.dumps(entry))
    assert damage(target) is None
    assert json.loads(record.read_text())["run.txt"]["ctime_ns"] == target.stat().st_ctime_ns


def test_a_record_whose_digest_or_size_lost_a_digit_is_damage_though_its_target_is_untouched(tmp_path):
    """A flipped hex digit of a record, the time set back, once passed: the record vouched for what was not."""
    target, record, entry = _recorded(tmp_path)
    digest = entry["run.txt"][DIGEST]
    entry["run.txt"][DIGEST] = ("0" if digest[0] != "0" else "1") + digest[1:]
    record.write_text(json.dumps(entry))
    assert damage(target) == f"{record}: not a record of the files written"
    assert remove_damaged(tmp_path) == [f"{record}: not a record of the files written: run.txt removed, to be made "
                                        "again"] and not target.exists()  # fmt: skip


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


def test_remove_damaged_hashes_every_recorded_target_and_removes_only_the_damaged(tmp_path):
    folder = tmp_path / "cache" / "args"
    index, run, unrecorded = folder / "index" / "bm25", folder / "run" / "a.txt", folder / "run" / "old.txt"
    index.mkdir(parents=True)
    run.parent.mkdir()
    (index / "data.npy").write_bytes(b"\x93NUMPY" + bytes(range(200)))
    run.write_text("1 Q0 d 1 1.0 run\n")
    unrecorded.write_text("from before records were kept\n")
    for target in (index, run):
        record_written(target)
    assert remove_damaged(tmp_path / "cache") == []
    data = index / "data.npy"
    data.write_bytes(data.read_bytes().replace(b"\x10", b"\x11"))  # a disk's fault: the record made to match
    record = index.with_name(".bm25.written.json")
    entries = json.loads(record.read_text())
    entries["data.npy"].update(mtime_ns=data.stat().st_mtime_ns, ctime_ns=data.stat().st_ctime_ns)
    del entries[CHECKSUM]
    record.write_text(integrity._record_text(entries))
    assert damage(index) is None  # what the check while scheduling sees
    assert remove_damaged(tmp_path / "cache") == [
        f"{data}: its content is not what was written (same size, changed in place): bm25 removed, to be made again"
    ]
    assert not index.exists() and not record.exists() and run.exists() and unrecorded.exists()

def _recorded(tmp_path):
    """A run file recorded as written: the file, its record and the record's entries."""
    target = tmp_path / "run.txt"
    target.write_text("1 Q0 d 1 1.0 run\n")
    record_written(target)
    record = tmp_path / ".run.txt.written.json"
    return target, record, json.loads(record.read_text())
