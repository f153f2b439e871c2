"""Progress of long stages: reported to the running task (so to Luigi's scheduler), silent elsewhere."""

from __future__ import annotations

import io
import sys

import luigi

from argrank.core import progress
from argrank.core.progress import reporting, track
from tasks.base import CachedTask


def test_track_yields_every_item_and_reports_about_a_hundred_times_over_a_known_total():
    seen = []
    with reporting(lambda what, done, total: seen.append((what, done, total))):
        assert list(track(range(1000), "rank", total=1000)) == list(range(1000))
    assert len(seen) == 100 and seen[0] == ("rank", 10, 1000) and seen[-1] == ("rank", 1000, 1000)


def test_without_a_total_every_thousand_items_and_without_a_reporter_nothing():
    seen = []
    with reporting(lambda what, done, total: seen.append((done, total))):
        assert sum(1 for _ in track(iter(range(2500)), "ingest arguments")) == 2500
    assert seen == [(1000, None), (2000, None)]
    assert list(track([1, 2], "quiet")) == [1, 2]  # outside a task: no reporter, and no bar off a terminal


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_bar_on_a_terminal_and_none_elsewhere(monkeypatch, capsys):
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert list(track(range(3), "ranking", total=3)) == [0, 1, 2]
    assert "ranking" in terminal.getvalue()
    monkeypatch.undo()
    assert list(track(range(3), "ranking", total=3)) == [0, 1, 2]
    assert capsys.readouterr().err == ""


class _Counting(CachedTask):
    track = "args"
    stage = "test"

    def run(self) -> None:
        for _ in progress.track(range(50), "work", total=50):  # (the class's `track` is its track's name)
            pass


def test_a_stage_reports_its_progress_and_status_to_the_scheduler(monkeypatch, tmp_path):
    config = luigi.configuration.get_config()
    before = config.get("argrank", "output_dir", "outputs")
    config.set("argrank", "output_dir", str(tmp_path))
    task = _Counting()
    percentages, messages = [], []
    monkeypatch.setattr(task, "set_progress_percentage", percentages.append)
    monkeypatch.setattr(task, "set_status_message", messages.append)
    try:
        task.run()
    finally:
        config.set("argrank", "output_dir", before)
    assert percentages[-1] == 100 and len(percentages) == 50 and messages[-1] == "work: 50 of 50"
