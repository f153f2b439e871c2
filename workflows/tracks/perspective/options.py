"""The options of `argrank evaluate` only the perspective track reads (Track.evaluate_arguments): a module of their
own, so that `argrank evaluate --help` builds them without loading the track's evaluation."""

from __future__ import annotations

import argparse

from argrank.tracks.perspective.settings import SCENARIOS

EVALUATED_SPLITS = ("train", "dev")  # test splits come without relevant arguments


def add_evaluate_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `argrank evaluate` only this track reads."""
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
