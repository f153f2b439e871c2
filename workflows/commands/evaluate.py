"""`argrank evaluate`: a run scored against judgments in its track's format (nDCG, judged, or the track's own
measures), or a track of another shape's predictions against its data; what is scored, and how, is the track's
(workflows.commands.track_parts)."""

from __future__ import annotations

import argparse
import importlib

from argrank.evaluation.names import EXAMPLES
from argrank.evaluation.results import AVERAGING, JUDGED_TOPICS, RUN_TOPICS
from argrank.tracks.registry import track as registered
from argrank.tracks.registry import track_names
from workflows.commands.output_options import check_output_folders, check_outputs
from workflows.commands.track_parts import command_line

DEFAULT_DEPTH = 5
# Every option of `argrank evaluate`, each refused for a track that does not read it (Track.evaluate_options).
EVALUATE_OPTIONS = ("run", "name", "qrels", "stance_qrels", "depth", "measure", "average", "topics", "json", "csv", "data",
                    "predictions", "scenario", "split", "all_variables", "csv_dir")  # fmt: skip


def cmd_evaluate(args: argparse.Namespace) -> int:
    track = registered(args.track)
    _refuse_others(args, EVALUATE_OPTIONS, track.evaluate_options, track.name)
    check_outputs(args, "csv")
    check_output_folders(args, "csv_dir")
    return command_line(track).evaluate(track, args)


def _refuse_others(args: argparse.Namespace, options: tuple[str, ...], allowed: tuple[str, ...], name: str) -> None:
    """A usage error for the first option given that the track does not read."""
    for option in options:
        if option not in allowed and getattr(args, option, None) not in (None, False, []):
            args.usage_error(f"--{option.replace('_', '-')} does not apply to --track {name}")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--run", action="extend", nargs="+", metavar="RUN", help="run files (tab or space separated), each scored "
        "against each --qrels: --run A B, a shell pattern (--run runs/*/output/*.txt) or --run repeated"
    )  # fmt: skip
    parser.add_argument(
        "--name", action="extend", nargs="+", metavar="NAME", help="a name for each run file, in order (default: its "
        "file's stem, or its path below the folder the runs share where stems repeat, as in the organizers' "
        "runs/TEAM/output/runN.txt)"
    )  # fmt: skip
    parser.add_argument(
        "--track",
        choices=track_names(),
        default="args",
        help="; ".join(f"{name}: {registered(name).about}" for name in track_names()),
    )
    parser.add_argument(
        "--qrels",
        action="append",
        help="qrels file `topic 0 doc label` for nDCG and judged; for images `topic ONTOPIC|PRO|CON image 0|1`; "
        "repeatable (relevance and quality in one call)",
    )
    parser.add_argument(
        "--stance-qrels",
        help="stance qrels of a track that judges stance (Task 2: `topic 0 doc FIRST|SECOND|NEUTRAL|NO`): stance "
        "macro-F1 over the whole run, not cut at k",
    )
    parser.add_argument(
        "--depth",
        type=int,
        help=f"cut-off k of the default measures nDCG@k, Judged@k and the judged-only nDCG@k (default {DEFAULT_DEPTH})",
    )
    parser.add_argument(
        "--measure",
        action="append",
        metavar="NAME",
        help=f"a measure in ir_measures' syntax, instead of the defaults; repeatable ({EXAMPLES})",
    )
    parser.add_argument(
        "--average",
        choices=AVERAGING,
        help=f"which topics a mean is over: {JUDGED_TOPICS} (every judged topic, 0 where the run lacks it: "
        f"ir_measures, TIRA and trec_eval -c; the default for args and comparative) or {RUN_TOPICS} (only the judged "
        "topics the run has: trec_eval without -c, and the organisers' Task 3 evaluator; the default for images)",
    )
    parser.add_argument(
        "-c", "--complete", dest="average", action="store_const", const=JUDGED_TOPICS,
        help=f"trec_eval's -c: the same as --average {JUDGED_TOPICS}"
    )  # fmt: skip
    parser.add_argument("--topics", help="topics XML: reject qrels topics it does not have")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--csv", help="also write per-topic scores to this CSV file; - prints only the CSV")
    for name in track_names():  # the options only a track of its own shape reads
        where = registered(name).evaluate_arguments
        if where:
            module, _, function = where.partition(":")
            getattr(importlib.import_module(module), function)(parser)
    parser.set_defaults(handler=cmd_evaluate, usage_error=parser.error)
