"""`argrank run` and `argrank nightly`: the graph as a user (or a scheduler) starts it.

`run` builds an experiment (`FullSubmission` for a runs file) with Luigi's local scheduler, or through luigid with
--scheduler-host, keeps Luigi's own INFO lines in `outputs/logs/<experiment>-<time>.log` and shows on the
terminal our stage lines, every warning and, at the end, the experiment's scores and where its report is.

`nightly` does the same for the submission experiment, then rewrites the report with the trend and tonight's
record (date, git commit, the runs file's digest, each track's signature, every mean), and only then appends the
record to `outputs/history.jsonl`: a nightly stopped before its end leaves no record.
Its exit status is for the scheduler: 0 all well, 1 the build failed, 3 a gated mean (each track's
`gate_measures`, or those --gate names) fell by more than --tolerance since the latest record of the same runs file
(of any with --across-changes), or with --max-change a run's rankings moved further than that from that record's
(reporting.movement); the record is kept either way, and tonight's rankings for the next night.
"""

from __future__ import annotations

import argparse
import json
import logging
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import luigi
from luigi.task import flatten

from argrank.config import Experiment, load_experiment
from argrank.core.errors import InputError
from argrank.core.fingerprint import file_digest
from argrank.core.fingerprint import remove_damaged_records
from argrank.core.integrity import remove_damaged
from argrank.core.layout import cache_folder, experiment_folder, history_file, report_folder
from argrank.reporting import history
from argrank.reporting.movement import keep_rankings, kept_date, movement, moved_beyond
from tasks.base import DIGESTS, CachedTask
from tasks.report import ExperimentReport
from workflows.central import central_build
from workflows.graph import FullSubmission
from workflows.luigi_config import luigi_configuration
from workflows.setup import fresh_build

FAILED, DROPPED = 1, 3
OURS = ("argrank", "tasks", "workflows")  # loggers whose INFO lines the terminal shows


def cmd_run(args: argparse.Namespace) -> int:
    experiment = load_experiment(args.runs_file)
    if args.verify_cache:
        verify_cache(args.outputs)
    if not build(args):
        return FAILED
    print(summary(experiment, args.outputs))
    return 0


def cmd_nightly(args: argparse.Namespace) -> int:
    experiment = load_experiment(args.runs_file)
    if not experiment.submission:
        args.usage_error(f"{args.runs_file} is not the submission, which is all the nightly runs: add `submission: "
                         "true` to it, or give the submission's runs file with --runs-file")  # fmt: skip
    if args.max_change is not None and not 0 <= args.max_change <= 1:
        args.usage_error(f"--max-change {args.max_change}: expected a change between 0 and 1")
    path = history_file(args.outputs)
    previous = history.read_history(path)
    named = None
    if args.gate and previous:  # checked before the build; with no record yet there is nothing to gate
        try:
            named = history.gate_names(args.gate, previous)
        except ValueError as error:
            args.usage_error(str(error))
    verify_cache(args.outputs)
    if not build(args):
        return FAILED
    record = {
        "date": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "commit": _git_commit(),
        "runs_file": file_digest(args.runs_file),
        "signatures": _signatures(args.runs_file),
        "input_files": _input_files(args.runs_file),
        "means": history.published_means(experiment, args.outputs),
    }
    # The report again, with tonight's record in its trend; the history keeps the record once all is built.
    config = luigi.configuration.get_config()
    config.set("argrank", "nightly_record", json.dumps(record, sort_keys=True))
    try:
        if not build(args):
            return FAILED
    finally:
        config.set("argrank", "nightly_record", "")
    history.append_record(path, record)
    print(summary(experiment, args.outputs))
    print(f"\nnightly record {len(previous) + 1} appended to {path}")
    gate = dict.fromkeys(record["means"], named) if named is not None else history.default_gate(record["means"])
    status = _judge(previous, record, gate, args, experiment)
    keep_rankings(experiment, args.outputs, record["date"])
    return status


def _judge(previous: list[dict], record: dict, gate: dict, args: argparse.Namespace, experiment: Experiment) -> int:
    """Compare tonight's record with the one it may be compared with; DROPPED (with what changed since that
    record) when a gated mean fell by more than the tolerance, or with --max-change when a run's rankings moved
    further than that from that record's (rank-biased overlap, reporting.movement)."""
    index = history.compared_record(previous, record["runs_file"], args.across_changes)
    if index is None:
        print("no earlier record to compare with: nothing gated" if args.across_changes else
              "no earlier record of this runs file: nothing gated (--across-changes compares with the latest record)")
        return 0
    before, which = previous[index], f"record {index + 1} of {previous[index]['date']}"
    print(f"compared with {which}; gated: {history.describe_gate(gate, record['means'])}")
    fallen = history.drops(before["means"], record["means"], args.tolerance, gate)
    for line in fallen:
        print(f"dropped by more than {args.tolerance}: {line}", file=sys.stderr)
    moved = _moved(before, args, experiment)
    if fallen or moved:
        print(f"changed since {which}: {history.changes(before, record)}", file=sys.stderr)
    return DROPPED if fallen or moved else 0


def _moved(before: dict, args: argparse.Namespace, experiment: Experiment) -> list[str]:
    """Print how far each run's rankings moved from `before`'s (where the nightly kept them); the lines of those
    that moved more than --max-change."""
    if kept_date(args.outputs) != before["date"]:
        print("rankings: none kept of that record, movement not measured")
        return []
    moved = movement(experiment, args.outputs)
    overlaps = [f"{track} {tag} {overlap:.4f}" for track, runs in moved.items() for tag, overlap in runs.items()]
    print(f"rankings' overlap with that record's (RBO, 1 = unchanged): {'; '.join(overlaps) or 'no run to compare'}")
    beyond = moved_beyond(moved, args.max_change) if args.max_change is not None else []
    for line in beyond:
        print(f"moved by more than {args.max_change}: {line}", file=sys.stderr)
    return beyond


def verify_cache(outputs: str) -> None:
    """Every cached file hashed against what its stage wrote; a damaged target is removed, with a warning, and the
    build makes it again. The check while Luigi schedules is a `stat` per file: this finds what leaves no trace
    in a file's size or times (a disk's fault)."""
    for found in remove_damaged(cache_folder(outputs)):
        print(f"argrank: warning: damaged cache file {found}", file=sys.stderr)
    for found in remove_damaged_records(Path(outputs) / DIGESTS):
        print(f"argrank: warning: damaged digest record {found}", file=sys.stderr)


def build(args: argparse.Namespace) -> bool:
    """Build the runs file's FullSubmission; True on success. Luigi's INFO goes to the log file only."""
    failure = _build(args.runs_file, args.outputs, args.workers, args.scheduler_host, args.scheduler_port)
    if failure:
        print(failure, file=sys.stderr)
    return failure is None


def run_experiment(runs_file: str = "runs.yaml", outputs: str = "outputs", workers: int = 1) -> str:
    """`argrank run` in this process, for a notebook or a script that tries one setting after another: builds the
    runs file's experiment and returns what the command prints; RuntimeError, naming Luigi's log, if it fails.

    Each call reads the runs file and the cache afresh, so a parameter changed since the last call re-runs only
    the stages it reaches, without what a new process pays first: Python, Luigi, numpy, Arrow and the graph's
    modules, which cost more than the work of a BM25 re-run itself (see docs/python-api.md)."""
    experiment = load_experiment(runs_file)
    failure = _build(str(runs_file), str(outputs), workers)
    if failure:
        raise RuntimeError(failure)
    return summary(experiment, str(outputs))


def _build(runs_file: str, outputs: str, workers: int, host: str | None = None, port: int = 8082) -> str | None:
    """Build the runs file's FullSubmission; None on success, else what failed and where Luigi's log is."""
    config = luigi_configuration()
    config.set("argrank", "output_dir", outputs)
    config.set("core", "no_configure_logging", "true")  # our handlers, not Luigi's (see _log_quietly)
    log_file = Path(outputs) / "logs" / f"{load_experiment(runs_file).name}-{time.strftime('%Y%m%d-%H%M%S')}.log"
    _log_quietly(log_file)
    fresh_build()
    root = FullSubmission(runs_file=runs_file)
    if host is None:
        result, gave_up = luigi.build([root], workers=workers, detailed_summary=True, local_scheduler=True), None
    else:  # other workers may run parts of it, or die running them: build until it is complete (central.py)
        result, gave_up = central_build(root, host, port, workers)
    if gave_up is None and (result.status in (luigi.LuigiStatusCode.SUCCESS, luigi.LuigiStatusCode.SUCCESS_WITH_RETRY)
                            or (host is not None and root.complete())):  # other workers ran some of it: all done
        return None
    why = gave_up or result.status.name
    return f"argrank: the build failed ({why}); Luigi's log: {log_file}\n{result.summary_text}"


def summary(experiment: Experiment, outputs: str) -> str:
    """What an experiment published: per configured track its folder and score tables, then its report (never a
    folder the experiment does not configure, nor the temporary entry of an interrupted writer)."""
    parts = []
    for name in sorted(experiment.tracks):
        track = experiment_folder(outputs, experiment.name) / name
        scores = track / "evaluation.txt"
        table = scores.read_text(encoding="utf-8").rstrip() if scores.is_file() else "(no judgments: runs only)"
        parts.append(f"== {name}: {track}\n{table}")
    parts.append(f"report: {report_folder(outputs, experiment.name) / 'index.html'}")
    return "\n\n".join(parts)


class _LogFile(logging.FileHandler):
    """The run's log file, opened at its first line; where it cannot be written (a full or read-only disk), one
    warning on the terminal and no more lines, not a traceback for each line logged."""

    def __init__(self, path: Path):
        super().__init__(path, encoding="utf-8", delay=True)
        self.broken = False

    def emit(self, record: logging.LogRecord) -> None:
        if not self.broken:
            super().emit(record)

    def handleError(self, record: logging.LogRecord) -> None:  # noqa: N802 (logging's name)
        error = sys.exc_info()[1]
        if not isinstance(error, OSError):
            super().handleError(record)
            return
        self.broken = True
        sys.stderr.write(f"argrank: warning: {self.baseFilename}: cannot write Luigi's log ({error.strerror}): "
                         "it stops here\n")  # fmt: skip

    def close(self) -> None:
        if self.broken and self.stream is not None:  # what it holds cannot be written: dropped, not flushed
            try:
                self.stream.close()
            except OSError:
                pass
            self.stream = None
        super().close()


def _log_quietly(log_file: Path) -> None:
    """Everything at INFO into `log_file`; on the terminal, our INFO lines and anyone's warnings."""
    try:
        log_file.parent.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=log_file.parent).close()  # a folder that is there but cannot be written to
    except OSError as error:  # a read-only output folder, say: no stage could write either
        where = error.filename or log_file.parent
        raise InputError(where, "", f"cannot write the output: {error.strerror}") from None
    root = logging.getLogger()
    for handler in [h for h in root.handlers if getattr(h, "argrank", False)]:
        root.removeHandler(handler)
        handler.close()
    to_file = _LogFile(log_file)
    to_file.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    to_terminal = logging.StreamHandler(sys.stderr)
    to_terminal.setFormatter(logging.Formatter("%(levelname)s: %(message)s"))
    to_terminal.addFilter(lambda record: record.levelno >= logging.WARNING or record.name.startswith(OURS))
    for handler in (to_file, to_terminal):
        handler.argrank = True
        root.addHandler(handler)
    root.setLevel(logging.INFO)
    for name in ("luigi", "luigi-interface"):
        logging.getLogger(name).setLevel(logging.INFO)
        logging.getLogger(name).propagate = True
    logging.getLogger("spacy").setLevel(logging.WARNING)  # its own handler prints each pipeline it builds


def _git_commit() -> str | None:
    """The checkout's commit, if it is one."""
    done = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=False)
    return done.stdout.strip() if done.returncode == 0 else None


def _signatures(runs_file: str) -> dict[str, str]:
    """Each track's publisher signature: a digest of every input file and parameter behind its results."""
    return {task.track: task.signature for task in ExperimentReport(runs_file=runs_file).requires()}


def _input_files(runs_file: str) -> dict[str, dict[str, str]]:
    """Per track, every input file its graph reads (the location parameters of its tasks: corpus, topics, qrels,
    training sets, plug-in modules; CachedTask.input_files) with its digest, named relative to the runs file's
    folder where it lies below it, so that the nightly can say which changed (history.changes)."""
    folder = Path(runs_file).resolve().parent
    found = {}
    for publisher in ExperimentReport(runs_file=runs_file).requires():
        files = {path: digest for task in _graph_tasks(publisher) if isinstance(task, CachedTask)
                 for path, digest in task.input_files().items()}  # fmt: skip
        found[publisher.track] = {_named(path, folder): digest for path, digest in sorted(files.items())}
    return found


def _graph_tasks(root: luigi.Task) -> list[luigi.Task]:
    """`root` and every task it requires, directly or not, each once."""
    seen, todo = {}, [root]
    while todo:
        task = todo.pop()
        if task.task_id not in seen:
            seen[task.task_id] = task
            todo += flatten(task.requires())
    return list(seen.values())


def _named(path: str, folder: Path) -> str:
    """`path` relative to `folder` where it lies below it, else as given."""
    resolved = Path(path).resolve()
    return resolved.relative_to(folder).as_posix() if resolved.is_relative_to(folder) else path


def add_run_arguments(parser: argparse.ArgumentParser) -> None:
    _add_build_arguments(parser, cmd_run)
    parser.add_argument(  # the nightly always does it
        "--verify-cache", action="store_true", help="first hash every cached file against what its stage wrote and "
        "remove a damaged one, to be made again (the usual check looks at sizes and times only)"
    )  # fmt: skip


def add_nightly_arguments(parser: argparse.ArgumentParser) -> None:
    _add_build_arguments(parser, cmd_nightly)
    parser.add_argument(
        "--tolerance", type=float, default=0.01, help="how far a gated mean may fall before exit status 3"
    )
    parser.add_argument(
        "--gate",
        action="append",
        metavar="MEASURE",
        help="watch this measure (repeatable; ir_measures' names, stance_f1, on_stance@10, …) instead of each "
        "track's effectiveness measures",
    )
    parser.add_argument(
        "--max-change", type=float, metavar="CHANGE", help="also exit 3 when a run's rankings moved further than this "
        "from the compared record's (1 − their mean rank-biased overlap, 0 … 1), even where no mean fell"
    )  # fmt: skip
    parser.add_argument(
        "--across-changes",
        action="store_true",
        help="compare with the latest record even when the runs file has changed since (default: the latest record "
        "of the same runs file)",
    )


def _add_build_arguments(parser: argparse.ArgumentParser, handler) -> None:
    parser.add_argument("--runs-file", default="runs.yaml", help="the experiment (default runs.yaml)")
    parser.add_argument("--outputs", help="the pipeline's output folder (default: luigi.cfg's output_dir, else outputs)")
    parser.add_argument("--workers", type=int, default=1, help="Luigi workers running independent tasks")
    parser.add_argument("--scheduler-host", help="run through luigid on this host instead of a local scheduler")
    parser.add_argument("--scheduler-port", type=int, default=8082, help="luigid's port (default 8082)")
    parser.set_defaults(handler=handler, usage_error=parser.error)
