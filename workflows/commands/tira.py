"""`argrank tira`: the TIRA contract, one configured run's graph on an input folder (the track's documents and
topics), its run written to the output folder."""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

import luigi

from argrank.config import check_training_held_out, load_config
from argrank.core.atomic import atomic_path, output_path
from argrank.core.errors import InputError
from argrank.tracks.registry import track as registered
from argrank.tracks.registry import track_names
from tasks.publish import run_tasks
from workflows.commands.output_options import check_output_folders
from workflows.luigi_config import luigi_configuration
from workflows.setup import fresh_build, prepare_process


def cmd_tira(args: argparse.Namespace) -> int:
    """Run one configured run's graph on INPUT_DIR (the track's documents and topics) and write OUTPUT_DIR/run.txt.

    Topics are INPUT_DIR/topics.xml, or else queries.jsonl; the track says what else the folder may bring
    (RankingTrack.for_tira).
    """
    check_output_folders(args, "output")
    output_path(Path(args.output) / "run.txt")
    sections = load_config(args.runs_file)
    if args.track not in sections:
        raise InputError(args.runs_file, "", f"no {args.track!r} track configured (configured: {', '.join(sections)})")
    track, section = registered(args.track), sections[args.track]
    if track.run_rules is None:
        args.usage_error(f"--track {args.track} has no TREC runs to produce")
    tags = [spec.tag for spec in section.runs]
    tag = args.run or tags[0]
    if tag not in tags:
        raise InputError(args.runs_file, f"{args.track}.runs", f"no run tagged {tag!r} (configured: {', '.join(tags)})")
    given = Path(args.input).resolve()
    # The documents and topics come from INPUT_DIR; judgments are not part of the contract.
    topics = given / "topics.xml"
    if not topics.exists() and (given / "queries.jsonl").exists():
        topics = given / "queries.jsonl"
    section = track.for_tira(section, given, topics)
    check_training_held_out(section, [spec for spec in section.runs if spec.tag == tag])  # the input's topics
    luigi_configuration().set("argrank", "output_dir", args.outputs)
    prepare_process()
    fresh_build()  # a build of its own: signatures from the files as they are now
    task = run_tasks(section)[tag]["run"]
    result = luigi.build([task], local_scheduler=True, detailed_summary=True)
    if result.status not in (luigi.LuigiStatusCode.SUCCESS, luigi.LuigiStatusCode.SUCCESS_WITH_RETRY):
        print(f"argrank: the run {tag!r} failed; see the log above", file=sys.stderr)
        return 1
    with atomic_path(Path(args.output) / "run.txt") as tmp:
        shutil.copyfile(task.output().path, tmp)
    print(f"wrote {Path(args.output) / 'run.txt'}")
    return 0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-i", "--input", required=True)
    parser.add_argument("--track", choices=track_names(), default="args", help="which task's contract")
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("--runs-file", default="runs.yaml", help="where the run's method and parameters are named")
    parser.add_argument("--run", help="the tag of the run to produce (default: the first configured)")
    parser.add_argument(
        "--outputs", help="the pipeline's output folder, where its cached stages go (default: luigi.cfg's output_dir, "
        "else outputs)"
    )
    parser.set_defaults(handler=cmd_tira, usage_error=parser.error)
