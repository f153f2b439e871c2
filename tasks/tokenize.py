"""Tokenize: the document table to token lists, with the analysis queries get too; one task per shard."""

from __future__ import annotations

import luigi

from argrank.formats.token_table import TOKENS_FORMAT
from argrank.text.analysis_fingerprint import analysis_fingerprint
from argrank.text.multilingual import make_analyzer
from argrank.text.tokenize import tokenize_table
from tasks.base import CachedTask, location, log
from tasks.track_tasks import track_tasks


class CorpusTask(CachedTask):
    """The parameters every stage from tokenize to rank shares: whose documents, how they are analysed, and in
    how many shards they are tokenized, indexed and ranked (so workers on several machines share the work)."""

    track = luigi.Parameter(default="args", description="whose documents: a registered track")
    corpus = location(luigi.Parameter(description="where the track's documents are"))
    language = luigi.Parameter(default="en", description='spaCy language code of the corpus, or several ("de,fr,it") for a mixed one')
    fields = luigi.ListParameter(default=("conclusion", "premise"), description="document fields to index")
    shards = luigi.IntParameter(default=1, description="row ranges tokenized, indexed and ranked apart")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.shards < 1:
            raise ValueError(f"{self.task_family}: shards must be at least 1, got {self.shards}")

    def own_params(self) -> dict[str, str]:
        # Unsharded, the shard parameters are left out of the target's name and signature, so the caches of
        # the expensive stages written before sharding existed are still found.
        params = super().own_params()
        if self.shards == 1:
            params.pop("shards", None)
            params.pop("shard", None)
        return params


class ShardTask(CorpusTask):
    """A stage of one shard: rows [⌊shard·n/shards⌋, ⌊(shard+1)·n/shards⌋) of the document table."""

    shard = luigi.IntParameter(default=0, description="which shard, from 0 to shards - 1")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not 0 <= self.shard < self.shards:
            raise ValueError(f"{self.task_family}: shard must be from 0 to {self.shards - 1}, got {self.shard}")


class TokenizeDocuments(ShardTask):
    """The first stage every track shares; `track` picks the track's ingest, so later stages need not know it."""

    stage = "tokens"
    extension = ".parquet"
    def requires(self) -> luigi.Task:
        ingest = track_tasks(self.track).ingest
        # An ingest that detects languages (perspective) takes the corpus's languages from here.
        languages = {"language": self.language} if "language" in ingest.get_param_names() else {}
        return ingest(corpus=self.corpus, **languages)

    def input_digests(self) -> list[str]:
        return [analysis_fingerprint(self.language), f"token table format {TOKENS_FORMAT}"]

    def run(self) -> None:
        kept = tokenize_table(
            self.input().path,
            self.output_path,
            make_analyzer(self.language),
            list(self.fields),
            shard=self.shard,
            shards=self.shards,
        )
        log.info("kept %d tokens (shard %d of %d)", kept, self.shard, self.shards)
