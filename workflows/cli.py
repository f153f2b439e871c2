"""The `argrank` command: run experiments (and the nightly), evaluate, compare and validate run files, run the TIRA
contract, show a submission's scores, and the commands tracks bring (tracks.track.Track.commands).

A command's arguments are built only for the command given, from its own module (workflows.commands, or a track's
in workflows.tracks), so `argrank compare --help` imports neither Luigi nor the graph's tasks nor the numeric
libraries. Bad input ends the command with one line on stderr naming the file and place, and exit status 2.
"""

from __future__ import annotations

import argparse
import configparser
import importlib
import os
import sys

from argrank.core.errors import InputError
from workflows.luigi_config import configured_output_dir, luigi_config_problem
from argrank.tracks.registry import track as registered
from argrank.tracks.registry import track_names

# name → ("module:function" that adds the command's arguments and sets its handler, help line).
COMMANDS = {
    "evaluate": (
        "workflows.commands.evaluate:add_arguments",
        "score a run against qrels (nDCG, judged), or perspective predictions against a release",
    ),
    "validate": ("workflows.commands.validate:add_arguments", "check a run file against the Touché rules"),
    "tira": (
        "workflows.commands.tira:add_arguments",
        "TIRA contract: -i INPUT_DIR (args.me files, passages.jsonl.gz or an image collection; topics.xml or "
        "queries.jsonl) -o OUTPUT_DIR",
    ),
    "compare": (
        "workflows.commands.compare:add_arguments",
        "runs against a baseline: means, paired t-test and Wilcoxon over topics, wins/ties/losses",
    ),
    "quality-benchmark": (
        "workflows.commands.quality_benchmark:add_arguments",
        "argument quality: the model (topic-held-out Spearman, Kendall) and the re-ranking (nDCG@5) on "
        "Webis-ArgQuality-20",
    ),
    "fuse": (
        "workflows.commands.fuse:add_arguments",
        "fuse run files (combsum … rrf, wsum; min-max … borda); with --qrels --optimize M [--cv K] choose weights "
        "on judged topics and report the cross-validated figure",
    ),
    "steps-benchmark": (
        "workflows.commands.steps_benchmark:add_arguments",
        "BM25 against BM25 + RM3, + Bo1 and + ltr (nDCG@5, paired tests) on Webis-ArgQuality-20, settings chosen "
        "and models learnt in training folds of topics",
    ),
    "run": (
        "workflows.run:add_run_arguments",
        "build an experiment: every track's runs, scores and the report; Luigi's log to a file",
    ),
    "nightly": (
        "workflows.run:add_nightly_arguments",
        "run the submission, record its means in outputs/history.jsonl, flag drops",
    ),
    "report": ("workflows.commands.report:add_arguments", "show where the submission is and its scores"),
}


def commands() -> dict[str, tuple[str, str]]:
    """Ours, then each track's own."""
    found = dict(COMMANDS)
    for name in track_names():
        found.update(registered(name).commands)
    return found


def parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The command line; only the command `argv` names gets its arguments (the list of commands and an unknown
    command's error need none), and one of ours is found without loading the tracks for theirs."""
    argv = sys.argv[1:] if argv is None else argv
    chosen = next((word for word in argv if not word.startswith("-")), None)
    top = argparse.ArgumentParser(prog="argrank", description=__doc__.splitlines()[0])
    subparsers = top.add_subparsers(dest="command", required=True)
    for name, (where, about) in (COMMANDS if chosen in COMMANDS else commands()).items():
        command = subparsers.add_parser(name, help=about)
        if name == chosen:
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
    except KeyboardInterrupt:  # Ctrl-C: what was finished stays cached, nothing half-written is kept
        print("argrank: interrupted: finished stages are kept and nothing half-written; run again to resume",
              file=sys.stderr)  # fmt: skip
        return 130


def _command(argv: list[str] | None) -> int:
    try:
        args = parser(argv).parse_args(argv)  # a graph command's module loads Luigi, which reads its configuration
        if getattr(args, "outputs", "") is None:  # no --outputs: luigi.cfg's output_dir, as the luigi command reads it
            args.outputs = configured_output_dir()
        return args.handler(args)
    except InputError as error:
        print(f"argrank: error: {error}", file=sys.stderr)
        return 2
    except (FileNotFoundError, IsADirectoryError, PermissionError) as error:
        print(f"argrank: error: {error.filename}: {error.strerror}", file=sys.stderr)
        return 2
    except (configparser.Error, UnicodeDecodeError) as error:  # Luigi's configuration, read when first needed
        problem = luigi_config_problem(error)
        if problem is None:
            raise
        print(f"argrank: error: {problem}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
