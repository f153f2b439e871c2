"""Ingest: args.me JSON (five-file or single-file layout) to one Parquet table of arguments."""

from __future__ import annotations

import luigi

from argrank.argsme import corpus_files, ingest_argsme
from argrank.fingerprint import files_digest
from tasks.base import CachedTask, log


class IngestArgsMe(CachedTask):
    corpus = luigi.Parameter(description="folder with the args.me JSON files")

    stage = "ingest"
    extension = ".parquet"
    location_params = ("corpus",)

    def input_digests(self) -> list[str]:
        return [files_digest(corpus_files(self.corpus))]

    def run(self) -> None:
        stats = ingest_argsme(corpus_files(self.corpus), self.output_path)
        log.info("ingested %d arguments from %s", stats.arguments, self.corpus)
