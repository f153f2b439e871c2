"""Where published results live under the output folder, and which folders a run sweeps at its start."""

from __future__ import annotations

from pathlib import Path

from argrank.core.layout import experiment_folder, history_file, report_folder, submission_folder, written_folders


def test_published_places_under_the_output_folder():
    out = "results"
    assert experiment_folder(out, "sweep") == Path("results/experiments/sweep")
    assert report_folder(out, "sweep") == Path("results/experiments/sweep/report")
    assert submission_folder(out) == Path("results/submission")
    assert history_file(Path(out)) == Path("results/history.jsonl")


def test_written_folders_are_the_existing_ones_a_run_writes_into_sorted(tmp_path):
    for folder in [
        "experiments/sweep/report",
        "experiments/other",
        "cache/args/index",
        "cache/args/rank",
        "submission",
    ]:
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "history.jsonl").write_text("", encoding="utf-8")  # a file, not a folder
    (tmp_path / "cache/args/index/shard-0").mkdir()  # deeper than a stage's folder: not swept
    assert written_folders(tmp_path, "sweep") == sorted(
        tmp_path / folder
        for folder in ["", "cache", "experiments", "submission", "experiments/sweep", "cache/args",
                       "cache/args/index", "cache/args/rank"]
    )  # fmt: skip


def test_a_missing_output_folder_has_no_written_folders(tmp_path):
    assert written_folders(tmp_path / "absent", "sweep") == []
