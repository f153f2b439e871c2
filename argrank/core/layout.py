"""Where published results live under the output folder, for the publishers that write them and the commands
that read them: each experiment's tracks and report under `experiments/<name>/`, the submission's tracks under
`submission/`, the stages' cache under `cache/`, the nightly runs' records in `history.jsonl` and the latest one's rankings in `nightly-rankings/`."""

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


def nightly_rankings_folder(output_dir: str | Path) -> Path:
    """The rankings the latest nightly run published, kept for the next one to measure how far its own moved."""
    return Path(output_dir) / "nightly-rankings"


def cache_folder(output_dir: str | Path) -> Path:
    """Where the stages' targets are cached, `<track>/<stage>/` each."""
    return Path(output_dir) / "cache"


def written_folders(output_dir: str | Path, name: str) -> list[Path]:
    """Every folder a run of experiment `name` writes entries into, so that what killed writers left in them can
    be swept at start: the output folder (the history) and the folders in it (the digests'), the experiment's (its
    tracks and report), the submission's, and each cached stage's (`cache/<track>/<stage>/`)."""
    output_dir = Path(output_dir)
    folders = [output_dir, *output_dir.glob("*"), experiment_folder(output_dir, name), submission_folder(output_dir)]
    folders += [*cache_folder(output_dir).glob("*"), *cache_folder(output_dir).glob("*/*")]
    folders += [*nightly_rankings_folder(output_dir).glob("*")]
    return sorted({folder for folder in folders if folder.is_dir()})
