"""The graph under Luigi's central scheduler: `luigid` on a loopback port, two workers, the same submission as
a `--local-scheduler` run. This is how the graph spreads over machines (docs/scale.md, "Running on many machines")."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from graph import REPO, copy_project, luigi_command

TRACKS = ("args", "comparative")
SHARDS = 2
START_TIMEOUT_S = 30


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


@pytest.fixture()
def luigid(tmp_path):
    """A central scheduler of our own on a free loopback port, stopped (and its state discarded) afterwards."""
    port = _free_port()
    state = tmp_path / "luigid"
    state.mkdir()
    command = [
        str(Path(sys.executable).with_name("luigid")),
        "--address", "127.0.0.1", "--port", str(port),
        "--state-path", str(state / "state.pickle"), "--logdir", str(state),
    ]  # fmt: skip
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_until_listening(port, server)
        yield port
    finally:
        server.terminate()
        server.wait(timeout=10)


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
