"""The graph under Luigi's central scheduler: `luigid` on a loopback port, two workers, the same submission as
a `--local-scheduler` run; two worker processes both exit 0 on a complete build, and when one is killed mid-stage
the other finishes its task within two minutes. This is how the graph spreads over machines (docs/scale.md,
"Running on many machines")."""

from __future__ import annotations

import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from centraltoy import Later
from graph import REPO, copy_project, luigi_command
from luigi.rpc import RemoteScheduler

from argrank.core.atomic import PAUSE
from workflows.central import REWALK_S

TRACKS = ("args", "comparative")
SHARDS = 2
START_TIMEOUT_S = 30
TAKE_OVER_S = 120  # a dead worker's task runs on another within this (luigi.cfg's [scheduler] settings)
FAILS_WITHIN_S = 180  # a cold build of the args track takes well under a minute here
LEFTOVER = re.compile(r"^\..+\.\d+\.[^.]+\.tmp$")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_until_listening(port: int, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise AssertionError(f"luigid exited with status {server.returncode} before listening")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise AssertionError(f"luigid did not listen on 127.0.0.1:{port} within {START_TIMEOUT_S} s")


def _start_luigid(state: Path, **env: str):
    """A central scheduler of our own on a free loopback port, stopped (and its state discarded) afterwards."""
    port = _free_port()
    state.mkdir()
    command = [
        str(Path(sys.executable).with_name("luigid")),
        "--address", "127.0.0.1", "--port", str(port),
        "--state-path", str(state / "state.pickle"), "--logdir", str(state),
    ]  # fmt: skip
    # Started in the checkout, as docs/scale.md says, so it reads luigi.cfg's [scheduler] settings.
    server = subprocess.Popen(command, cwd=REPO, env={**os.environ, **env}, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        _wait_until_listening(port, server)
        yield port
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.fixture()
def luigid(tmp_path):
    yield from _start_luigid(tmp_path / "luigid")


# luigid giving a dead worker up after 8 s, and handing a failed task back 1 s later, to keep the tests short.
QUICK_SCHEDULER = "[scheduler]\nworker_disconnect_delay = 8\nretry_delay = 1\n"


@pytest.fixture()
def quick_luigid(tmp_path):
    """A luigid set up as QUICK_SCHEDULER says; its port."""
    config = tmp_path / "scheduler.cfg"
    config.write_text(QUICK_SCHEDULER, encoding="utf-8")
    yield from _start_luigid(tmp_path / "luigid", LUIGI_CONFIG_PATH=str(config))


def _run(command: list[str]) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    result = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "This progress looks :)" in result.stderr, result.stderr[-3000:]


def _submission(outputs: Path) -> dict[str, bytes]:
    folder = outputs / "submission"
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_two_workers_under_luigid_write_the_local_schedulers_submission(tmp_path, luigid):
    runs_file, _ = copy_project(tmp_path, *TRACKS)
    config = yaml.safe_load(runs_file.read_text())
    for track in TRACKS:
        config[track]["shards"] = SHARDS  # shards are independent tasks, so two workers share them
    runs_file.write_text(yaml.safe_dump(config), encoding="utf-8")

    local = tmp_path / "outputs-local"
    _run(luigi_command(runs_file, local))
    central = tmp_path / "outputs-central"
    command = [a for a in luigi_command(runs_file, central) if a != "--local-scheduler"]
    _run([*command, "--scheduler-host", "127.0.0.1", "--scheduler-port", str(luigid), "--workers", "2"])

    expected = _submission(local)
    assert any(name.endswith(".txt") for name in expected)
    assert _submission(central) == expected
    for track in TRACKS:
        shards = sorted((central / "cache" / track / "index").iterdir())
        assert len([p for p in shards if not p.name.startswith(".")]) == SHARDS


def _worker(runs_file: Path, outputs: Path, port: int, **env: str) -> subprocess.Popen:
    """`argrank run` as one worker of the build under luigid, in a process group of its own."""
    command = [sys.executable, "-m", "workflows.cli", "run", "--runs-file", str(runs_file), "--outputs", str(outputs),
               "--scheduler-host", "127.0.0.1", "--scheduler-port", str(port)]  # fmt: skip
    return subprocess.Popen(command, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO), **env},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)  # fmt: skip


def _published(outputs: Path) -> dict[str, bytes]:
    roots = [outputs / "experiments", outputs / "submission"]
    return {str(p.relative_to(outputs)): p.read_bytes() for root in roots for p in sorted(root.rglob("*"))
            if p.is_file() and not p.name.startswith(".")}  # fmt: skip


def test_every_worker_of_a_complete_build_exits_0(tmp_path, luigid):
    """Two worker processes share the build: whichever ran the root, both exit 0 and print the scores."""
    runs_file, _ = copy_project(tmp_path, "args")
    local = tmp_path / "outputs-local"
    _run(luigi_command(runs_file, local))
    central = tmp_path / "outputs-central"
    workers = [_worker(runs_file, central, luigid) for _ in range(2)]
    for worker in workers:
        out, err = worker.communicate(timeout=600)
        assert worker.returncode == 0, err[-3000:]
        assert "== args:" in out
    assert _published(central) == _published(local)


def test_a_worker_killed_mid_stage_is_replaced_within_two_minutes(tmp_path, luigid):
    """Worker A is killed while it builds the index; worker B, waiting for that index, takes the task over once
    the scheduler has given A up, and finishes the build as a local run does."""
    runs_file, _ = copy_project(tmp_path, "args")
    local = tmp_path / "outputs-local"
    _run(luigi_command(runs_file, local))
    central = tmp_path / "outputs-central"
    index = central / "cache" / "args" / "index"
    first = _worker(runs_file, central, luigid, **{PAUSE: "/cache/args/index/", "ARGRANK_PAUSE_SECONDS": "600"})
    deadline = time.monotonic() + 300
    while not (index.is_dir() and any(LEFTOVER.match(p.name) for p in index.iterdir())):
        assert first.poll() is None and time.monotonic() < deadline, "worker A never reached the index stage"
        time.sleep(0.2)
    second = _worker(runs_file, central, luigid)
    time.sleep(3)  # B schedules the graph and waits for A's index
    os.killpg(first.pid, signal.SIGKILL)
    first.communicate()
    killed_at = time.time()
    out, err = second.communicate(timeout=600)
    assert second.returncode == 0, err[-3000:]
    index_built = min(p.stat().st_mtime for p in index.iterdir() if not p.name.startswith("."))
    assert index_built - killed_at < TAKE_OVER_S, f"B built the index {index_built - killed_at:.0f} s after the kill"
    assert _published(central) == _published(local)
    assert not [p for p in central.rglob("*") if LEFTOVER.match(p.name)]


def test_a_stage_that_fails_under_luigid_ends_the_build(tmp_path, luigid):
    """luigid hands a failed task back after `retry_delay` and a kept-alive worker took it again, forever; now the
    worker stops asking for work and the build fails naming the step, as a local run does."""
    runs_file, _ = copy_project(tmp_path, "args")
    (runs_file.parent / "plug.py").write_text("def broken(candidates):\n    raise RuntimeError('my bug')\n")
    config = yaml.safe_load(runs_file.read_text())
    config["args"]["runs"] = {"mine": {"method": "bm25", "rerank": [{"use": "plug:broken", "depth": 10}]}}
    runs_file.write_text(yaml.safe_dump(config), encoding="utf-8")
    worker = _worker(runs_file, tmp_path / "outputs", luigid)
    _, err = _finished(worker, FAILS_WITHIN_S, tmp_path / "outputs")
    assert worker.returncode != 0
    assert "plug:broken" in err and "RuntimeError: my bug" in err, err[-3000:]


def test_a_task_a_killed_worker_finished_but_never_reported_is_taken_as_done(tmp_path, quick_luigid):
    """Worker A writes `Made` and is killed before it tells luigid: luigid hands `Made` back, but B found it complete
    and so is not among those luigid lets run it, and B waited for it for ever. Now B schedules the graph again
    after REWALK_S idle seconds, luigid learns `Made` is done, and B builds `Later`."""
    port = quick_luigid
    folder, hold = tmp_path / "toy", tmp_path / "held"
    folder.mkdir()
    first = _toy_worker(folder, port, CENTRALTOY_HOLD=str(hold))
    deadline = time.monotonic() + START_TIMEOUT_S
    while not hold.exists():
        assert first.poll() is None and time.monotonic() < deadline, "worker A never wrote Made"
        time.sleep(0.1)
    os.killpg(first.pid, signal.SIGKILL)
    first.communicate()
    second = _toy_worker(folder, port)
    _, err = _finished(second, REWALK_S + TAKE_OVER_S, folder)
    assert second.returncode == 0, err[-3000:]
    assert (folder / "later").read_text() == "later\n"


def test_a_task_luigid_hands_out_before_its_inputs_exist_is_scheduled_again(tmp_path, quick_luigid):
    """The same build, run again into an empty folder within seconds: luigid ignores the claim that `Made` is
    pending so soon after it was done, yet hands out `Later`, which then finds `Made` missing. That failed the build
    (and, before, was retried for ever); now the worker schedules again until luigid takes the claim, and builds
    both."""
    port = quick_luigid
    first, again = tmp_path / "first", tmp_path / "again"
    first.mkdir()
    again.mkdir()
    _, err = _finished(_toy_worker(first, port), TAKE_OVER_S, first)
    assert (first / "later").is_file(), err[-3000:]
    # `Later` not done in luigid while `Made` just was: as when the last build's root was left to another worker
    scheduler = RemoteScheduler(f"http://127.0.0.1:{port}/")
    scheduler.add_task(worker="the-test", task_id=Later().task_id, status="FAILED", runnable=False)
    second = _toy_worker(again, port)
    _, err = _finished(second, TAKE_OVER_S, again)
    assert second.returncode == 0, err[-3000:]
    assert (again / "made").is_file() and (again / "later").is_file()


def _toy_worker(folder: Path, port: int, **env: str) -> subprocess.Popen:
    """One worker of the toy build (tests/integration/centraltoy) into `folder`, in a process group of its own."""
    path = os.pathsep.join([str(REPO), str(Path(__file__).parent)])
    return subprocess.Popen([sys.executable, "-m", "centraltoy", str(folder), str(port)], cwd=REPO,
                            env={**os.environ, "PYTHONPATH": path, **env}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)  # fmt: skip


def _finished(worker: subprocess.Popen, within_s: float, outputs: Path) -> tuple[str, str]:
    """The worker's output once it exits; a failure with the end of its Luigi log where it still runs `within_s`
    seconds on (the worker is then killed)."""
    try:
        return worker.communicate(timeout=within_s)
    except subprocess.TimeoutExpired:
        os.killpg(worker.pid, signal.SIGKILL)
        _, err = worker.communicate()
        logs = sorted((outputs / "logs").glob("*.log")) if (outputs / "logs").is_dir() else []
        tail = "".join(log.read_text(encoding="utf-8", errors="replace")[-4000:] for log in logs[-1:])
        raise AssertionError(f"the worker still ran {within_s:.0f} s on; its stderr:\n{err[-2000:]}\nits log's end:"
                             f"\n{tail}") from None  # fmt: skip


KILLS = 10
BUILD_S = 15  # about what two workers take for the args track's cold build here: the kills land within it


def test_workers_finish_the_build_wherever_one_is_killed(tmp_path, quick_luigid):
    """One long-running luigid serves KILLS builds of the same runs file, each into an empty output folder, and in
    each one of two workers is killed at a random moment (seeded): the survivor finishes the build, exits 0 and
    publishes what a local run does. luigid gives a dead worker up sooner here than luigi.cfg says (8 s, retried
    1 s later) to keep the test short; the two minutes under luigi.cfg's own settings are the test above's."""
    runs_file, _ = copy_project(tmp_path, "args")
    local = tmp_path / "outputs-local"
    _run(luigi_command(runs_file, local))
    expected = _published(local)
    moments = random.Random(61)
    for kill in range(KILLS):
        outputs = tmp_path / f"outputs-{kill}"
        workers = [_worker(runs_file, outputs, quick_luigid) for _ in range(2)]
        at = moments.uniform(0, BUILD_S)
        victim, survivor = moments.sample(workers, 2)
        time.sleep(at)
        os.killpg(victim.pid, signal.SIGKILL)
        victim.communicate()
        killed_at = time.monotonic()
        out, err = _finished(survivor, 600, outputs)
        took = time.monotonic() - killed_at
        assert survivor.returncode == 0, f"kill {kill} at {at:.1f} s: {err[-3000:]}"
        assert took < TAKE_OVER_S, f"kill {kill} at {at:.1f} s: the survivor took {took:.0f} s"
        assert "== args:" in out
        assert _published(outputs) == expected, f"kill {kill} at {at:.1f} s"
        assert not [p for p in outputs.rglob("*") if LEFTOVER.match(p.name)]
