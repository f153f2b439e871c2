"""A ranking track's section of the runs file as read (config.read_ranking_section): the keys every ranking track
shares (`TrackSection`) and one run's settings (`RunSpec`), which a track with keys of its own subclasses
(RankingTrack.section_type, run_type); and the checks of a value the runs-file reader and a track's own keys share.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from argrank.core.entry_point_groups import entry_point_group
from argrank.core.errors import InputError
from argrank.core.names import name_problem
from argrank.retrieval.steps import QUALITY_STEP, Step


@dataclass(frozen=True)
class RunSpec:
    """One run of a ranking track: its tag, ranking model and parameters, query formulation, quality re-ranking
    settings (none: no re-ranking), its own re-ranking steps and its query expansion. A track with run settings of
    its own subclasses it (RankingTrack.run_type).

    A run of a sweep also knows its entry in the runs file (`entry`, the tag written there) and its values of the
    parameters the entry lists (`swept`, in the order written), so the report can draw the entry's runs as a grid.
    """

    tag: str
    method: str
    params: dict[str, float]
    query: str
    quality: dict[str, float] = field(default_factory=dict)
    entry: str = ""
    swept: tuple[tuple[str, Any], ...] = ()
    rerank: tuple[Step, ...] = ()  # the run's own re-ranking steps, in order (retrieval.steps)
    expand: tuple[dict[str, Any], ...] = ()  # its query expansion steps, {use, params, …} (retrieval.rewriting)
    # A fusion run's: the runs it fuses and {method, norm, params} (evaluation.fusion); its method is "fusion".
    fuse: tuple[tuple[RunSpec, ...], dict[str, Any]] | None = None

    @property
    def quality_step(self) -> bool:
        """Whether one of its re-ranking steps is the quality re-ranking (`use: quality`)."""
        return any(step.use == QUALITY_STEP for step in self.rerank)


@dataclass(frozen=True)
class TrackSection:
    """A ranking track's section of the runs file: the keys every ranking track shares. `corpus` is where its
    documents are (args.me folder, passages file); a track with keys of its own subclasses it
    (RankingTrack.section_type)."""

    name: str
    corpus: Path
    topics: Path
    qrels: dict[str, Path] = field(default_factory=dict)
    language: str = "en"
    fields: tuple[str, ...] = ()
    depth: int = 1000
    runs: tuple[RunSpec, ...] = ()
    shards: int = 1  # row ranges of the documents tokenized, indexed and ranked as tasks of their own
    measures: tuple[str, ...] = ()  # ir_measures names to evaluate; none: the track's defaults
    quality_training: Path | None = None  # the quality model's training set (Webis-ArgQuality-20's format)
    ltr_training: tuple[Path, Path] | None = None  # the ltr step's judged topics: (topics file, qrels file)
    baseline: str | None = None  # the run the report and `compare` test the others against; none: the first
    participants: Path | None = None  # a folder of a year's published runs the report places these runs among

    @property
    def baseline_tag(self) -> str:
        """The tag of the run the others are compared with: `baseline:`, else the first run."""
        return self.baseline or self.runs[0].tag


def check_name(path: Path, where: str, name: Any) -> None:
    """InputError at `where` unless `name` can be part of a path (core.names)."""
    problem = name_problem(name)
    if problem:
        raise InputError(path, where, problem)


def is_number(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, int | float) and value < float("inf")


@functools.cache
def supported_languages() -> frozenset[str]:
    """The spaCy codes the analyzer can work in: those spacy-lookups-data has a lemma lookup table for."""
    return frozenset(point.name for point in entry_point_group("spacy_lookups") if "lemma_lookup" in point.load())


def language_setting(path: Path, where: str, value: Any) -> str:
    """A `language` setting: one supported code, or several separated by commas for a corpus that mixes them."""
    codes = [code.strip() for code in value.split(",")] if isinstance(value, str) else []
    unknown = sorted(set(codes) - supported_languages())
    if not codes or unknown or len(set(codes)) < len(codes):
        known = ", ".join(sorted(supported_languages()))
        got = f"unsupported {', '.join(map(repr, unknown))}" if unknown else f"got {value!r}"
        raise InputError(
            path, where, f"expected a language code, or several separated by commas ({got}; known: {known})"
        )
    return value
