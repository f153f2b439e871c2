"""The comparative track as the rest of the system sees it (tracks.track): passages ranked by the shared stages,
a `title+objects` query, stance labels in column 2 from a classifier trained on its stance sets, and stance
judgments scored beside relevance."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from argrank.core.errors import InputError
from argrank.formats.runfile import Q0
from argrank.formats.validation import RunRules
from argrank.retrieval.formulations import SHARED_QUERIES
from argrank.tracks.comparative.objects import title_and_objects
from argrank.tracks.comparative.stance_evaluation import JudgedStances, evaluate_stance, format_stance
from argrank.tracks.comparative.stance_labels import LABELS
from argrank.tracks.comparative.stance_qrels import read_stance_qrels
from argrank.tracks.comparative.stance_report import stance_section
from argrank.tracks.section import RunSpec, TrackSection
from argrank.tracks.stance_settings import check_stance_training, read_stance_model, read_stance_switch
from argrank.tracks.track import RANKING_COMPARE_OPTIONS, RANKING_EVALUATE_OPTIONS, RankingTrack, StanceJudgments

# The stance model's linear SVMs cross-validated best at C 0.3 on the real stance sets (docs/tracks/comparative.md).
STANCE_MODEL = {"c": 0.3, "folds": 5}


@dataclass(frozen=True)
class ComparativeSection(TrackSection):
    """The comparative section: the shared keys, the stance judgments and the stance training set (the task's TSV,
    CompSent-19's CSV, our JSONL: every file listed is read into one model) with the classifier's settings."""

    stance_qrels: Path | None = None
    stance_training: tuple[Path, ...] = ()
    stance_model: dict[str, float] = field(default_factory=lambda: dict(STANCE_MODEL))


@dataclass(frozen=True)
class ComparativeRun(RunSpec):
    stance: bool = False  # column 2 carries each passage's stance label


@dataclass(frozen=True, eq=False)
class ComparativeTrack(RankingTrack):
    def read_own(self, path: Path, where: str, settings: dict, located) -> dict[str, Any]:
        stance_qrels = settings.get("stance_qrels")
        return {
            "stance_qrels": located("stance_qrels", stance_qrels) if stance_qrels is not None else None,
            "stance_training": _training_files(path, f"{where}.stance_training", settings.get("stance_training"),
                                               located),  # fmt: skip
            "stance_model": read_stance_model(
                path, f"{where}.stance_model", settings.get("stance_model"), STANCE_MODEL
            ),
        }

    def read_run(self, path: Path, where: str, run: dict) -> dict[str, Any]:
        return {"stance": read_stance_switch(path, where, run)}

    def check_section(self, path: Path, section: ComparativeSection) -> None:
        check_stance_training(path, section.name, section.stance_training, section.runs)

    def for_tira(self, section: ComparativeSection, given: Path, topics: Path) -> ComparativeSection:
        return dataclasses.replace(super().for_tira(section, given, topics), stance_qrels=None)


def _training_files(path: Path, where: str, value: Any, located) -> tuple[Path, ...]:
    """`stance_training` as files: one path, or a list of them."""
    if value is None:
        return ()
    values = value if isinstance(value, list) else [value]
    if not values:
        raise InputError(path, where, "expected a path or a list of paths")
    files = tuple(located(f"stance_training[{i}]" if isinstance(value, list) else "stance_training", v)
                  for i, v in enumerate(values))  # fmt: skip
    if len(set(files)) < len(files):
        raise InputError(path, where, "a file is listed twice")
    return files


def _report(section: ComparativeSection, published: Path, evaluations: dict) -> str:
    return stance_section(section.stance_qrels, published, evaluations)


TRACK = ComparativeTrack(
    name="comparative",
    about="Touché Task 2: passages for comparative questions with a stance each; nDCG@5 and stance macro-F1",
    corpus_key="passages",
    default_fields=("contents",),
    queries={**SHARED_QUERIES, "title+objects": title_and_objects},
    run_rules=RunRules(frozenset({Q0, *LABELS})),
    quality_text="contents",
    track_keys=("stance_qrels", "stance_training", "stance_model"),
    run_keys=("stance",),
    section_type=ComparativeSection,
    run_type=ComparativeRun,
    stance_judgments=StanceJudgments(read_stance_qrels, evaluate_stance, JudgedStances, format_stance, _report),
    evaluate_options=(*RANKING_EVALUATE_OPTIONS, "stance_qrels"),
    compare_options=(*RANKING_COMPARE_OPTIONS, "stance_qrels"),
    gate_measures=("nDCG@5", "stance_f1"),
    commands={
        "stance-benchmark": (
            "workflows.tracks.comparative:add_stance_benchmark_arguments",
            "comparative stance: train on stance sets and score a held-out one (macro-F1, accuracy, per class, "
            "confusion), or cross-validate by object pair",
        )
    },
)
