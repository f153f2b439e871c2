"""The process's set-up for running the graph, in one place: the graph's root task (workflows.graph.FullSubmission,
what `luigi --module workflows` builds) calls `prepare_process` as it is made; a build in a process that has built
before starts with `fresh_build`.
"""

from __future__ import annotations

import atexit
import gc
import logging
import sys

import luigi
import pyarrow as pa
from luigi.task_register import Register

from argrank.core.errors import InputError


def prepare_process() -> None:
    """Arrow on the system allocator, bad input reported in one line, no collection of the whole heap at exit.
    Safe to call again.

    Arrow's default allocator (mimalloc) keeps the memory it frees for its own reuse, out of reach of numpy and
    scipy, which allocate with malloc, so a stage that hands large arrays from one to the other (the index build:
    token codes to a sparse matrix) would peak higher.

    At exit, after the atexit handlers, the interpreter collects garbage while it tears the modules down, going
    over every object the stages left. Frozen at exit, the heap is left to the operating system as it is; files
    are closed where they are written, never by the collector.
    """
    pa.set_memory_pool(pa.system_memory_pool())
    atexit.unregister(gc.freeze)
    atexit.register(gc.freeze)
    interface = logging.getLogger("luigi-interface")
    if not any(isinstance(f, NoTracebackForBadInput) for f in interface.filters):
        interface.addFilter(NoTracebackForBadInput())
    luigi.Task.event_handler(luigi.Event.FAILURE)(report_bad_input)  # a set of handlers: added once
    luigi.Task.event_handler(luigi.Event.TIMEOUT)(report_stopped)
    luigi.Task.event_handler(luigi.Event.PROCESS_FAILURE)(report_stopped)


def fresh_build() -> None:
    """Forget the task objects of earlier builds in this process, and with them their signatures, so this build
    sees the files as they are now."""
    Register.clear_instance_cache()


class NoTracebackForBadInput(logging.Filter):
    """Bad input is the user's to fix, not a bug: Luigi's log keeps its message, not a traceback.

    A failing run() reaches the log as an exception; a failing complete() or requires() (a bad runs file)
    only as traceback text, whose last line is the error.
    """

    MARK = f"\n{InputError.__module__}.{InputError.__qualname__}: "

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.exc_info[1], InputError):
            record.exc_info = None
            record.exc_text = None
        elif isinstance(record.msg, str) and self.MARK in record.msg:
            headline = record.getMessage().split("\n", 1)[0].rstrip(":")
            record.msg = f"{headline}: bad input: {record.msg.rsplit(self.MARK, 1)[1].strip()}"
            record.args = ()
        return True


def report_stopped(task: luigi.Task, message: str) -> None:
    """Say in one line why Luigi stopped a task from outside it (past luigi.cfg's `[worker] timeout`, or its process
    gone), which Luigi's log alone would hold."""
    print(f"argrank: {task.task_family} stopped: {message}", file=sys.stderr)


def report_bad_input(task: luigi.Task, exception: BaseException) -> None:
    """Say in one line what was wrong, after Luigi's own log, so the reason is not lost in a traceback."""
    if isinstance(exception, InputError):
        print(f"argrank: {task.task_family} failed on bad input: {exception}", file=sys.stderr)
