"""`argrank compare`: an experiment's runs (or run files) against a baseline, with paired significance tests.

What is compared, and how, is the track's (tracks.adapter.TrackAdapter.compare_command): a ranking track's tagged
runs over its judged topics; the perspective track's experiments per judged scenario and split. Only the options
are defined here, with nothing imported that a `--help` would wait for.
"""

from __future__ import annotations

import argparse

from argrank.evaluation.names import ALPHA, CORRECTIONS, EXAMPLES, HOLM
from argrank.tracks.registry import track, track_names

OPTIONS = ("run", "qrels", "measure")  # the options a track may not read (TrackAdapter.compare_options)


def cmd_compare(args: argparse.Namespace) -> int:
    adapter = track(args.track)
    for option in OPTIONS:
        if option not in adapter.compare_options and getattr(args, option):
            args.usage_error(f"--{option} does not apply to --track {adapter.name}")
    return adapter.compare_command(args)


def add_arguments(compare_: argparse.ArgumentParser) -> None:
    compare_.add_argument("--track", choices=track_names(), default="args")
    compare_.add_argument(
        "--runs-file",
        action="append",
        help="an experiment whose published runs to compare (repeatable; default runs.yaml unless --run is given)",
    )
    compare_.add_argument("--run", action="append", help="a run file to compare too (repeatable; tag: its stem)")
    compare_.add_argument(
        "--baseline",
        required=True,
        help="the tag of the run the others are tested against (perspective: an experiment)",
    )
    compare_.add_argument("--qrels", help="a configured judgments name (default: relevance) or a qrels file")
    compare_.add_argument("--measure", action="append", metavar="NAME", help=f"ir_measures names ({EXAMPLES})")
    compare_.add_argument("--correction", choices=CORRECTIONS, default=HOLM, help="multiple-testing correction")
    compare_.add_argument("--alpha", type=float, default=ALPHA, help=f"what the table marks (default {ALPHA})")
    compare_.add_argument("--outputs", default="outputs", help="the pipeline's output folder")
    compare_.add_argument("--json", action="store_true", help="print one JSON object")
    compare_.set_defaults(handler=cmd_compare, usage_error=compare_.error)
