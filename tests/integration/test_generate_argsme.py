"""The synthetic args.me generator as a Luigi target and as a command of its own."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import luigi

from argrank.formats.topics import read_topics
from argrank.tracks.args.layout import SOURCE_FILES
from tools.generate_argsme import GenerateArgsMe
from tools.synthetic_argsme import TOPICS_FILE, is_complete

REPO = Path(__file__).resolve().parents[2]


def test_luigi_task_writes_the_folder_and_is_then_complete(tmp_path):
    out = tmp_path / "synth"
    task = GenerateArgsMe(out=str(out), arguments=300, seed=1, topics=5)
    assert not task.complete()
    assert luigi.build([task], local_scheduler=True, log_level="WARNING")
    assert task.complete() and is_complete(out, 300, 1, 5)
    assert len(read_topics(out / TOPICS_FILE)) == 5
    assert not GenerateArgsMe(out=str(out), arguments=300, seed=2, topics=5).complete()
    assert not list(tmp_path.glob(".*")), "temporary folders left behind"


def test_cli_writes_and_reports(tmp_path):
    command = [sys.executable, "-m", "tools.generate_argsme", "--out", str(tmp_path / "c")]
    done = subprocess.run(
        [*command, "--arguments", "500", "--seed", "9", "--topics", "7"],
        cwd=REPO, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "median" in done.stdout and "p99" in done.stdout and "non-arguments" in done.stdout
    assert len(read_topics(tmp_path / "c" / TOPICS_FILE)) == 7
    assert sum(len(json.loads((tmp_path / "c" / n).read_text())["arguments"]) for n in SOURCE_FILES) == 500
