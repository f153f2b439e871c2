"""The perspective track as the rest of the system sees it (tracks.track): a release ranked per scenario and split
by its own cross-lingual ranker on the shared index, published as the task's JSONL and scored by the released
evaluator's measures; no TREC runs, no tags."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from argrank.tracks.perspective.report import perspective_section
from argrank.tracks.perspective.section import read_perspective_section
from argrank.tracks.track import Track


class PerspectiveTrack(Track):
    name = "perspective"
    about = "perspective argument retrieval: multilingual political arguments, three scenarios; nDCG, P, " \
            "alpha-nDCG, rKL at k = 4, 8, 16, 20"  # fmt: skip
    tasks = "tasks.tracks.perspective"
    evaluate_options = ("data", "predictions", "scenario", "split", "all_variables", "csv_dir", "json")
    compare_options = ()
    command_line = "workflows.tracks.perspective.commands"
    evaluate_arguments = "workflows.tracks.perspective.options:add_evaluate_arguments"
    gate_measures = ("nDCG@4", "nDCG@8", "nDCG@16", "nDCG@20")  # every scenario's, at evaluation.K
    commands = {
        "perspective-cv": (
            "workflows.tracks.perspective.cv:add_arguments",
            "perspective track: issue-level cross-validation and a lockbox on a release's training queries",
        )
    }

    def read_section(self, path: Path, settings: Any, submission: bool):
        return read_perspective_section(path, settings)

    def report_section(self, section, published: Path, folder: Path, files: list[str]) -> str:
        return perspective_section(published)

    def means(self, section, evaluation: dict[str, Any]) -> dict[str, dict[str, dict]]:
        return {run: {"scores": {m: result[m] for m in result["measures"]}} for run, result in evaluation.items()}


TRACK = PerspectiveTrack()
