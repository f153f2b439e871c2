"""Write the run: a ranking as a TREC run file under one tag, checked against the track's rules.

Column 2 is `Q0`, or with stance (Task 2) each passage's stance label, or (images) the list an image was chosen
for, PRO or CON. Each writer takes the parameters of the stage it reads and no others, so a run's cache path
names only what made it.
"""

from __future__ import annotations

import dataclasses

import luigi
import pyarrow.parquet as pq
from luigi.util import inherits, requires

from argrank.config import TRACKS, RunSpec, Track
from argrank.formats.runfile import Q0, RunLine, write_run
from argrank.formats.validation import check_lines
from tasks.base import CachedTask
from tasks.images import SelectImages
from tasks.quality import RankedRun, RerankQuality
from tasks.stance import ClassifyStance


class WriteRun(CachedTask):
    """What every run writer shares: the table it reads (qid, doc, rank, score, and a stance column where column 2
    is not Q0) becomes the run file, validated before it counts as written."""

    tag = luigi.Parameter(description="the run's tag, its last column")

    stage = "run"
    extension = ".txt"
    location_params = ("corpus", "topics", "stance_training", "quality_training")

    def max_per_topic(self) -> int | None:
        """Lines a topic may have: the ranking's depth; None where the track's rules fix the lists' length."""
        return self.depth

    def run(self) -> None:
        ranking = pq.read_table(self.input().path).to_pydict()
        column2 = ranking.get("stance") or [Q0] * len(ranking["doc"])
        lines = [
            RunLine(qid=q, q0=c, doc=d, rank=r, score=s, tag=self.tag)
            for q, c, d, r, s in zip(ranking["qid"], column2, ranking["doc"], ranking["rank"], ranking["score"])
        ]
        rules = TRACKS[self.track].run_rules
        if self.max_per_topic() is not None:
            rules = dataclasses.replace(rules, max_per_list=self.max_per_topic())
        check_lines(self.output_path, enumerate(lines, start=1), rules)  # the task's rules, before a byte is written
        write_run(self.output_path, lines)


@inherits(RerankQuality)
class WriteRanking(RankedRun, WriteRun):
    """A ranking as it is (or re-ranked by quality): the args track's runs and comparative runs without stance."""

    def requires(self) -> CachedTask:
        return self.ranking_task()


@requires(ClassifyStance)
class WriteStanceRun(WriteRun):
    """A comparative run with each passage's stance in column 2."""


@requires(SelectImages)
class WriteImageRun(WriteRun):
    """An images run: 10 PRO and 10 CON images per topic, the length the track's rules fix."""

    def max_per_topic(self) -> None:
        return None


def run_task(track: Track, spec: RunSpec) -> WriteRun:
    """The task writing one configured run of a ranking track, with the settings its track and run give."""
    ranking = {
        "track": track.name,
        "corpus": str(track.corpus),
        "language": track.language,
        "fields": track.fields,
        "shards": track.shards,
        "topics": str(track.topics),
        "method": spec.method,
        "params": spec.params,
        "query": spec.query,
        "depth": track.depth,
        "tag": spec.tag,
    }
    if spec.quality:
        ranking.update(quality_training=str(track.quality_training), quality=spec.quality)
    if track.name == "images":
        selection = {"found_weight": spec.found_weight, "near_duplicate_bits": track.near_duplicate_bits}
        # Without training qrels (an image collection brought none) a stance run falls back to untrained stance.
        if spec.stance and track.stance_training:
            selection.update(stance_training=str(track.stance_training[0]), stance_model=track.stance_model)
        return WriteImageRun(**ranking, **selection)
    if spec.stance:
        training = [str(file) for file in track.stance_training]
        return WriteStanceRun(**ranking, stance_training=training, stance_model=track.stance_model)
    return WriteRanking(**ranking)
