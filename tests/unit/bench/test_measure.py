"""bench.measure.run_child: a child measured after the files written before it are on disk."""

from __future__ import annotations

import os
import sys

from bench import measure


def test_the_files_written_so_far_are_flushed_before_the_child_starts(tmp_path, monkeypatch):
    started = tmp_path / "started"
    flushed_before_start = []
    monkeypatch.setattr(measure.os, "sync", lambda: flushed_before_start.append(not started.exists()))
    child = measure.run_child([sys.executable, "-c", f"open({str(started)!r}, 'w').close()"], tmp_path / "child.log",
                              tmp_path, dict(os.environ))  # fmt: skip
    assert child.returncode == 0 and started.exists()
    assert flushed_before_start == [True]
