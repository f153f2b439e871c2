"""Ingest, one adapter per track: the track's documents to one Parquet table."""

from __future__ import annotations

import luigi

from argrank.argsme import corpus_files, ingest_argsme
from argrank.fingerprint import file_digest, files_digest
from argrank.passages import ingest_passages, passage_file
from tasks.base import CachedTask, log


class IngestArgsMe(CachedTask):
    """args.me JSON, five-file or single-file layout."""

    corpus = luigi.Parameter(description="folder with the args.me JSON files")

    track = "args"
    stage = "ingest"
    extension = ".parquet"
    location_params = ("corpus",)

    def input_digests(self) -> list[str]:
        return [files_digest(corpus_files(self.corpus))]

    def run(self) -> None:
        stats = ingest_argsme(corpus_files(self.corpus), self.output_path)
        log.info("ingested %d arguments from %s", stats.rows, self.corpus)


class IngestPassages(CachedTask):
    """Touché Task 2 passages, `passages.jsonl.gz` or `.jsonl`."""

    corpus = luigi.Parameter(description="the passages file, or a folder holding passages.jsonl.gz")

    track = "comparative"
    stage = "ingest"
    extension = ".parquet"
    location_params = ("corpus",)

    def input_digests(self) -> list[str]:
        return [file_digest(passage_file(self.corpus))]

    def run(self) -> None:
        stats = ingest_passages(passage_file(self.corpus), self.output_path)
        log.info("ingested %d passages from %s", stats.rows, self.corpus)


INGESTS = {"args": IngestArgsMe, "comparative": IngestPassages}
