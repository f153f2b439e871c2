"""The toy track's Luigi tasks: its ingest only; ranking, runs, evaluation and publication are the shared ones."""

from __future__ import annotations

from pathlib import Path

from argrank.core.fingerprint import file_digest
from argrank.core.table_writer import IngestStats
from tasks.ingest import IngestTask
from tasks.track_tasks import TrackTasks
from toytrack.reader import ingest_toy


class IngestToy(IngestTask):
    track = "toy"

    def digest(self) -> str:
        return file_digest(self.corpus)

    def ingest(self, out_path: Path) -> IngestStats:
        return ingest_toy(self.corpus, out_path)


TASKS = TrackTasks(ingest=IngestToy)
