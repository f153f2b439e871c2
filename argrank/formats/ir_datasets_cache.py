"""ir_datasets' local cache as a track's input: a runs file names a dataset by its ir_datasets id, and its corpus,
topics and qrels are the files ir_datasets has already written to its cache, read where they lie.

Nothing is fetched here: a run must not start a download of gigabytes, so a missing file is one line saying which
`ir_datasets export` command writes it and where. The cache is `$IR_DATASETS_HOME`, else `~/.ir_datasets`, laid
out as ir_datasets lays it out (a track lists the paths of the ids it can read: tracks.track.RankingTrack).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from argrank.core.errors import InputError

HOME_VARIABLE = "IR_DATASETS_HOME"


@dataclass(frozen=True)
class CachedFile:
    """A file (or a folder of `holds`) under the cache home, and the part of its dataset (docs, queries, qrels)
    that `ir_datasets export` reads, and so writes to the cache, when asked for."""

    path: str
    part: str
    holds: tuple[str, ...] = ()


@dataclass(frozen=True)
class CachedDataset:
    """What a ranking track reads of one ir_datasets id: its documents, its topics and its judgments by name."""

    corpus: CachedFile
    topics: CachedFile
    qrels: Mapping[str, CachedFile]


def cache_home() -> Path:
    """Where ir_datasets keeps what it has fetched."""
    return Path(os.environ.get(HOME_VARIABLE) or Path.home() / ".ir_datasets")


def dataset_settings(
    path: Path, where: str, dataset_id: Any, datasets: Mapping[str, CachedDataset], corpus_key: str, given: set[str]
) -> dict[str, Any]:
    """The section settings `dataset_id` fills in: corpus, topics and qrels as absolute paths, each but those in
    `given` (the keys the runs file sets itself); InputError at `where` for an unknown id or a file not cached."""
    if not isinstance(dataset_id, str) or dataset_id not in datasets:
        raise InputError(path, where, f"unknown ir_datasets id {dataset_id!r} (known: {', '.join(datasets)})")
    dataset = datasets[dataset_id]

    def cached(file: CachedFile) -> str:
        location = cache_home() / file.path
        for needed in [location / name for name in file.holds] or [location]:
            if not needed.is_file():
                raise InputError(
                    path, where, f"{needed} is not in ir_datasets' cache; fetch it with: "
                    f"ir_datasets export {dataset_id} {file.part} > /dev/null",
                )  # fmt: skip
        return str(location)

    settings: dict[str, Any] = {}
    if corpus_key not in given:
        settings[corpus_key] = cached(dataset.corpus)
    if "topics" not in given:
        settings["topics"] = cached(dataset.topics)
    if "qrels" not in given:
        settings["qrels"] = {name: cached(file) for name, file in dataset.qrels.items()}
    return settings
