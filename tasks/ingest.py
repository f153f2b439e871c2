"""Ingest: a track's documents to one Parquet table. Each track's ingest (in its task module, tasks.tracks) says
where its documents are and how they are read."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import luigi

from tasks.base import CachedTask, location, log

if TYPE_CHECKING:
    from argrank.core.table_writer import IngestStats


class IngestTask(CachedTask):
    """What every ingest shares: `corpus` says where the documents are, their fingerprint keys the cache."""

    corpus = location(luigi.Parameter(description="where the track's documents are"))

    stage = "ingest"
    extension = ".parquet"
    documents = "documents"  # what the log calls them

    def input_digests(self) -> list[str]:
        return [self.digest()]

    def input_files(self) -> dict[str, str]:
        """Its corpus, a file or a folder, by the digest that keys its target."""
        return {self.corpus: self.digest()}

    def run(self) -> None:
        stats = self.ingest(self.output_path)
        log.info("ingested %d %s from %s", stats.rows, self.documents, self.corpus)

    def digest(self) -> str:
        raise NotImplementedError

    def ingest(self, out_path: Path) -> IngestStats:
        raise NotImplementedError
