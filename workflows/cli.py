"""The `argrank` command: run experiments (and the nightly), evaluate, compare and validate run files, run the TIRA
contract, show a submission's scores, and the commands tracks bring (tracks.adapter.TrackAdapter.commands).

A command's arguments are built only for the command given, from its own module, so `argrank compare --help`
imports neither Luigi nor the graph's tasks nor the numeric libraries. Bad input ends the command with one line
on stderr naming the file and place, and exit status 2.
"""

from __future__ import annotations

import argparse
import importlib
import os
import shutil
import sys
from pathlib import Path

from argrank.core.errors import InputError
from argrank.tracks.registry import track as registered
from argrank.tracks.registry import track_names

# name → ("module:function" that adds the command's arguments and sets its handler, help line).
COMMANDS = {
    "evaluate": (
        "workflows.cli:evaluate_arguments",
        "score a run against qrels (nDCG, judged), or perspective predictions against a release",
    ),
    "validate": ("workflows.cli:validate_arguments", "check a run file against the Touché rules"),
    "tira": (
        "workflows.cli:tira_arguments",
        "TIRA contract: -i INPUT_DIR (args.me files, passages.jsonl.gz or an image collection; topics.xml or "
        "queries.jsonl) -o OUTPUT_DIR",
    ),
    "compare": (
        "workflows.compare:add_arguments",
        "runs against a baseline: means, paired t-test and Wilcoxon over topics, wins/ties/losses",
    ),
    "quality-benchmark": (
        "workflows.quality_benchmark:add_arguments",
        "argument quality: the model (topic-held-out Spearman, Kendall) and the re-ranking (nDCG@5) on "
        "Webis-ArgQuality-20",
    ),
    "run": (
        "workflows.run:add_run_arguments",
        "build an experiment: every track's runs, scores and the report; Luigi's log to a file",
    ),
    "nightly": (
        "workflows.run:add_nightly_arguments",
        "run the submission, record its means in outputs/history.jsonl, flag drops",
    ),
    "report": ("workflows.cli:report_arguments", "show where the submission is and its scores"),
}
DEFAULT_DEPTH = 5


def commands() -> dict[str, tuple[str, str]]:
    """Ours, then each track's own."""
    found = dict(COMMANDS)
    for name in track_names():
        found.update(registered(name).commands)
    return found


def cmd_evaluate(args: argparse.Namespace) -> int:
    adapter = registered(args.track)
    _refuse_others(args, EVALUATE_OPTIONS, adapter.evaluate_options, adapter.name)
    return adapter.evaluate_command(args)


def _refuse_others(args: argparse.Namespace, options: tuple[str, ...], allowed: tuple[str, ...], name: str) -> None:
    """A usage error for the first option given that the track does not read."""
    for option in options:
        if option not in allowed and getattr(args, option, None) not in (None, False, []):
            args.usage_error(f"--{option.replace('_', '-')} does not apply to --track {name}")


def cmd_validate(args: argparse.Namespace) -> int:
    from argrank.formats.validation import validate_run

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


def cmd_tira(args: argparse.Namespace) -> int:
    """Run one configured run's graph on INPUT_DIR (the track's documents and topics) and write OUTPUT_DIR/run.txt.

    Topics are INPUT_DIR/topics.xml, or else queries.jsonl; the track says what else the folder may bring
    (RankingTrack.for_tira).
    """
    import luigi

    from argrank.config import load_config
    from argrank.core.atomic import atomic_path
    from tasks.publish import run_tasks
    from workflows.setup import fresh_build, prepare_process

    tracks = load_config(args.runs_file)
    if args.track not in tracks:
        raise InputError(args.runs_file, "", f"no {args.track!r} track configured (configured: {', '.join(tracks)})")
    adapter, track = registered(args.track), tracks[args.track]
    if adapter.run_rules is None:
        args.usage_error(f"--track {args.track} has no TREC runs to produce")
    tags = [spec.tag for spec in track.runs]
    tag = args.run or tags[0]
    if tag not in tags:
        raise InputError(args.runs_file, f"{args.track}.runs", f"no run tagged {tag!r} (configured: {', '.join(tags)})")
    given = Path(args.input).resolve()
    # The documents and topics come from INPUT_DIR; judgments are not part of the contract.
    topics = given / "topics.xml"
    if not topics.exists() and (given / "queries.jsonl").exists():
        topics = given / "queries.jsonl"
    track = adapter.for_tira(track, given, topics)
    luigi.configuration.get_config().set("argrank", "output_dir", args.outputs)
    prepare_process()
    fresh_build()  # a build of its own: signatures from the files as they are now
    task = run_tasks(track)[tag]["run"]
    result = luigi.build([task], local_scheduler=True, detailed_summary=True)
    if result.status not in (luigi.LuigiStatusCode.SUCCESS, luigi.LuigiStatusCode.SUCCESS_WITH_RETRY):
        print(f"argrank: the run {tag!r} failed; see the log above", file=sys.stderr)
        return 1
    with atomic_path(Path(args.output) / "run.txt") as tmp:
        shutil.copyfile(task.output().path, tmp)
    print(f"wrote {Path(args.output) / 'run.txt'}")
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    """Where the submission is, and its mean scores: by default under luigi.cfg's output_dir, where the graph
    published it, not a fixed outputs/ that may hold an older experiment."""
    root = Path(args.dir) if args.dir else _output_dir() / "submission"
    # Hidden entries are a killed publisher's temporary folders, not tracks.
    tracks = sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")) if root.is_dir() else []
    if not tracks:
        print(f"no submission under {root}; run `make run` first", file=sys.stderr)
        return 1
    for folder in tracks:
        print(f"\n== {folder.name}: {folder}")
        # Runs: <tag>.txt (TREC runs), or <scenario>/<split>.jsonl (perspective).
        for run in [*sorted(folder.glob("*.txt")), *sorted(folder.glob("*/*.jsonl"))]:
            if run.name != "evaluation.txt":
                print(f"run        {run}")
        evaluation = folder / "evaluation.json"
        if evaluation.exists():
            print(f"evaluation {evaluation}\n")
            print((folder / "evaluation.txt").read_text(encoding="utf-8").rstrip())
    return 0


def _output_dir() -> Path:
    """The graph's output folder as luigi.cfg (or LUIGI_CONFIG_PATH) sets it."""
    import luigi.configuration

    return Path(luigi.configuration.get_config().get("argrank", "output_dir", "outputs"))


def evaluate_arguments(parser: argparse.ArgumentParser) -> None:
    from argrank.evaluation.names import EXAMPLES
    from argrank.evaluation.results import AVERAGING, JUDGED_TOPICS, RUN_TOPICS

    parser.add_argument("--run", help="run file (tab or space separated)")
    parser.add_argument(
        "--track",
        choices=track_names(),
        default="args",
        help="; ".join(f"{name}: {registered(name).about}" for name in track_names()),
    )
    parser.add_argument(
        "--qrels",
        help="qrels file `topic 0 doc label` for nDCG and judged; for images `topic ONTOPIC|PRO|CON image 0|1`",
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
    parser.add_argument("--topics", help="topics XML: reject qrels topics it does not have")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--csv", help="also write per-topic scores to this CSV file")
    for name in track_names():
        registered(name).add_evaluate_arguments(parser)
    parser.set_defaults(handler=cmd_evaluate, usage_error=parser.error)


EVALUATE_OPTIONS = ("run", "qrels", "stance_qrels", "depth", "measure", "average", "topics", "json", "csv", "data",
                    "predictions", "scenario", "split", "all_variables", "csv_dir")  # fmt: skip
TREC_DEPTH = 1000  # a TREC run's default longest list


def validate_arguments(parser: argparse.ArgumentParser) -> None:
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


def tira_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-i", "--input", required=True)
    parser.add_argument("--track", choices=track_names(), default="args", help="which task's contract")
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("--runs-file", default="runs.yaml", help="where the run's method and parameters are named")
    parser.add_argument("--run", help="the tag of the run to produce (default: the first configured)")
    parser.add_argument(
        "--outputs", default="outputs", help="the pipeline's output folder, where its cached stages go"
    )
    parser.set_defaults(handler=cmd_tira, usage_error=parser.error)


def report_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dir", help="the submission folder (default: <output_dir>/submission, from luigi.cfg)")
    parser.set_defaults(handler=cmd_report)


def parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The command line; only the command `argv` names gets its arguments (all of them, where it names none)."""
    argv = sys.argv[1:] if argv is None else argv
    chosen = next((word for word in argv if not word.startswith("-")), None)
    top = argparse.ArgumentParser(prog="argrank", description=__doc__.splitlines()[0])
    subparsers = top.add_subparsers(dest="command", required=True)
    known = commands()
    for name, (where, about) in known.items():
        command = subparsers.add_parser(name, help=about)
        if chosen in (name, None) or chosen not in known:
            module, _, function = where.partition(":")
            getattr(importlib.import_module(module), function)(command)
    return top


def main(argv: list[str] | None = None) -> int:
    """Run the command; a reader that leaves early (`argrank report | head -1`) ends it quietly with status 141, as a
    shell reports any command a closed pipe stopped (128 + SIGPIPE), so `set -o pipefail` still sees the cut."""
    try:
        try:
            return _command(argv)
        finally:
            sys.stdout.flush()  # here, not at exit, where a closed pipe could only be reported with a traceback
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # what is left unwritten goes nowhere
        return 141


def _command(argv: list[str] | None) -> int:
    args = parser(argv).parse_args(argv)
    try:
        return args.handler(args)
    except InputError as error:
        print(f"argrank: error: {error}", file=sys.stderr)
        return 2
    except (FileNotFoundError, IsADirectoryError, PermissionError) as error:
        print(f"argrank: error: {error.filename}: {error.strerror}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
