"""Where published results live under the output folder, for the publishers that write them and the commands
that read them: each experiment's tracks and report under `experiments/<name>/`, the submission's tracks under
`submission/`, the nightly runs' records in `history.jsonl`."""

from __future__ import annotations

from pathlib import Path


def experiment_folder(output_dir: str | Path, name: str) -> Path:
    """Where an experiment's tracks (`<track>/`) and report are published."""
    return Path(output_dir) / "experiments" / name


def report_folder(output_dir: str | Path, name: str) -> Path:
    """Where an experiment's HTML report (index.html and its files) is written."""
    return experiment_folder(output_dir, name) / "report"


def submission_folder(output_dir: str | Path) -> Path:
    """Where the submission experiment's tracks are also published."""
    return Path(output_dir) / "submission"


def history_file(output_dir: str | Path) -> Path:
    """One JSON record per nightly run of the submission experiment."""
    return Path(output_dir) / "history.jsonl"
