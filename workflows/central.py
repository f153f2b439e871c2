"""A worker of a build under luigid that finishes the build, whatever the other workers do.

Luigi's keep-alive keeps a worker while the scheduler counts tasks pending for it. It stops, with the build not
complete, when every task left is another worker's: one running the last stages, one just killed (its task stays
RUNNING until luigid gives the worker up, then FAILED until `retry_delay`), or a build whose outputs were removed
within seconds of its last run (luigid ignores PENDING claims that soon after DONE). `build_until_complete` then
schedules the graph again, every POLL_S seconds, so the worker takes over what is handed back, and stops when the
root is complete, when the build failed in this worker, when luigid can no longer be asked, or when for IDLE_S
seconds no task of the graph ran anywhere and none was handed to it.
"""

from __future__ import annotations

import logging
import time
from typing import Callable

import luigi
from luigi.rpc import RemoteScheduler, RPCError
from luigi.task import flatten

POLL_S = 5.0
# Longer than luigid, set up as luigi.cfg says, takes to give a silent worker up and hand its task back (20 + 10 s).
IDLE_S = 120.0
_DONE = (luigi.LuigiStatusCode.SUCCESS, luigi.LuigiStatusCode.SUCCESS_WITH_RETRY)

log = logging.getLogger(__name__)


def build_until_complete(
    build_once: Callable[[], luigi.execution_summary.LuigiRunResult],
    root: luigi.Task,
    scheduler: RemoteScheduler,
    *,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> tuple[luigi.execution_summary.LuigiRunResult, str | None]:
    """Run `build_once` until `root` is complete; the last result and None, or why the worker gave up waiting
    (the build's own failures come back as its result, to be reported as they are)."""
    idle_since = None
    waiting = False
    while True:
        result = build_once()
        if result.status in _DONE or root.complete():
            return result, None
        if result.status != luigi.LuigiStatusCode.NOT_RUN:
            return result, None
        try:
            running = running_elsewhere(root, scheduler)
        except RPCError as error:  # luigid gone since the build began: say so, not a traceback
            return result, f"luigid could not be asked what runs ({error})"
        now = clock()
        if running:
            idle_since = None
        elif idle_since is None:
            idle_since = now
        elif now - idle_since > IDLE_S:
            return result, (f"the build is not complete and for {IDLE_S:.0f} s no worker ran its remaining tasks "
                            "nor did luigid hand them to this one")  # fmt: skip
        if not waiting:
            log.info("waiting for other workers: %s", f"{running} task(s) of this build run elsewhere" if running
                     else "the scheduler has not yet handed back a dead worker's task")  # fmt: skip
            waiting = True
        sleep(POLL_S)


def running_elsewhere(root: luigi.Task, scheduler: RemoteScheduler) -> int:
    """How many tasks of `root`'s graph luigid has RUNNING (by other workers: this one is between builds)."""
    running = scheduler.task_list(status="RUNNING", upstream_status="", limit=False)
    return len(graph_ids(root) & set(running))


def graph_ids(root: luigi.Task) -> set[str]:
    """The task ids of `root` and everything it requires, transitively."""
    seen: dict[str, luigi.Task] = {}
    stack = [root]
    while stack:
        task = stack.pop()
        if task.task_id not in seen:
            seen[task.task_id] = task
            stack.extend(flatten(task.requires()))
    return set(seen)
