"""The args track's tasks: its ingest. Its runs and their evaluation are the shared ones."""

from __future__ import annotations

from pathlib import Path

from argrank.core.fingerprint import files_digest
from argrank.core.table_writer import IngestStats
from argrank.tracks.args.argsme import ingest_argsme
from argrank.tracks.args.beir import ingest_beir
from argrank.tracks.args.layout import corpus_files, is_beir_zip
from tasks.ingest import IngestTask
from tasks.track_tasks import TrackTasks


class IngestArgsMe(IngestTask):
    """args.me JSON: a folder with the five 2020-04-01 files, or with args-me.json; or BEIR's Touché zip."""

    track = "args"
    documents = "arguments"

    def digest(self) -> str:
        return files_digest(corpus_files(self.corpus))

    def ingest(self, out_path: Path) -> IngestStats:
        files = corpus_files(self.corpus)
        return ingest_beir(files[0], out_path) if is_beir_zip(files[0]) else ingest_argsme(files, out_path)


TASKS = TrackTasks(ingest=IngestArgsMe)
