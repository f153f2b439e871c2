"""The args track's tasks: its ingest. Its runs and their evaluation are the shared ones."""

from __future__ import annotations

from pathlib import Path

from argrank.core.fingerprint import files_digest
from argrank.core.table_writer import IngestStats
from argrank.tracks.args.argsme import ingest_argsme
from argrank.tracks.args.layout import corpus_files
from tasks.ingest import IngestTask
from tasks.tracks import TrackTasks


class IngestArgsMe(IngestTask):
    """args.me JSON: a folder with the five 2020-04-01 files, or with args-me.json."""

    track = "args"
    documents = "arguments"

    def digest(self) -> str:
        return files_digest(corpus_files(self.corpus))

    def ingest(self, out_path: Path) -> IngestStats:
        return ingest_argsme(corpus_files(self.corpus), out_path)


TASKS = TrackTasks(ingest=IngestArgsMe)
