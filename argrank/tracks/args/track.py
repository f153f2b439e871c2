"""The args track as the rest of the system sees it (tracks.track): arguments ranked by the shared stages, from
an args.me corpus or an ir_datasets id (datasets.py), the corpus's layout checked when the runs file is read."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from argrank.core.errors import InputError
from argrank.tracks.args.datasets import DATASETS
from argrank.tracks.args.layout import corpus_files
from argrank.tracks.section import TrackSection
from argrank.tracks.track import RankingTrack


@dataclass(frozen=True, eq=False)
class ArgsTrack(RankingTrack):
    def check_section(self, path: Path, section: TrackSection) -> None:
        """A corpus that is neither an args.me folder nor one args.me JSON file is the runs file's mistake, said
        before any task runs rather than by the ingest mid-graph."""
        try:
            corpus_files(section.corpus)
        except InputError as error:
            raise InputError(path, f"{self.name}.{self.corpus_key}", f"{error.path}: {error.problem}") from None


TRACK = ArgsTrack(
    name="args",
    about="Touché Task 1: arguments from args.me for controversial questions; nDCG@5",
    corpus_key="corpus",
    default_fields=("conclusion", "premise"),
    allowed_fields=("conclusion", "premise"),
    quality_text="premise",
    datasets=DATASETS,
    gate_measures=("nDCG@5",),  # under both judgments, relevance and quality
)
