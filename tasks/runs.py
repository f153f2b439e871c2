"""Write the run: a ranking as a TREC run file under one tag, checked against the task's rules."""

from __future__ import annotations

import luigi
import pyarrow.parquet as pq
from luigi.util import requires

from argrank.runfile import RunLine, write_run
from argrank.validation import validate_run
from tasks.base import CachedTask
from tasks.rank import RankTopics


@requires(RankTopics)
class WriteRun(CachedTask):
    tag = luigi.Parameter(description="the run's tag, its last column")

    stage = "run"
    extension = ".txt"
    location_params = ("corpus", "topics")

    def run(self) -> None:
        ranking = pq.read_table(self.input().path).to_pydict()
        lines = [
            RunLine(qid=q, q0="Q0", doc=d, rank=r, score=s, tag=self.tag)
            for q, d, r, s in zip(ranking["qid"], ranking["doc"], ranking["rank"], ranking["score"])
        ]
        write_run(self.output_path, lines)
        validate_run(self.output_path, max_per_topic=self.depth)
