"""The nightly history: one JSON line per nightly run of the submission experiment, and what it remembers.

A record holds when and from what the run was made (date, git commit, the runs file's and the inputs' digests)
and every mean the submission published, so the report can draw each measure's trend and a scheduler can be told
when one dropped.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from argrank.config import Experiment
from argrank.core.errors import InputError
from argrank.core.layout import experiment_folder
from argrank.tracks.registry import track as registered


def read_history(path: Path) -> list[dict[str, Any]]:
    """The records, oldest first; none if the file does not exist. InputError names a damaged line."""
    if not path.is_file():
        return []
    records = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise InputError(path, f"line {number}", f"not JSON: {error.msg}") from None
        if not isinstance(record, dict) or not {"date", "means"} <= set(record):
            raise InputError(path, f"line {number}", "a record needs a date and means")
        records.append(record)
    return records


def append_record(path: Path, record: dict[str, Any]) -> None:
    """Add one record as a line of its own (appending keeps every earlier line as it was)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps(record, sort_keys=True) + "\n")
        out.flush()


def published_means(experiment: Experiment, output_dir: str | Path) -> dict[str, dict[str, dict[str, dict]]]:
    """track → run (or perspective scenario/split) → judgments → measure → mean, from the published
    evaluation.json files; stance F1 under the judgments name "stance"."""
    means: dict[str, dict[str, dict[str, dict]]] = {}
    for name, track in experiment.tracks.items():
        path = experiment_folder(output_dir, experiment.name) / name / "evaluation.json"
        if not path.is_file():
            continue
        means[name] = registered(name).means(track, json.loads(path.read_text(encoding="utf-8")))
    return means


def drops(previous: dict[str, Any], current: dict[str, Any], tolerance: float) -> list[str]:
    """Every mean that fell by more than `tolerance` from the previous record to this one, as readable lines
    (rKL, where lower is better, counts when it rose)."""
    found = []
    for track, runs in current.items():
        for run, by_qrels in runs.items():
            for qrels, values in by_qrels.items():
                for measure, value in values.items():
                    before = previous.get(track, {}).get(run, {}).get(qrels, {}).get(measure)
                    if value is None or before is None:
                        continue
                    fall = (value - before) if measure.startswith("rKL") else (before - value)
                    if fall > tolerance:
                        found.append(f"{track} {run} {qrels} {measure}: {before:.4f} → {value:.4f}")
    return found
