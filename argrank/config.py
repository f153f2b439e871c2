"""The runs file: per track, where its data is and which named runs to produce (method and parameters).

Paths are relative to the runs file's own folder, so a config can travel with its data.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from argrank.errors import InputError
from argrank.ranking import resolve_params
from argrank.retrieval import QUERY_FIELDS

MAX_RUNS_PER_TRACK = 5  # Touché accepts at most five runs per team and task.
TAG = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
DOCUMENT_FIELDS = ("conclusion", "premise")


@dataclass(frozen=True)
class RunSpec:
    tag: str
    method: str
    params: dict[str, float]
    query: str


@dataclass(frozen=True)
class ArgsTrack:
    corpus: Path
    topics: Path
    qrels: dict[str, Path] = field(default_factory=dict)
    language: str = "en"
    fields: tuple[str, ...] = DOCUMENT_FIELDS
    depth: int = 1000
    runs: tuple[RunSpec, ...] = ()


def load_config(path: str | Path) -> dict[str, ArgsTrack]:
    """Read and check a runs file; every problem is an InputError naming the offending key."""
    path = Path(path)
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(path, "", "runs file not found") from None
    except (yaml.YAMLError, UnicodeDecodeError) as error:
        raise InputError(path, "", f"not valid YAML: {error}") from None
    if not isinstance(raw, dict) or not raw:
        raise InputError(path, "", "expected a mapping of track names to track settings")
    tracks = {}
    for name, settings in raw.items():
        if name != "args":
            raise InputError(path, str(name), "unknown track (known: args)")
        tracks[name] = _args_track(path, name, settings)
    return tracks


def _args_track(path: Path, name: str, settings: Any) -> ArgsTrack:
    where = name
    if not isinstance(settings, dict):
        raise InputError(path, where, "expected a mapping")
    known = {"corpus", "topics", "qrels", "language", "fields", "depth", "runs"}
    unknown = sorted(set(settings) - known)
    if unknown:
        raise InputError(path, where, f"unknown setting(s) {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    base = path.parent

    def located(key: str, value: Any) -> Path:
        if not isinstance(value, str) or not value:
            raise InputError(path, f"{where}.{key}", "expected a path")
        return (base / value).resolve()

    for key in ("corpus", "topics"):
        if key not in settings:
            raise InputError(path, where, f"missing setting {key!r}")
    qrels = settings.get("qrels") or {}
    if not isinstance(qrels, dict):
        raise InputError(path, f"{where}.qrels", "expected a mapping of names to qrels files")
    fields = tuple(settings.get("fields", DOCUMENT_FIELDS))
    if not fields or not set(fields) <= set(DOCUMENT_FIELDS):
        raise InputError(path, f"{where}.fields", f"expected a list drawn from {', '.join(DOCUMENT_FIELDS)}")
    depth = settings.get("depth", 1000)
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= 1000:
        raise InputError(path, f"{where}.depth", "expected an integer from 1 to 1000")
    runs = _runs(path, f"{where}.runs", settings.get("runs"))
    return ArgsTrack(
        corpus=located("corpus", settings["corpus"]),
        topics=located("topics", settings["topics"]),
        qrels={str(k): located(f"qrels.{k}", v) for k, v in qrels.items()},
        language=str(settings.get("language", "en")),
        fields=fields,
        depth=depth,
        runs=runs,
    )


def _runs(path: Path, where: str, runs: Any) -> tuple[RunSpec, ...]:
    if not isinstance(runs, dict) or not runs:
        raise InputError(path, where, "expected a mapping of run tags to run settings")
    if len(runs) > MAX_RUNS_PER_TRACK:
        raise InputError(path, where, f"{len(runs)} runs, but Touché accepts at most {MAX_RUNS_PER_TRACK}")
    specs = []
    for tag, run in runs.items():
        here = f"{where}.{tag}"
        if not isinstance(tag, str) or not TAG.match(tag):
            raise InputError(path, here, "a run tag is letters, digits, '.', '_' or '-' (no spaces)")
        if not isinstance(run, dict):
            raise InputError(path, here, "expected a mapping with method, params and query")
        unknown = sorted(set(run) - {"method", "params", "query"})
        if unknown:
            raise InputError(path, here, f"unknown setting(s) {', '.join(unknown)}")
        method = run.get("method", "bm25")
        query = run.get("query", "title")
        if query not in QUERY_FIELDS:
            raise InputError(path, f"{here}.query", f"unknown query {query!r} (known: {', '.join(QUERY_FIELDS)})")
        params = run.get("params") or {}
        if not isinstance(params, dict):
            raise InputError(path, f"{here}.params", "expected a mapping of parameter names to numbers")
        try:
            params = resolve_params(method, params)
        except ValueError as error:
            raise InputError(path, here, str(error)) from None
        specs.append(RunSpec(tag=tag, method=method, params=params, query=query))
    return tuple(specs)
