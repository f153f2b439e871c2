"""What a track is to the rest of the system, so that nothing outside its package names it: data, and callables of
the track's own. The runs-file reader (config), the report (reporting), the Luigi tasks (tasks.tracks) and the
command line (workflows) call a track; a track calls none of them.

`Track` is what every track has: its name, where its Luigi tasks and its commands are, what `argrank validate`,
`evaluate`, `compare` and `tira` accept for it, and what `argrank nightly` gates on. `RankingTrack` is a track whose
runs are TREC run files ranked by the shared stages (args, comparative, images): the runs-file reader reads the
section keys such tracks share (config.read_ranking_section), the report draws their comparisons
(reporting.ranking_section) and the command line scores and compares their runs (workflows.commands.ranking); the
track says only what differs, each a field or a small hook. A track of another shape (perspective) reads, reports
and remembers its own section (`read_section`, `report_section`, `means`) and names the module of its parts of
`argrank evaluate` and `compare` (`command_line`). A track's package defines one `TRACK` (tracks.registry finds it).

Modules that import numpy, scikit-learn, scipy, matplotlib or Pillow are imported inside the hooks that need
them, so listing the tracks costs a command's start-up nothing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from argrank.evaluation.names import STANCE
from argrank.evaluation.ranking import AVERAGE, RankingScores, evaluate
from argrank.formats.qrels import read_qrels
from argrank.formats.validation import TREC, RunRules
from argrank.retrieval.formulations import SHARED_QUERIES
from argrank.tracks.section import RunSpec, TrackSection

if TYPE_CHECKING:
    from argrank.evaluation.results import RunScores, StanceF1, TopicScores
    from argrank.formats.ir_datasets_cache import CachedDataset
    from argrank.formats.runfile import RunLine
    from argrank.formats.topics import Topic

# The `argrank evaluate` options a ranking track reads (the others are refused for it, by name).
RANKING_EVALUATE_OPTIONS = ("run", "name", "qrels", "topics", "csv", "json", "measure", "depth", "average")
RANKING_COMPARE_OPTIONS = ("run", "name", "qrels", "measure", "participants", "reference", "reference_baseline")


class RunProblem(ValueError):
    """A run that cannot be scored for what it holds (column 2 that is not a list's name, say): the run file's
    problem, where other ValueErrors of scoring are the judgments'."""


class Track:
    """One track as the shared parts of the system see it. `tasks` is the module of its Luigi tasks (it defines
    `TASKS`, a `tasks.track_tasks.TrackTasks`)."""

    name: str
    about: str  # a line for --help and the docs
    tasks: str
    run_rules: RunRules | None = None  # what `argrank validate` checks a run file against; None: not TREC runs
    evaluate_options: tuple[str, ...] = ()
    compare_options: tuple[str, ...] = ()
    # Commands of its own: name → ("module:function" adding the command's arguments and handler, help line).
    commands: Mapping[str, tuple[str, str]] = {}
    # The module of its parts of `argrank evaluate` and `compare`: `evaluate(track, args)` and `compare(track, args)`.
    # Empty: a ranking track's, the shared ones (workflows.commands.ranking).
    command_line: str = ""
    # "module:function" adding the `argrank evaluate` options only this track reads; a module of its own, so that
    # `evaluate --help` loads none of the track's scoring code. Empty: none.
    evaluate_arguments: str = ""
    # The measures (as `means` names them) whose fall `argrank nightly` reports by default: effectiveness, never
    # coverage such as Judged@k, which moves whenever the runs reach other documents.
    gate_measures: tuple[str, ...] = ()

    # A track of its own shape (not a RankingTrack) says how its section is read, reported and remembered.

    def read_section(self, path: Path, settings: Any, submission: bool) -> Any:
        """The track's section of the runs file `path`, checked (InputError naming the key)."""
        raise NotImplementedError

    def report_section(self, section: Any, published: Path, folder: Path, files: list[str]) -> str:
        """The report's HTML for the track, from what it published; plots and images go into `folder`, their
        names onto `files`."""
        raise NotImplementedError

    def means(self, section: Any, evaluation: dict[str, Any]) -> dict[str, dict[str, dict]]:
        """run → judgments → measure → mean, from the track's published evaluation.json (the nightly record)."""
        raise NotImplementedError


@dataclass(frozen=True)
class StanceJudgments:
    """A track's stance judgments beside its relevance ones (Task 2): how they are read and scored, and where a
    section names them."""

    read: Callable[..., Any]  # (path, known topics or None) → topic → doc → label
    evaluate: Callable[[list[RunLine], Any], StanceF1]
    # judgments → a watcher (formats.runfile.watched) of a run read once for its scores, keeping in `.lines` what
    # `evaluate` needs of it
    kept: Callable[[Any], Any]
    format: Callable[[str, StanceF1], str]
    report: Callable[[Any, Path, dict[str, RunScores]], str]  # (section, published folder, evaluations) → HTML


@dataclass(frozen=True, eq=False)
class RankingTrack(Track):
    """A track ranked by the shared stages and submitted as TREC run files.

    Its section has the shared keys (config.read_ranking_section), `corpus_key` for where its documents are, and
    `track_keys` and `run_keys` of its own, read by `read_own` and `read_run` into `section_type` and `run_type`.
    With `datasets`, `dataset: <ir_datasets id>` fills in the corpus, topics and qrels from ir_datasets' cache.
    """

    name: str
    about: str
    corpus_key: str
    default_fields: tuple[str, ...]
    allowed_fields: tuple[str, ...] | None = None  # None: any field the documents have
    queries: Mapping[str, Callable[[Topic], str]] = field(default_factory=lambda: dict(SHARED_QUERIES))
    run_rules: RunRules = TREC
    quality_text: str | None = None  # the document column the quality model reads; None: no quality re-ranking
    rerank_steps: bool = True  # whether a run may name its own re-ranking steps and query expansion (`rerank:`, `expand:`)
    track_keys: tuple[str, ...] = ()
    run_keys: tuple[str, ...] = ()
    section_type: type[TrackSection] = TrackSection
    run_type: type[RunSpec] = RunSpec
    stance_judgments: StanceJudgments | None = None
    datasets: Mapping[str, CachedDataset] = field(default_factory=dict)  # ir_datasets ids its section may name
    evaluate_options: tuple[str, ...] = RANKING_EVALUATE_OPTIONS
    compare_options: tuple[str, ...] = RANKING_COMPARE_OPTIONS
    commands: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    gate_measures: tuple[str, ...] = ()
    tasks: str = ""

    def __post_init__(self) -> None:
        if not self.tasks:
            object.__setattr__(self, "tasks", f"tasks.tracks.{self.name}")

    @property
    def named_measures(self) -> bool:
        """Whether runs are scored by measures one names (ir_measures'), or by the track's own set."""
        return "measure" in self.evaluate_options

    # The runs file.

    def read_own(self, path: Path, where: str, settings: dict, located: Callable[[str, Any], Path]) -> dict:
        """The values of `track_keys` for `section_type`, checked."""
        return {}

    def read_run(self, path: Path, where: str, run: dict) -> dict:
        """The values of `run_keys` of one run for `run_type`, checked."""
        return {}

    def check_section(self, path: Path, section: TrackSection) -> None:
        """InputError where the section's settings do not go together (runs with stance but no training set)."""

    def for_tira(self, section: TrackSection, given: Path, topics: Path) -> TrackSection:
        """The section ranking the documents and topics of the TIRA input folder `given`, without judgments."""
        return dataclasses.replace(section, corpus=given, topics=topics, qrels={})

    # Evaluation.

    def read_qrels(self, path: str | Path, known: list[str] | None = None) -> Any:
        return read_qrels(path, known)

    def score(
        self, run: list[RunLine], qrels: Any, measures: list[str] | None, depth: int | None, average: str | None
    ) -> TopicScores:
        """The run's scores against read judgments: `measures` (None: the defaults at `depth`)."""
        return evaluate(run, qrels, None if measures else depth, measures, average or AVERAGE)

    def result_type(self) -> type[TopicScores]:
        """What `score` returns, and what its JSON reads back as."""
        return RankingScores

    def stance_qrels(self, section: TrackSection) -> Path | None:
        """The stance judgments the section names, where the track has them."""
        return getattr(section, "stance_qrels", None) if self.stance_judgments else None

    # Report and history.

    def report_extras(
        self, section: TrackSection, published: Path, evaluations: dict[str, RunScores], folder: Path,
        files: list[str],
    ) -> str:  # fmt: skip
        """What the track shows below its comparison tables (stance matrices, images)."""
        if self.stance_judgments is None:
            return ""
        return self.stance_judgments.report(section, published, evaluations)

    def means(self, section: TrackSection, evaluation: dict[str, Any]) -> dict[str, dict[str, dict]]:
        return {
            tag: {
                qrels: (
                    {"stance_f1": result.get("stance_f1")}
                    if qrels == STANCE
                    else {m: result[m] for m in result["measures"]}
                )
                for qrels, result in by_qrels.items()
            }
            for tag, by_qrels in evaluation.items()
        }
