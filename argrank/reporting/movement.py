"""How far tonight's rankings moved from the last nightly's, even where no mean fell.

The nightly keeps a copy of every run file it published (`nightly-rankings/<track>/<tag>.txt`, with the date of
its record in a manifest). The next nightly compares each of its runs with the kept copy of the same tag: the
rank-biased overlap of each topic's lists (p 0.95, to the longer list's depth, so identical lists score 1),
averaged over the topics. A run whose overlap fell below 1 − max change is flagged: a ranking that changed a lot
may keep its means, and still be a regression somebody should look at.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from argrank.config import Experiment
from argrank.core.atomic import atomic_path
from argrank.core.layout import experiment_folder, nightly_rankings_folder
from argrank.evaluation.reproducibility import rank_biased_overlap, trec_order
from argrank.formats.runfile import read_run

MANIFEST = "manifest.json"


def keep_rankings(experiment: Experiment, output_dir: str | Path, date: str) -> None:
    """Copy the experiment's published run files for the next nightly, the record's `date` in the manifest. The
    manifest goes first and comes back last: a copy cut short has none, and is never compared with."""
    folder = nightly_rankings_folder(output_dir)
    (folder / MANIFEST).unlink(missing_ok=True)
    for track in experiment.tracks:
        kept = folder / track
        if kept.exists():
            shutil.rmtree(kept)
        for run in _published_runs(experiment, output_dir, track):
            with atomic_path(kept / run.name) as staged:
                shutil.copyfile(run, staged)
    with atomic_path(folder / MANIFEST) as staged:
        staged.write_text(json.dumps({"date": date}), encoding="utf-8")


def kept_date(output_dir: str | Path) -> str | None:
    """The date of the record whose rankings are kept, or None where none are (whole)."""
    try:
        return json.loads((nightly_rankings_folder(output_dir) / MANIFEST).read_text(encoding="utf-8"))["date"]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def movement(experiment: Experiment, output_dir: str | Path) -> dict[str, dict[str, float]]:
    """track → run tag → mean rank-biased overlap of its published run with the kept copy of the same tag (runs
    with no kept copy left out)."""
    folder = nightly_rankings_folder(output_dir)
    moved: dict[str, dict[str, float]] = {}
    for track in experiment.tracks:
        for run in _published_runs(experiment, output_dir, track):
            kept = folder / track / run.name
            if kept.is_file():
                overlaps = rank_biased_overlap(_lists(kept), _lists(run), depth=None)
                moved.setdefault(track, {})[run.stem] = sum(overlaps.values()) / len(overlaps) if overlaps else 1.0
    return moved


def moved_beyond(moved: dict[str, dict[str, float]], max_change: float) -> list[str]:
    """Readable lines for each run whose change (1 − overlap) exceeds `max_change`."""
    return [f"{track} {tag}: rank-biased overlap {overlap:.4f} with the last nightly's (change {1 - overlap:.4f})"
            for track, runs in moved.items() for tag, overlap in runs.items() if 1 - overlap > max_change]  # fmt: skip


def _published_runs(experiment: Experiment, output_dir: str | Path, track: str) -> list[Path]:
    """The run files a track of the experiment published (a track without TREC runs has none)."""
    folder = experiment_folder(output_dir, experiment.name) / track
    tags = [spec.tag for spec in getattr(experiment.tracks[track], "runs", ())]
    return [folder / f"{tag}.txt" for tag in tags if (folder / f"{tag}.txt").is_file()]


def _lists(path: Path) -> dict[str, list[str]]:
    run: dict[str, dict[str, float]] = {}
    for line in read_run(path):
        run.setdefault(line.qid, {})[line.doc] = line.score
    return trec_order(run)
