"""build_until_complete: a worker under luigid schedules the graph again while other workers hold its tasks, and
stops on completion, on its own failure, or after IDLE_S seconds in which nothing of the graph ran anywhere."""

from __future__ import annotations

from types import SimpleNamespace

import luigi
import pytest
from luigi.rpc import RPCError

from workflows.central import IDLE_S, POLL_S, WORKERS, build_until_complete, graph_ids

NOT_RUN, FAILED, SUCCESS = (luigi.LuigiStatusCode.NOT_RUN, luigi.LuigiStatusCode.FAILED,
                            luigi.LuigiStatusCode.SUCCESS)  # fmt: skip


class Leaf(luigi.Task):
    name = luigi.Parameter()


class Root(luigi.Task):
    done = False

    def requires(self):
        return [Leaf(name="a"), {"b": Leaf(name="b"), "again": Leaf(name="a")}]

    def complete(self):
        return self.done


class Scheduler:
    """luigid's task_list of RUNNING tasks, one answer per call."""

    def __init__(self, answers):
        self.answers = list(answers)

    def task_list(self, status, upstream_status, limit):
        assert (status, upstream_status, limit) == ("RUNNING", "", False)
        return self.answers.pop(0)


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now

    def sleep(self, seconds):
        self.now += seconds


def _builds(statuses, root, complete_after=None):
    calls = []

    def build_once():
        calls.append(1)
        if complete_after is not None and len(calls) >= complete_after:
            root.done = True
        return SimpleNamespace(status=statuses[min(len(calls), len(statuses)) - 1])

    return build_once, calls


def test_the_graphs_ids_are_the_root_and_all_it_requires_once_each():
    assert graph_ids(Root()) == {Root().task_id, Leaf(name="a").task_id, Leaf(name="b").task_id}


def test_a_worker_waits_while_another_runs_the_last_task_then_finds_the_build_complete():
    root, clock = Root(), Clock()
    running = {Leaf(name="a").task_id: {}, "another-builds-task": {}}
    build_once, calls = _builds([NOT_RUN], root, complete_after=40)
    result, gave_up = build_until_complete(build_once, root, Scheduler([running] * 39), clock=clock, sleep=clock.sleep)
    assert gave_up is None and root.complete() and len(calls) == 40
    assert clock.now == 39 * POLL_S > IDLE_S  # waiting on a running task is not idleness


def test_a_dead_workers_task_handed_back_is_taken_over():
    root, clock = Root(), Clock()
    build_once, calls = _builds([NOT_RUN, NOT_RUN, SUCCESS], root, complete_after=3)
    result, gave_up = build_until_complete(build_once, root, Scheduler([{}, {}]), clock=clock, sleep=clock.sleep)
    assert result.status == SUCCESS and gave_up is None and len(calls) == 3


def test_luigi_saying_success_on_an_incomplete_build_is_not_the_end():
    """A kept-alive worker idle for REWALK_S returns, and Luigi calls a build whose rest other workers hold a
    success: the worker schedules again until the root is complete."""
    root, clock = Root(), Clock()
    build_once, calls = _builds([SUCCESS], root, complete_after=3)
    running = {Leaf(name="b").task_id: {}}
    result, gave_up = build_until_complete(build_once, root, Scheduler([running] * 2), clock=clock,
                                           sleep=clock.sleep)  # fmt: skip
    assert gave_up is None and root.complete() and len(calls) == 3


def test_a_failure_in_this_worker_is_reported_at_once():
    root, clock = Root(), Clock()
    build_once, calls = _builds([FAILED], root)
    result, gave_up = build_until_complete(build_once, root, Scheduler([]), clock=clock, sleep=clock.sleep)
    assert result.status == FAILED and gave_up is None and len(calls) == 1 and clock.now == 0


def test_nothing_running_nor_handed_back_for_idle_s_gives_up_saying_so():
    root, clock = Root(), Clock()
    build_once, calls = _builds([NOT_RUN], root)
    unrelated = {"a-task-of-another-graph": {}}
    result, gave_up = build_until_complete(build_once, root, Scheduler([unrelated] * 100), clock=clock,
                                           sleep=clock.sleep)  # fmt: skip
    assert result.status == NOT_RUN and "no worker ran its remaining tasks" in gave_up
    assert IDLE_S < clock.now <= IDLE_S + 2 * POLL_S


def test_a_scheduler_gone_since_the_build_began_is_said_in_one_line():
    class Gone:
        def task_list(self, **_):
            raise RPCError("Errors (3 attempts) when connecting to remote scheduler 'http://127.0.0.1:1'")

    root, clock = Root(), Clock()
    build_once, calls = _builds([NOT_RUN], root)
    result, gave_up = build_until_complete(build_once, root, Gone(), clock=clock, sleep=clock.sleep)
    assert result.status == NOT_RUN and gave_up.startswith("luigid could not be asked what runs (Errors")
    assert len(calls) == 1


@pytest.fixture(autouse=True)
def _fresh_roots():
    """Luigi hands back one instance per parameters: each test's Root starts incomplete."""
    luigi.Task.clear_instance_cache()
    yield
    luigi.Task.clear_instance_cache()


class Vanishing(luigi.Task):
    """Complete when the worker schedules it, gone when the task after it starts (luigid's stale DONE, locally)."""

    checks = 0

    def complete(self):
        Vanishing.checks += 1
        return Vanishing.checks == 1


class After(luigi.Task):
    def requires(self):
        return Vanishing()

    def complete(self):
        return False

    def run(self):
        pass


class Raises(luigi.Task):
    def complete(self):
        return False

    def run(self):
        raise RuntimeError("a bug")


def test_a_worker_tells_a_failed_task_from_one_whose_inputs_were_missing():
    Vanishing.checks = 0
    assert not luigi.build([After()], local_scheduler=True, worker_scheduler_factory=WORKERS)
    assert WORKERS.latest.stale and not WORKERS.latest.failed
    assert not luigi.build([Raises()], local_scheduler=True, worker_scheduler_factory=WORKERS)
    assert WORKERS.latest.failed and not WORKERS.latest.stale
