"""Atomic output: the target appears whole or not at all, and a later run sweeps what a killed writer left."""

from __future__ import annotations

import os
import re
import socket
import stat
import subprocess
import sys
import time

import pytest

from argrank.core.atomic import (
    EITHER,
    FOLDER,
    _state,
    atomic_path,
    atomic_write_text,
    output_path,
    remove_leftovers,
    temporary_folder,
)
from argrank.core.errors import InputError


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


def _socket(path):
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    return server


@pytest.mark.parametrize(("make", "kind"), [
    (os.mkfifo, "a FIFO (named pipe)"),
    (_socket, "a socket"),
    (os.mkdir, "a folder"),
])  # fmt: skip
def test_only_a_regular_file_is_replaced_by_a_file(tmp_path, make, kind):
    target = tmp_path / "target"
    made = make(target)
    with pytest.raises(InputError, match=f"{target}: is {re.escape(kind)}, not a regular file"):
        atomic_write_text(target, "text")
    assert not stat.S_ISREG(os.stat(target).st_mode) and [p.name for p in tmp_path.iterdir()] == ["target"]
    if made is not None:
        made.close()


def test_a_character_device_is_refused_before_the_block_runs():
    ran = []
    with pytest.raises(InputError, match="/dev/full: is a character device, not a regular file or a folder"):
        with atomic_path("/dev/full"):
            ran.append(True)
    assert not ran and stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_a_link_is_followed_its_target_replaced_and_the_link_kept(tmp_path):
    (tmp_path / "real.txt").write_text("old")
    (tmp_path / "link.txt").symlink_to(tmp_path / "real.txt")
    atomic_write_text(tmp_path / "link.txt", "new")
    assert (tmp_path / "link.txt").is_symlink() and (tmp_path / "real.txt").read_text() == "new"
    (tmp_path / "dangling.txt").symlink_to(tmp_path / "later.txt")
    atomic_write_text(tmp_path / "dangling.txt", "made")
    assert (tmp_path / "later.txt").read_text() == "made" and (tmp_path / "dangling.txt").is_symlink()
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    with pytest.raises(InputError, match="a symbolic link that cannot be followed"):
        output_path(tmp_path / "loop")


def test_a_folder_replaces_only_a_folder(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(InputError, match="is a regular file, not a folder"):
        output_path(tmp_path / "file", FOLDER)
    with pytest.raises(InputError, match="is a regular file, not a folder"):
        with atomic_path(tmp_path / "file") as staged:
            staged.mkdir()
    assert (tmp_path / "file").read_text() == "x"
    assert output_path(tmp_path / "new", FOLDER) == tmp_path / "new" and output_path(tmp_path, EITHER) == tmp_path
