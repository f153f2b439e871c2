"""The perspective track as the rest of the system sees it (tracks.adapter): a release ranked per scenario and split
by its own cross-lingual ranker on the shared index, published as the task's JSONL and scored by the released
evaluator's measures; no TREC runs, no tags."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from argrank.tracks.adapter import TrackAdapter

EVALUATED_SPLITS = ("train", "dev")  # test splits come without relevant arguments


class PerspectiveTrack(TrackAdapter):
    name = "perspective"
    about = "perspective argument retrieval: multilingual political arguments, three scenarios; nDCG, P, " \
            "alpha-nDCG, rKL at k = 4, 8, 16, 20"  # fmt: skip
    tasks = "tasks.tracks.perspective"
    evaluate_options = ("data", "predictions", "scenario", "split", "all_variables", "csv_dir", "json")
    compare_options = ()
    gate_measures = ("nDCG@4", "nDCG@8", "nDCG@16", "nDCG@20")  # every scenario's, at evaluation.K
    commands = {
        "perspective-cv": (
            "argrank.tracks.perspective.cv_command:add_arguments",
            "perspective track: issue-level cross-validation and a lockbox on a release's training queries",
        )
    }

    def add_evaluate_arguments(self, parser: argparse.ArgumentParser) -> None:
        from argrank.tracks.perspective.data import SCENARIOS

        group = parser.add_argument_group("--track perspective")
        group.add_argument("--data", help="the release directory (corpus.jsonl and the query folders)")
        group.add_argument("--predictions", help='JSONL {"query_id": …, "relevant_candidates": [ids…]}')
        group.add_argument("--scenario", choices=SCENARIOS, help="which scenario's queries")
        group.add_argument("--split", choices=EVALUATED_SPLITS, help="which split's queries")
        group.add_argument(
            "--all-variables",
            action="store_true",
            help="average diversity over every variable, the query's own property's too (as the released evaluator "
            "does); by default a query leaves its own out",
        )
        group.add_argument("--csv-dir", help="also write the relevance and diversity tables here as CSV")

    def read_section(self, path: Path, settings: Any, submission: bool):
        from argrank.tracks.perspective.section import read_perspective_section

        return read_perspective_section(path, settings)

    def report_section(self, section, published: Path, folder: Path, files: list[str]) -> str:
        from argrank.tracks.perspective.report import perspective_section

        return perspective_section(published)

    def means(self, section, evaluation: dict[str, Any]) -> dict[str, dict[str, dict]]:
        return {run: {"scores": {m: result[m] for m in result["measures"]}} for run, result in evaluation.items()}

    def evaluate_command(self, args: argparse.Namespace) -> int:
        from argrank.tracks.perspective.commands import evaluate_command

        return evaluate_command(args)

    def compare_command(self, args: argparse.Namespace) -> int:
        from argrank.tracks.perspective.commands import compare_command

        return compare_command(args)


TRACK = PerspectiveTrack()
