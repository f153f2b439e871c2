"""Atomic output: the target appears whole or not at all, and a later run sweeps what a killed writer left."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from argrank.core.atomic import _state, atomic_path, atomic_write_text, remove_leftovers, temporary_folder


def test_a_written_file_replaces_the_target_and_leaves_no_temporary_entry(tmp_path):
    target = tmp_path / "sub" / "out.txt"
    atomic_write_text(target, "first")
    atomic_write_text(target, "zweite Fassung")
    assert target.read_text(encoding="utf-8") == "zweite Fassung"
    assert os.listdir(target.parent) == ["out.txt"]


def test_a_failing_block_keeps_the_old_target_and_removes_its_temporary_entry(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old", encoding="utf-8")
    with pytest.raises(RuntimeError, match="stop"), atomic_path(target) as tmp:
        tmp.write_text("half", encoding="utf-8")
        assert tmp.parent.name.startswith(".out.txt.") and tmp.parent.name.endswith(".tmp")
        raise RuntimeError("stop")
    assert target.read_text(encoding="utf-8") == "old"
    assert os.listdir(tmp_path) == ["out.txt"]


def test_a_folder_written_at_the_path_replaces_the_old_folder_whole(tmp_path):
    target = tmp_path / "index"
    target.mkdir()
    (target / "stale.bin").write_bytes(b"x")
    with atomic_path(target) as tmp:
        tmp.mkdir()
        (tmp / "fresh.bin").write_bytes(b"y")
    assert os.listdir(target) == ["fresh.bin"]
    assert os.listdir(tmp_path) == ["index"]


def _dead_pid() -> int:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def test_leftovers_of_dead_writers_are_removed_and_those_of_live_ones_and_other_files_kept(tmp_path):
    dead = _dead_pid()
    gone_file = tmp_path / f".out.txt.{dead}.abc123.tmp"
    gone_folder = tmp_path / f".index.{dead}.x_y.tmp"
    mine = tmp_path / f".out.txt.{os.getpid()}.def456.tmp"
    not_ours = [tmp_path / "notes.tmp", tmp_path / f"out.{dead}.abc.tmp", tmp_path / "out.txt"]
    gone_file.write_text("half", encoding="utf-8")
    gone_folder.mkdir()
    (gone_folder / "index").write_text("half", encoding="utf-8")
    mine.write_text("being written", encoding="utf-8")
    for path in not_ours:
        path.write_text("keep", encoding="utf-8")
    assert sorted(remove_leftovers(tmp_path)) == sorted([gone_file, gone_folder])
    assert sorted(os.listdir(tmp_path)) == sorted(path.name for path in [mine, *not_ours])


def test_the_leftover_of_a_killed_writer_not_yet_reaped_is_removed(tmp_path):
    """A killed writer is a zombie until its parent waits for it, and a signal still reaches it: its leftovers go."""
    writer = subprocess.Popen([sys.executable, "-c", "pass"])
    try:
        while _state(writer.pid) != "Z":  # exited, not waited for
            time.sleep(0.01)
        leftover = tmp_path / f".tokens.{writer.pid}.abc123.tmp"
        leftover.mkdir()
        assert remove_leftovers(tmp_path) == [leftover] and not leftover.exists()
    finally:
        writer.wait()


def test_a_missing_folder_has_no_leftovers(tmp_path):
    assert remove_leftovers(tmp_path / "absent") == []


def test_a_temporary_folder_is_named_so_that_the_sweep_knows_it(tmp_path):
    folder = temporary_folder(tmp_path / "cache" / "stage")
    assert folder.is_dir() and folder.parent == tmp_path / "cache"
    assert folder.name.startswith(f".stage.{os.getpid()}.") and folder.name.endswith(".tmp")
    assert remove_leftovers(folder.parent) == []  # its writer, this process, is alive
