"""The nightly history: one JSON line per nightly run of the submission experiment, and what it remembers.

A record holds when and from what the run was made (date, git commit, the runs file's digest, each track's signature
and its input files' digests) and every mean the submission published, so the report can draw each measure's trend
and a scheduler can be told when one dropped. The gate compares a record with the latest earlier one of the same
runs file (a changed runs file is another experiment, whose means may differ by design) and watches only the
measures that say how good the runs are (each track's `gate_measures`, or the ones named), then names what changed
between the two records, so that a reported drop can be traced. Records written before a key existed still load:
each key is read with a default.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path
from typing import Any

from argrank.config import Experiment
from argrank.core.atomic import atomic_path
from argrank.core.layout import experiment_folder
from argrank.evaluation.measures import canonical
from argrank.evaluation.names import lower_is_better
from argrank.tracks.registry import track as registered

log = logging.getLogger(__name__)
INPUT_FILES = "input_files"  # track → input file (relative to the runs file, or as written) → its digest


def read_history(path: Path) -> list[dict[str, Any]]:
    """The records, oldest first; none if the file does not exist. The history is the only copy of what earlier
    nights measured, so a damaged line (not UTF-8, not JSON, not a record) is skipped, never dropped from the file,
    and one warning names the file and the lines."""
    if not path.exists():
        return []
    try:
        lines = path.read_bytes().splitlines()
    except OSError as error:
        log.warning("%s: cannot read the nightly history (%s): going on without it", path, error.strerror)
        return []
    records, damaged = [], []
    for number, line in enumerate(lines, start=1):
        record = _record(line)
        if record is None:
            damaged.append(number)
        else:
            records.append(record)
    if damaged:
        shown = ", ".join(map(str, damaged[:10])) + (f" and {len(damaged) - 10} more" if len(damaged) > 10 else "")
        log.warning("%s: line%s %s damaged (not a nightly record): skipped, left in the file", path,
                    "s" if len(damaged) > 1 else "", shown)  # fmt: skip
    return records


def _record(line: bytes) -> dict[str, Any] | None:
    """The record a history line holds, None where it holds none: its date a string, its means track → run →
    judgments → measure → number (or null), and what it was made from strings (or absent)."""
    try:
        record = json.loads(line)
    except (ValueError, RecursionError):  # not UTF-8 (UnicodeDecodeError is a ValueError) or not JSON
        return None
    if not isinstance(record, dict) or not isinstance(record.get("date"), str):
        return None
    for key in ("commit", "runs_file"):
        if record.get(key) is not None and not isinstance(record[key], str):
            return None
    if record.get("signatures") is not None and not _mapping_of(record["signatures"], 1, str):
        return None
    if record.get(INPUT_FILES) is not None and not _mapping_of(record[INPUT_FILES], 2, str):
        return None
    return record if _mapping_of(record.get("means"), 4, (int, float, type(None))) else None


def _mapping_of(value: Any, depth: int, leaf: type | tuple[type, ...]) -> bool:
    """Whether `value` is `depth` levels of string-keyed objects over values of type `leaf` (booleans excluded)."""
    if depth == 0:
        return isinstance(value, leaf) and not isinstance(value, bool)
    return isinstance(value, dict) and all(
        isinstance(key, str) and _mapping_of(item, depth - 1, leaf) for key, item in value.items()
    )


def append_record(path: Path, record: dict[str, Any]) -> None:
    """Add one record as a line of its own, atomically: the history is written anew beside itself and renamed, so a
    full disk or a kill leaves it with the whole record or without it, never half a line. Earlier lines are kept
    byte for byte, damaged ones too."""
    earlier = path.read_bytes() if path.is_file() else b""
    if earlier and not earlier.endswith(b"\n"):
        earlier += b"\n"
    with atomic_path(path) as staged:
        staged.write_bytes(earlier + (json.dumps(record, sort_keys=True) + "\n").encode("utf-8"))


def published_means(experiment: Experiment, output_dir: str | Path) -> dict[str, dict[str, dict[str, dict]]]:
    """track → run (or perspective scenario/split) → judgments → measure → mean, from the published
    evaluation.json files; stance F1 under the judgments name "stance"."""
    means: dict[str, dict[str, dict[str, dict]]] = {}
    for name, section in experiment.tracks.items():
        path = experiment_folder(output_dir, experiment.name) / name / "evaluation.json"
        if not path.is_file():
            continue
        means[name] = registered(name).means(section, json.loads(path.read_text(encoding="utf-8")))
    return means


def compared_record(records: list[dict[str, Any]], runs_file: str | None, across_changes: bool) -> int | None:
    """The index of the record tonight's is compared with: the latest of the same runs-file digest, or with
    `across_changes` the latest whatever its digest; None when no record qualifies."""
    for index in reversed(range(len(records))):
        if across_changes or records[index].get("runs_file") == runs_file:
            return index
    return None


def default_gate(tracks: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """track → the measures it declares worth gating (Track.gate_measures)."""
    return {name: registered(name).gate_measures for name in tracks}


def held_measures(records: Iterable[dict[str, Any]]) -> list[str]:
    """Every measure name the records' means hold, sorted."""
    return sorted({name for record in records for runs in record["means"].values() for name in _names(runs)})


def _names(runs: dict[str, dict[str, dict]]) -> set[str]:
    """The measure names of one track's means (run → judgments → measure → mean)."""
    return {measure for by_qrels in runs.values() for values in by_qrels.values() for measure in values}


def gate_names(asked: Iterable[str], records: list[dict[str, Any]]) -> tuple[str, ...]:
    """The measures `--gate` names, as the records hold them: a held name as given, else as ir_measures writes it
    (`measures.canonical`: `judged@5` is `Judged@5`). ValueError names one no record holds, and lists those held."""
    held = held_measures(records)
    chosen = []
    for name in asked:
        stored = name
        if stored not in held:
            try:
                stored = canonical(name)
            except ValueError:
                pass
        if stored not in held:
            raise ValueError(f"--gate {name}: no nightly record holds it; they hold {', '.join(held)}")
        chosen.append(stored)
    return tuple(dict.fromkeys(chosen))


def describe_gate(gate: Mapping[str, Collection[str]], means: dict[str, Any]) -> str:
    """What the gate watches per track, in the gate's order, among the measures `means` holds ("nothing" for a
    track holding none)."""
    parts = []
    for track in sorted(means):
        held = _names(means[track])
        watched = [measure for measure in gate.get(track, ()) if measure in held]
        parts.append(f"{track} {', '.join(watched) if watched else 'nothing'}")
    return "; ".join(parts)


def changes(before: dict[str, Any], after: dict[str, Any]) -> str:
    """What differs between two records' origins, in words: the runs file, the inputs (the tracks whose signature
    differs, each with the input files whose digest differs where both records hold them) and the commit (short
    hashes); "nothing" when all three are the same. A key only one of them has counts as changed (records written
    before it existed)."""
    found = []
    if before.get("runs_file") != after.get("runs_file"):
        found.append("the runs file")
    old, new = before.get("signatures") or {}, after.get("signatures") or {}
    tracks = sorted(track for track in old.keys() | new.keys() if old.get(track) != new.get(track))
    if tracks:
        found.append(f"the inputs of {', '.join(_with_files(track, before, after) for track in tracks)}")
    if before.get("commit") != after.get("commit"):
        found.append(f"the commit {_short(before.get('commit'))} → {_short(after.get('commit'))}")
    return "; ".join(found) if found else "nothing (same runs file, inputs and commit)"


def _with_files(track: str, before: dict[str, Any], after: dict[str, Any]) -> str:
    """The track, with its input files that changed, came or went between the records (where both hold them)."""
    if before.get(INPUT_FILES) is None or after.get(INPUT_FILES) is None:
        return track
    old, new = before[INPUT_FILES].get(track, {}), after[INPUT_FILES].get(track, {})
    kinds = (
        ("changed", [path for path in old if path in new and old[path] != new[path]]),
        ("new", [path for path in new if path not in old]),
        ("gone", [path for path in old if path not in new]),
    )
    named = "; ".join(f"{kind}: {', '.join(sorted(paths))}" for kind, paths in kinds if paths)
    return f"{track} ({named})" if named else track


def _short(commit: str | None) -> str:
    return commit[:7] if commit else "unknown"


def drops(
    previous: dict[str, Any], current: dict[str, Any], tolerance: float, gate: Mapping[str, Collection[str]]
) -> list[str]:
    """Every gated mean (`gate`: track → measures) that fell by more than `tolerance` from the previous record to
    this one, as readable lines (rKL, where lower is better, counts when it rose)."""
    found = []
    for track, runs in current.items():
        watched = gate.get(track, ())
        for run, by_qrels in runs.items():
            for qrels, values in by_qrels.items():
                for measure, value in values.items():
                    before = previous.get(track, {}).get(run, {}).get(qrels, {}).get(measure)
                    if measure not in watched or value is None or before is None:
                        continue
                    fall = (value - before) if lower_is_better(measure) else (before - value)
                    if fall > tolerance:
                        found.append(f"{track} {run} {qrels} {measure}: {before:.4f} → {value:.4f}")
    return found
