"""A worker of a build under luigid that finishes the build, whatever the other workers do.

Luigi's keep-alive keeps a worker while the scheduler counts tasks pending for it. It stops, with the build not
complete, when every task left is another worker's: one running the last stages, one just killed (its task stays
RUNNING until luigid gives the worker up, then FAILED until `retry_delay`), or a build whose outputs were removed
within seconds of its last run (luigid ignores PENDING claims that soon after DONE). `build_until_complete` then
schedules the graph again, every POLL_S seconds, so the worker takes over what is handed back, and stops when the
root is complete, when the build failed in this worker, when luigid can no longer be asked, or when for IDLE_S
seconds no task of the graph ran anywhere and none was handed to it.

Keep-alive can also wait forever, which `central_build` bounds. luigid hands a failed task back after
`retry_delay` and counts it pending meanwhile, so a kept-alive worker ran a task that fails again and again:
`StopsOnFailure` workers ask for no more work once a task of theirs failed (one that found its inputs
missing, though luigid held them done, is scheduled again instead). And a worker that found a task complete
(a killed worker wrote its output but never said DONE) is not among those luigid lets run it, so when luigid hands
the dead worker's task back nobody takes it, while the tasks after it stay pending: a worker idle for REWALK_S
seconds returns, and the next scheduling tells luigid the task is done.
"""

from __future__ import annotations

import logging
import time
from typing import Callable

import luigi
from luigi.interface import _WorkerSchedulerFactory
from luigi.rpc import RemoteScheduler, RPCError
from luigi.task import flatten
from luigi.worker import Worker

POLL_S = 5.0
REWALK_S = 30.0  # a kept-alive worker idle this long schedules the graph again (luigid's state may be stale)
# Longer than luigid, set up as luigi.cfg says, takes to give a silent worker up and hand its task back (20 + 10 s).
IDLE_S = 120.0
_DONE = (luigi.LuigiStatusCode.SUCCESS, luigi.LuigiStatusCode.SUCCESS_WITH_RETRY)

log = logging.getLogger(__name__)


def central_build(root: luigi.Task, host: str, port: int, workers: int
                  ) -> tuple[luigi.execution_summary.LuigiRunResult, str | None]:  # fmt: skip
    """Build `root` as one worker under the luigid at host:port (`build_until_complete`'s result)."""
    config = luigi.configuration.get_config()
    config.set("worker", "keep_alive", "true")  # wait while other workers run what this one's tasks need
    config.set("worker", "max_keep_alive_idle_duration", f"{REWALK_S:g} seconds")

    def build_once() -> luigi.execution_summary.LuigiRunResult:
        result = luigi.build([root], workers=workers, detailed_summary=True, scheduler_host=host,
                             scheduler_port=port, worker_scheduler_factory=WORKERS)  # fmt: skip
        worker = WORKERS.latest
        if worker is not None and worker.stale and not worker.failed:  # luigid's state, not the build, was wrong
            result.status = luigi.LuigiStatusCode.NOT_RUN
        return result

    return build_until_complete(build_once, root, RemoteScheduler(f"http://{host}:{port}/"))


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
        if root.complete() or result.status not in (*_DONE, luigi.LuigiStatusCode.NOT_RUN):
            return result, None  # done, or failed in this worker
        # Not complete though Luigi may say SUCCESS: the rest was another worker's, or this one stopped idle.
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


class StopsOnFailure(Worker):
    """A Luigi worker that, once a task it ran has failed, finishes what it runs and asks for no more work, so
    the build ends FAILED instead of retrying the task for as long as keep-alive lasts.

    A task that found its inputs missing when it started, though luigid had them done, did not fail: luigid's
    state was stale (it ignores a PENDING claim within seconds of a DONE, as when a build runs again into an empty
    folder, and so hands out the task after). `stale` says so, and `central_build` schedules the build again."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.stale = False  # a task of this worker found its inputs missing
        self.failed = False  # a task of this worker failed for any other reason

    def _handle_next_task(self) -> None:
        succeeded, missing = self.run_succeeded, sum(self.unfulfilled_counts.values())
        self.run_succeeded = True  # to see whether this task failed
        super()._handle_next_task()
        if not self.run_succeeded:
            if sum(self.unfulfilled_counts.values()) > missing:
                self.stale = True
            else:
                self.failed = True
            self._start_phasing_out()
        self.run_succeeded = self.run_succeeded and succeeded


class _Workers(_WorkerSchedulerFactory):
    """Makes StopsOnFailure workers, and keeps the latest, so that a build can ask it what happened."""

    latest: StopsOnFailure | None = None

    def create_worker(self, scheduler, worker_processes, assistant=False):  # noqa: FBT002 (Luigi's signature)
        self.latest = StopsOnFailure(scheduler=scheduler, worker_processes=worker_processes, assistant=assistant)
        return self.latest


WORKERS = _Workers()
