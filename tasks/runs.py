"""Write the run: a ranking as a TREC run file under one tag, checked against the task's rules.

Column 2 is `Q0`, or with stance switched on (Task 2) each passage's stance label, or (images) the list an
image was chosen for, PRO or CON.
"""

from __future__ import annotations

import luigi
import pyarrow.parquet as pq
from luigi.util import inherits

from argrank.formats.runfile import RunLine, write_run
from argrank.tracks.comparative.stance_labels import NO_STANCE_COLUMN
from argrank.formats.validation import RULES, validate_run
from tasks.base import CachedTask
from tasks.images import SelectImages
from tasks.rank import RankTopics
from tasks.stance import ClassifyStance


@inherits(SelectImages)  # RankTopics' parameters, the stance settings and the images' selection settings
class WriteRun(CachedTask):
    tag = luigi.Parameter(description="the run's tag, its last column")

    stage = "run"
    extension = ".txt"
    location_params = ("corpus", "topics", "stance_training")

    def requires(self) -> luigi.Task:
        if self.track == "images":
            return self.clone(SelectImages)
        return self.clone(ClassifyStance) if self.stance_training else self.clone(RankTopics)

    def run(self) -> None:
        ranking = pq.read_table(self.input().path).to_pydict()
        column2 = ranking.get("stance") or [NO_STANCE_COLUMN] * len(ranking["doc"])
        lines = [
            RunLine(qid=q, q0=c, doc=d, rank=r, score=s, tag=self.tag)
            for q, c, d, r, s in zip(ranking["qid"], column2, ranking["doc"], ranking["rank"], ranking["score"])
        ]
        write_run(self.output_path, lines)
        # Images have their own fixed list length (10 per stance); the other tracks allow `depth` per topic.
        validate_run(self.output_path, max_per_topic=None if self.track == "images" else self.depth, rules=RULES[self.track])
