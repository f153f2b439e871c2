"""Outputs write only regular files (and folders) argrank may replace: every command's output option refuses a
device, a FIFO, a socket or a folder in one line before any work, `-` is standard output, and a link is followed
with its target replaced."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def argrank(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "workflows.cli", *args], cwd=REPO, capture_output=True, text=True)


@pytest.fixture
def runs(shared_data: Path) -> tuple[list[str], str]:
    task2 = shared_data / "touche-task2"
    files = [str(task2 / "runs-2022" / f"{name}.txt") for name in ("Grimjack-run1", "Asuna-run1")]
    return files, str(task2 / "touche-task2-2022-relevance.qrels")


def _targets(tmp_path: Path) -> dict[str, tuple[str, str]]:
    """Paths an output may not replace, and what the refusal calls them."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    (tmp_path / "folder").mkdir()
    return {"device": ("/dev/full", "a character device"), "fifo": (str(fifo), "a FIFO (named pipe)"),
            "folder": (str(tmp_path / "folder"), "a folder")}  # fmt: skip


@pytest.mark.parametrize("target", ["device", "fifo", "folder"])
def test_every_output_option_refuses_what_it_may_not_replace_before_any_work(runs, tmp_path, target):
    files, qrels = runs
    path, kind = _targets(tmp_path)[target]
    commands = [
        ["fuse", "--run", files[0], "--run", files[1], "--output", path],
        ["evaluate", "--track", "comparative", "--run", files[0], "--qrels", qrels, "--csv", path],
        ["compare", "--track", "comparative", "--run", files[0], "--run", files[1], "--qrels", qrels, "--latex", path],
        ["compare", "--track", "comparative", "--run", files[0], "--run", files[1], "--qrels", qrels, "--markdown",
         path],
        ["compare", "--track", "comparative", "--run", files[0], "--run", files[1], "--qrels", qrels, "--csv", path],
    ]  # fmt: skip
    for command in commands:
        done = argrank(*command)
        assert done.returncode == 2, (command, done.stderr)
        assert done.stderr == f"argrank: error: {path}: is {kind}, not a regular file: argrank replaces only what " \
                              "it writes; name another path, or - for standard output where the option takes it\n"
        assert not done.stdout  # refused before anything was computed or shown
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode) and stat.S_ISFIFO(os.stat(tmp_path / "fifo").st_mode)
    assert (tmp_path / "folder").is_dir() and not any((tmp_path / "folder").iterdir())


def test_a_folder_option_refuses_a_file(tmp_path):
    (tmp_path / "file").write_text("x")
    done = argrank("evaluate", "--track", "perspective", "--data", str(tmp_path), "--predictions", str(tmp_path),
                   "--scenario", "baseline", "--split", "dev", "--csv-dir", str(tmp_path / "file"))  # fmt: skip
    assert done.returncode == 2 and f"{tmp_path / 'file'}: is a regular file, not a folder" in done.stderr
    done = argrank("tira", "-i", str(tmp_path), "-o", str(tmp_path / "file"))
    assert done.returncode == 2 and f"{tmp_path / 'file'}: is a regular file, not a folder" in done.stderr
    assert (tmp_path / "file").read_text() == "x"


def test_a_dash_is_standard_output(runs):
    files, qrels = runs
    fused = argrank("fuse", "--run", files[0], "--run", files[1], "--output", "-")
    assert fused.returncode == 0, fused.stderr
    lines = fused.stdout.splitlines()
    assert len(lines) > 1000 and all(len(line.split()) == 6 and line.endswith(" fused") for line in lines)
    assert fused.stderr.startswith("combsum after min-max of 2 runs")  # what is said of the run: on stderr
    table = argrank("evaluate", "--track", "comparative", "--run", files[0], "--qrels", qrels, "--csv", "-")
    assert table.returncode == 0 and table.stdout.splitlines()[0].startswith("topic,nDCG@5")


def test_a_link_is_followed_and_its_target_replaced(runs, tmp_path):
    files, _ = runs
    (tmp_path / "real.txt").write_text("old\n")
    (tmp_path / "link.txt").symlink_to(tmp_path / "real.txt")
    done = argrank("fuse", "--run", files[0], "--run", files[1], "--output", str(tmp_path / "link.txt"))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "link.txt").is_symlink() and (tmp_path / "real.txt").read_text().endswith(" fused\n")
