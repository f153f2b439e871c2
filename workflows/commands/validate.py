"""`argrank validate`: a run file checked against the Touché rules of its track (tracks.track.Track.run_rules)."""

from __future__ import annotations

import argparse

from argrank.formats.validation import validate_run
from argrank.tracks.registry import track as registered
from argrank.tracks.registry import track_names

TREC_DEPTH = 1000  # a TREC run's default longest list


def cmd_validate(args: argparse.Namespace) -> int:
    rules = registered(args.track).run_rules
    if rules is None:
        args.usage_error(f"--track {args.track} has no TREC run files to validate")
    if rules.max_per_list != TREC_DEPTH and args.max_per_topic is not None:
        args.usage_error(
            f"--max-per-topic does not apply to --track {args.track}: at most {rules.max_per_list} per list"
        )
    lines = validate_run(args.run, max_per_topic=args.max_per_topic, rules=rules)
    print(f"{args.run}: valid ({lines} lines)")
    return 0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    validating = [name for name in track_names() if registered(name).run_rules is not None]
    parser.add_argument("run", help="run file")
    parser.add_argument("--max-per-topic", type=int, help="the most lines per topic (default 1000; not for images)")
    parser.add_argument(
        "--track",
        choices=validating,
        default="args",
        help="comparative (Task 2) allows stance labels in column 2; images (Task 3) 10 PRO and 10 CON per topic",
    )
    parser.set_defaults(handler=cmd_validate, usage_error=parser.error)
