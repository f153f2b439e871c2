"""Write the run: a ranking as a TREC run file under one tag, checked against the track's rules.

Column 2 is `Q0`, or what the track's stage between ranking and run put there (a stance label, the list an image
was chosen for). Each writer takes the parameters of the stage it reads and no others, so a run's cache path
names only what made it. A track's own writers are in its task module (tasks.tracks).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import luigi
from luigi.util import inherits

from argrank.core.atomic import atomic_path
from argrank.formats.ranking_table import read_ranking
from argrank.formats.run_columns import RunColumns, conforms, format_columns
from argrank.formats.runfile import write_run
from argrank.formats.validation import check_lines
from argrank.retrieval.steps import LTR_STEP
from argrank.tracks.registry import track as registered
from argrank.tracks.section import RunSpec, TrackSection
from tasks.base import CachedTask, location
from tasks.steps import FuseRankings, RankedRun, RerankStep
from tasks.track_tasks import track_tasks


class WriteRun(CachedTask):
    """What every run writer shares: the table it reads (qid, doc, rank, score, and a stance column where column 2
    is not Q0) becomes the run file, validated before it counts as written."""

    tag = luigi.Parameter(description="the run's tag, its last column")

    stage = "run"
    extension = ".txt"

    def max_per_topic(self) -> int | None:
        """Lines a topic may have: the ranking's depth; None where the track's rules fix the lists' length."""
        return self.depth

    def run(self) -> None:
        run = RunColumns.of(read_ranking(self.input().path))
        rules = registered(self.track).run_rules
        if self.max_per_topic() is not None:
            rules = dataclasses.replace(rules, max_per_list=self.max_per_topic())
        # The task's rules, before a byte is written: checked a column at a time, or, where that cannot vouch for
        # the run, a line at a time, which names the first line at fault (formats/run_columns.py).
        if conforms(run, self.tag, rules):
            with atomic_path(self.output_path) as tmp:
                tmp.write_bytes(format_columns(run, self.tag))
            return
        lines = run.lines(self.tag)
        check_lines(self.output_path, enumerate(lines, start=1), rules)
        write_run(self.output_path, lines)


class WriteFusedRun(WriteRun):
    """A fusion run (`fuse:` in the runs file): its fused ranking as it is."""

    track = luigi.Parameter(description="whose run")
    members = location(luigi.ListParameter(description="each fused run's ranking parameters"))
    fusion = luigi.DictParameter(description="{method, norm, params}")
    depth = luigi.IntParameter(default=1000, description="documents per topic")

    def requires(self) -> CachedTask:
        return FuseRankings(track=self.track, members=self.members, fusion=self.fusion, depth=self.depth)


@inherits(RerankStep)
class WriteRanking(RankedRun, WriteRun):
    """A ranking as it is (or re-ranked by quality and the run's steps): a run of a track with nothing between
    ranking and run."""

    def requires(self) -> CachedTask:
        return self.ranking_task()


def ranking_params(section: TrackSection, spec: RunSpec) -> dict[str, Any]:
    """The parameters of a configured run's ranking and writer, from its section and its run's settings."""
    params = {
        "track": section.name,
        "corpus": str(section.corpus),
        "language": section.language,
        "fields": section.fields,
        "shards": section.shards,
        "topics": str(section.topics),
        "method": spec.method,
        "params": spec.params,
        "query": spec.query,
        "depth": section.depth,
        "tag": spec.tag,
    }
    ltr = any(step.use == LTR_STEP for step in spec.rerank)
    if spec.quality or spec.quality_step or (ltr and section.quality_training):
        params.update(quality_training=str(section.quality_training))
    if ltr:
        params.update(ltr_topics=str(section.ltr_training[0]), ltr_qrels=str(section.ltr_training[1]))
    if spec.quality:
        params.update(quality=spec.quality)
    if spec.expand:
        params.update(expand=[{k: v for k, v in step.items() if k != "source"} for step in spec.expand],
                      expand_sources=[step.get("source", "") for step in spec.expand])  # fmt: skip
    if spec.rerank:
        params.update(rerank=[step.key() for step in spec.rerank], rerank_sources=[step.source for step in spec.rerank])
    return params


def ranking_run(section: TrackSection, spec: RunSpec) -> WriteRun:
    """The run of a track with nothing between ranking and run."""
    return WriteRanking(**ranking_params(section, spec))


def run_task(section: TrackSection, spec: RunSpec) -> WriteRun:
    """The task writing one configured run of a ranking track, as its track writes it; a fusion run's, its fused
    ranking."""
    if spec.fuse is not None:
        members, fusion = spec.fuse
        return WriteFusedRun(track=section.name, tag=spec.tag, depth=section.depth, fusion=fusion,
                             members=[ranking_params(section, member) for member in members])  # fmt: skip
    return (track_tasks(section.name).run_task or ranking_run)(section, spec)
