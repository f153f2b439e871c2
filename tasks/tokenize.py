"""Tokenize: the document table to token lists, with the analysis queries get too."""

from __future__ import annotations

import luigi
from luigi.util import requires

from argrank.text import Analyzer, analysis_fingerprint
from argrank.tokenize import tokenize_table
from tasks.base import CachedTask, log
from tasks.ingest import IngestArgsMe


@requires(IngestArgsMe)
class TokenizeDocuments(CachedTask):
    language = luigi.Parameter(default="en", description="spaCy language code of the corpus")
    fields = luigi.ListParameter(default=("conclusion", "premise"), description="document fields to index")

    stage = "tokens"
    extension = ".parquet"
    location_params = ("corpus",)

    def input_digests(self) -> list[str]:
        return [analysis_fingerprint(self.language)]

    def run(self) -> None:
        kept = tokenize_table(self.input().path, self.output_path, Analyzer(self.language), list(self.fields))
        log.info("kept %d tokens", kept)
