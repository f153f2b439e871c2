"""Ingest, one adapter per track: the track's documents to one Parquet table."""

from __future__ import annotations

from pathlib import Path

import luigi

from argrank.core.fingerprint import file_digest, files_digest
from argrank.core.table_writer import IngestStats
from argrank.tracks.args.argsme import corpus_files, ingest_argsme
from argrank.tracks.comparative.passages import ingest_passages, passage_file
from argrank.tracks.images.collection import collection_digest, collection_root, ingest_images
from argrank.tracks.perspective.data import CORPUS_FILE
from argrank.tracks.perspective.ingest import ingest_perspective
from tasks.base import CachedTask, log


class IngestTask(CachedTask):
    """What every ingest shares: `corpus` says where the documents are, their fingerprint keys the cache."""

    corpus = luigi.Parameter(description="where the track's documents are")

    stage = "ingest"
    extension = ".parquet"
    location_params = ("corpus",)
    documents = "documents"  # what the log calls them

    def input_digests(self) -> list[str]:
        return [self.digest()]

    def run(self) -> None:
        stats = self.ingest(self.output_path)
        log.info("ingested %d %s from %s", stats.rows, self.documents, self.corpus)

    def digest(self) -> str:
        raise NotImplementedError

    def ingest(self, out_path: Path) -> IngestStats:
        raise NotImplementedError


class IngestArgsMe(IngestTask):
    """args.me JSON: a folder with the five 2020-04-01 files, or with args-me.json."""

    track = "args"
    documents = "arguments"

    def digest(self) -> str:
        return files_digest(corpus_files(self.corpus))

    def ingest(self, out_path: Path) -> IngestStats:
        return ingest_argsme(corpus_files(self.corpus), out_path)


class IngestPassages(IngestTask):
    """Touché Task 2 passages: `passages.jsonl.gz` or `.jsonl`, or a folder holding it."""

    track = "comparative"
    documents = "passages"

    def digest(self) -> str:
        return file_digest(passage_file(self.corpus))

    def ingest(self, out_path: Path) -> IngestStats:
        return ingest_passages(passage_file(self.corpus), out_path)


class IngestImages(IngestTask):
    """The image collection's folder tree: one row per image with its texts, searches, hash and size."""

    track = "images"
    documents = "images"

    def digest(self) -> str:
        return collection_digest(collection_root(self.corpus))

    def ingest(self, out_path: Path) -> IngestStats:
        return ingest_images(self.corpus, out_path)


class IngestPerspective(IngestTask):
    """The perspective release's corpus.jsonl, each argument's language detected among `language`'s."""

    language = luigi.Parameter(default="de,fr,it", description="the corpus's languages, the majority first")

    track = "perspective"
    documents = "arguments"

    def digest(self) -> str:
        return file_digest(Path(self.corpus) / CORPUS_FILE)

    def ingest(self, out_path: Path) -> IngestStats:
        return ingest_perspective(self.corpus, out_path, [code.strip() for code in self.language.split(",")])


INGESTS = {"args": IngestArgsMe, "comparative": IngestPassages, "images": IngestImages, "perspective": IngestPerspective}
