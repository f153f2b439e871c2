"""The report's plot files: one name each, inside the report folder, whatever names the runs file or a history
record gives (two plots of one name made the publication, and so every later run, fail)."""

from __future__ import annotations

from argrank.reporting.experiment import _trend
from argrank.reporting.plots import plot_file_name


def test_names_that_would_repeat_are_numbered_and_stay_plain():
    files: list[str] = []
    for stem in ["args-rel-differences-P/10", "args-rel-differences-P_10", "../../escape", "args-rel-differences-P_10"]:
        files.append(plot_file_name(stem, files))
    assert files == ["args-rel-differences-P_10.svg", "args-rel-differences-P_10-2.svg", "_.._escape.svg",
                     "args-rel-differences-P_10-3.svg"]  # fmt: skip


def test_trend_plots_of_tracks_whose_names_collide_get_a_file_each(tmp_path):
    means = {"nDCG@5": 0.5}
    history = [
        {"date": f"2026-11-0{day}T00:00:00Z", "means": {track: {"bm25": {"rel": means}} for track in ("a/b", "a_b")}}
        for day in (1, 2)
    ]
    files: list[str] = []
    _trend(history, tmp_path, files)
    assert files == ["trend-a_b.svg", "trend-a_b-2.svg"]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(files)
