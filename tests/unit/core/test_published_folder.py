"""Publishing a folder of fixed name: two writers at once both succeed, the folder gets the mode mkdir gives, and
a second runs file may not publish into a folder another one (still present) claimed."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from argrank.core.atomic import PAUSE
from argrank.core.errors import InputError
from argrank.core.ownership import OWNER, claim
from argrank.core.published_folder import is_published, publish


def _writer(text: str):
    def write(staging: Path) -> list[str]:
        (staging / "run.txt").write_text(text)
        return ["run.txt"]

    return write


def test_two_publications_of_one_folder_at_once_both_succeed(tmp_path, monkeypatch):
    """Each rename is delayed, so both writers look for the folder before either has put it there: unless they
    take turns, the second rename finds the first one's folder in its way (OSError: Directory not empty)."""
    monkeypatch.setenv(PAUSE, "/args")
    monkeypatch.setenv("ARGRANK_PAUSE_SECONDS", "0.2")
    rename = os.replace

    def delayed(source, target):
        time.sleep(0.3)
        rename(source, target)

    monkeypatch.setattr(os, "replace", delayed)
    folder, errors = tmp_path / "args", []

    def publish_one(text: str) -> None:
        try:
            publish(folder, "sig", _writer(text))
        except OSError as error:
            errors.append(error)

    threads = [threading.Thread(target=publish_one, args=(text,)) for text in ("first", "second")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and is_published(folder, "sig")
    assert (folder / "run.txt").read_text() in ("first", "second")
    assert sorted(p.name for p in tmp_path.iterdir()) == [".args.lock", "args"]


def test_a_published_folder_has_the_mode_mkdir_gives(tmp_path):
    mask = os.umask(0o027)
    try:
        publish(tmp_path / "args", "sig", _writer("x"))
        (tmp_path / "plain").mkdir()
    finally:
        os.umask(mask)
    assert (tmp_path / "args").stat().st_mode & 0o777 == (tmp_path / "plain").stat().st_mode & 0o777 == 0o750


def test_a_second_runs_file_may_not_publish_where_another_one_does(tmp_path):
    folder = tmp_path / "outputs" / "experiments" / "sweep"
    first, second = tmp_path / "a" / "sweep.yaml", tmp_path / "b" / "sweep.yaml"
    for path in (first, second):
        path.parent.mkdir()
        path.write_text("args: {}\n")
    claim(folder, first, "experiment 'sweep'")
    claim(folder, first, "experiment 'sweep'")  # the same file again: its own folder
    with pytest.raises(InputError) as error:
        claim(folder, second, "experiment 'sweep'")
    assert error.value.path == str(second) and f"experiment 'sweep' ({folder}) is published by {first}" in str(error.value)
    first.unlink()  # moved or deleted: its folder is given up
    claim(folder, second, "experiment 'sweep'")
    assert (folder / OWNER).read_text() == f"{second}\n"


def test_only_a_folder_is_replaced_by_a_publication_and_a_link_to_one_is_followed(tmp_path):
    os.mkfifo(tmp_path / "args")
    with pytest.raises(InputError, match="args: is a FIFO \\(named pipe\\), not a folder"):
        publish(tmp_path / "args", "s1", _writer("one"))
    assert [p.name for p in tmp_path.iterdir()] == ["args"]  # the FIFO stays, nothing else was left behind
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "linked").symlink_to(tmp_path / "elsewhere")
    publish(tmp_path / "linked", "s2", _writer("two"))
    assert (tmp_path / "linked").is_symlink() and (tmp_path / "elsewhere" / "run.txt").read_text() == "two"
    assert is_published(tmp_path / "linked", "s2")
