"""Fault injection: kills inside every stage and publication, damaged cache files, a read-only and a full output
folder, inputs changed under a running stage. After each, the next run succeeds and publishes exactly what a
clean run publishes, and no temporary entry is left behind: nothing lost, nothing wrong."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from graph import REPO, build, copy_project, luigi_command

from argrank.core.atomic import PAUSE
from argrank.core.integrity import CHECKSUM, _record_text
from argrank.core.names import MAX_LENGTH

STAGES = ("ingest", "tokens", "index", "queries", "rank", "run", "evaluation")  # the args track's cached stages, in order
LEFTOVER = re.compile(r"^\..+\.\d+\.[^.]+\.tmp$")
# Where a kill can land: each cached stage of the args track, the two publications and the report.
KILL_POINTS = [
    *(f"/cache/args/{stage}/" for stage in ("ingest", "tokens", "index", "queries", "rank", "run", "evaluation")),
    "/experiments/runs/args",
    "/submission/args",
    "/experiments/runs/report",
]


def published(outputs: Path) -> dict[str, bytes]:
    """Every published file (experiments and submission) by its path under `outputs`; not the hidden ones (the
    runs file a folder belongs to, its lock), which say where the project is."""
    roots = [outputs / "experiments", outputs / "submission"]
    return {str(p.relative_to(outputs)): p.read_bytes() for root in roots for p in root.rglob("*")
            if p.is_file() and not p.name.startswith(".")}  # fmt: skip


def leftovers(outputs: Path) -> list[Path]:
    """Temporary entries under `outputs`. The run being watched creates and renames them while this walks, so a
    folder that vanishes mid-walk is skipped (os.walk ignores it), where Path.rglob raised FileNotFoundError."""
    return [Path(root, name) for root, folders, files in os.walk(outputs) for name in folders + files
            if LEFTOVER.match(name)]  # fmt: skip


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> dict[str, bytes]:
    """What a clean run of the args track publishes."""
    runs_file, outputs = copy_project(tmp_path_factory.mktemp("clean"), "args")
    build(runs_file, outputs)
    return published(outputs)


@pytest.mark.parametrize("point", KILL_POINTS)
def test_a_kill_anywhere_loses_nothing_and_the_next_run_finishes_the_same(tmp_path, reference, point):
    runs_file, outputs = copy_project(tmp_path, "args")
    env = {**os.environ, PAUSE: point, "ARGRANK_PAUSE_SECONDS": "60"}
    child = subprocess.Popen(
        luigi_command(runs_file, outputs), cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 120
    while not any(_paused_at(point, p) for p in leftovers(outputs)):
        assert child.poll() is None and time.monotonic() < deadline, f"the run never paused at {point}"
        time.sleep(0.1)
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert leftovers(outputs), "the kill left its temporary entry (the next run must clean it)"
    build(runs_file, outputs)
    assert published(outputs) == reference
    assert leftovers(outputs) == []


def _paused_at(point: str, leftover: Path) -> bool:
    """Whether `leftover` is the temporary entry of a write at `point` (a stage's folder, or a published one)."""
    if point.endswith("/"):
        return f"{leftover.parent}/".endswith(point)
    parent, name = point.rsplit("/", 1)
    return str(leftover.parent).endswith(parent) and leftover.name.startswith(f".{name}.")


def _damage(path: Path, how: str) -> None:
    """Cut the file in half, flip 64 of its bytes in the middle, or overwrite it with as many bytes of garbage."""
    data = path.read_bytes()
    if how == "truncated":
        damaged = data[: len(data) // 2]
    elif how == "flipped":
        middle = max(0, len(data) // 2 - 32)
        damaged = data[:middle] + bytes(b ^ 0xFF for b in data[middle : middle + 64]) + data[middle + 64 :]
    else:
        damaged = bytes((i * 167 + 13) % 256 for i in range(len(data)))
    assert len(damaged) == len(data) or how == "truncated"
    path.write_bytes(damaged)


@pytest.mark.parametrize(
    ("stage", "pattern", "how"),
    [(stage, pattern, how) for stage, pattern, same_size in [
        ("ingest", "*.parquet", "garbage"), ("tokens", "*.parquet", "flipped"), ("index", "*/data.npy", "flipped"),
        ("index", "*/indices.npy", "garbage"), ("queries", "*.parquet", "garbage"), ("rank", "*.arrow", "flipped"),
        ("run", "*.txt", "flipped"), ("evaluation", "*.json", "garbage")]
     for how in ("truncated", same_size)] + [
        ("index", "*/data.npy", "flipped, time set back"), ("run", "*.txt", "garbage, time set back"),
        ("evaluation", "*.json", "flipped, time set back")],
)  # fmt: skip
def test_a_damaged_cache_file_is_found_and_its_stage_done_again(tmp_path, reference, caplog, stage, pattern, how):
    """A damaged file is found when a later stage needs it, by its size or, at the same size, by its content (its
    modification time set back too: the ctime tells): here everything after it is gone, so all of it is."""
    runs_file, outputs = copy_project(tmp_path, "args")
    build(runs_file, outputs)
    damaged = sorted(p for p in (outputs / "cache" / "args" / stage).glob(pattern) if not p.name.startswith("."))[0]
    written = damaged.stat()
    _damage(damaged, how.split(",")[0])
    if how.endswith("time set back"):
        os.utime(damaged, ns=(written.st_atime_ns, written.st_mtime_ns))
    later = STAGES[STAGES.index(stage) + 1 :]
    for folder in [
        *(outputs / "cache" / "args" / name for name in later),
        outputs / "experiments",
        outputs / "submission",
    ]:
        shutil.rmtree(folder, ignore_errors=True)
    build(runs_file, outputs)
    assert any("damaged cache file" in message and str(damaged) in message for message in caplog.messages)
    assert published(outputs) == reference


def test_an_input_edited_after_scheduling_is_refused_and_nothing_is_cached_for_it(tmp_path):
    """The qrels change between the moment Luigi schedules the evaluation and the moment it runs."""
    from tasks.publish import run_tasks

    runs_file, outputs = copy_project(tmp_path, "args")
    build(runs_file, outputs)
    from argrank.config import load_config

    qrels = tmp_path / "data" / "args" / "qrels-relevance.qrels"
    config = yaml.safe_load(runs_file.read_text())
    config["args"]["runs"]["argrank-bm25"]["params"]["k1"] = 0.7  # a new evaluation to run
    runs_file.write_text(yaml.safe_dump(config))
    evaluation = run_tasks(load_config(runs_file)["args"])["argrank-bm25"]["evaluation"]
    evaluation.signature  # scheduled with the qrels as they are
    original = qrels.read_text()
    qrels.write_text(original.replace(" 2\n", " 0\n"))
    from argrank.core.errors import InputError

    with pytest.raises(InputError, match="changed before it ran; its result is not kept"):
        evaluation.run()
    assert not evaluation.output_path.exists()
    qrels.write_text(original)


def _mount(*args: str) -> bool:
    return subprocess.run(["mount", *args], capture_output=True).returncode == 0


def _command(kind: str, runs_file: Path, outputs: Path) -> list[str]:
    """The luigi command, or `argrank run` (which keeps Luigi's log in the output folder too)."""
    if kind == "luigi":
        return luigi_command(runs_file, outputs)
    return [sys.executable, "-m", "workflows.cli", "run", "--runs-file", str(runs_file), "--outputs", str(outputs)]


@pytest.mark.parametrize("kind", ["luigi", "argrank run"])
def test_a_read_only_output_folder_fails_with_one_clear_line_and_loses_nothing(tmp_path, reference, kind):
    runs_file, outputs = copy_project(tmp_path, "args")
    build(runs_file, outputs)
    (outputs / "logs").mkdir(exist_ok=True)  # as an earlier `argrank run` leaves it: once an OSError traceback
    if not (_mount("--bind", str(outputs), str(outputs)) and _mount("-o", "remount,bind,ro", str(outputs))):
        pytest.skip("cannot mount read-only here (needs root and mount rights)")
    try:
        config = yaml.safe_load(runs_file.read_text())
        config["args"]["runs"]["argrank-bm25"]["params"]["k1"] = 0.7
        runs_file.write_text(yaml.safe_dump(config))  # the same runs file, changed: it publishes there
        done = subprocess.run(_command(kind, runs_file, outputs), cwd=REPO, capture_output=True, text=True)
        assert done.returncode != 0
        assert "Read-only file system" in done.stderr and "Traceback" not in done.stderr
    finally:
        subprocess.run(["umount", str(outputs)], check=True)
    assert published(outputs) == reference  # the first run's publication is untouched


@pytest.mark.parametrize("kind", ["luigi", "argrank run"])
def test_a_full_disk_fails_cleanly_and_the_run_resumes_when_there_is_room(tmp_path, reference, kind):
    runs_file, _ = copy_project(tmp_path, "args")
    outputs = tmp_path / "small"
    outputs.mkdir()
    if not _mount("-t", "tmpfs", "-o", "size=256k", "tmpfs", str(outputs)):
        pytest.skip("cannot mount a small tmpfs here (needs root and mount rights)")
    try:
        done = subprocess.run(_command(kind, runs_file, outputs), cwd=REPO, capture_output=True, text=True)
        assert done.returncode != 0 and "No space left on device" in done.stderr and "Traceback" not in done.stderr
        assert "Logging error" not in done.stderr  # Luigi's log, in the same full folder, gives up in one line
        assert _mount("-o", "remount,size=256m", str(outputs))
        build(runs_file, outputs)
        assert published(outputs) == reference and leftovers(outputs) == []
    finally:
        subprocess.run(["umount", str(outputs)], check=True)


def test_a_tampered_manifest_cannot_delete_anything(tmp_path, reference):
    runs_file, outputs = copy_project(tmp_path, "args")
    build(runs_file, outputs)
    precious = tmp_path / "precious.txt"
    precious.write_text("keep me")
    manifest = outputs / "submission" / "args" / "manifest.json"
    manifest.write_text('{"signature": "x", "files": ["../../../precious.txt", "/etc/hostname"]}')
    (outputs / "experiments" / "runs" / "report" / "manifest.json").unlink()  # so the graph looks down to it
    build(runs_file, outputs)
    assert precious.read_text() == "keep me" and published(outputs) == reference
    shutil.rmtree(outputs)


def test_names_of_the_longest_length_are_published(tmp_path):
    """A run tag and a qrels name of the longest length the name rule allows, in an experiment of that length: the
    longest file published (`<tag>.<qrels>.per-topic.csv`) and its temporary name fit a file name's 255 bytes."""
    runs_file, outputs = copy_project(tmp_path, "args")
    config = yaml.safe_load(runs_file.read_text())
    tag, qrels, experiment = ("t" * MAX_LENGTH, "q" * MAX_LENGTH, "e" * MAX_LENGTH)
    config["args"]["runs"] = {tag: next(iter(config["args"]["runs"].values()))}
    config["args"]["qrels"] = {qrels: next(iter(config["args"]["qrels"].values()))}
    config.update(experiment=experiment, submission=False)
    runs_file.write_text(yaml.safe_dump(config), encoding="utf-8")
    build(runs_file, outputs)
    folder = outputs / "experiments" / experiment / "args"
    assert (folder / f"{tag}.txt").is_file() and (folder / f"{tag}.{qrels}.per-topic.csv").is_file()


def test_a_track_folder_lost_after_its_report_is_published_again(tmp_path, reference):
    """Removed by hand, or lost to a kill between a publication's two renames: the report still stood for it, so
    the experiment counted as complete and the next run published nothing."""
    runs_file, outputs = copy_project(tmp_path, "args")
    build(runs_file, outputs)
    shutil.rmtree(outputs / "experiments" / "runs" / "args")
    (outputs / "submission" / "args" / "evaluation.json").write_text("{")  # truncated in place
    build(runs_file, outputs)
    assert published(outputs) == reference


def test_what_killed_writers_left_is_swept_from_every_folder_at_start(tmp_path):
    """Entries of dead writers in folders whose stage does not run again outlived every run, and were printed as
    tracks (`== .report.17558.g26l7mo1.tmp`)."""
    runs_file, outputs = copy_project(tmp_path, "args")
    build(runs_file, outputs)
    dead = 2**22 + 1  # above Linux's default pid_max: no such process
    planted = [
        outputs / "experiments" / "runs" / f".report.{dead}.g26l7mo1.tmp",
        outputs / "submission" / f".args.{dead}.abcdefgh.tmp",
        outputs / "cache" / "args" / "ingest" / f".ingest-0.parquet.{dead}.x1y2z3.tmp",
        outputs / f".history.jsonl.{dead}.q9w8e7.tmp",
    ]
    for path in planted:
        path.mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "workflows.cli", "run", "--runs-file", str(runs_file), "--outputs", str(outputs)],
        cwd=REPO, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert not any(path.exists() for path in planted) and leftovers(outputs) == []
    assert ".tmp" not in done.stdout and "== args:" in done.stdout


def test_a_second_runs_file_naming_the_same_experiment_is_refused_in_one_line(tmp_path):
    runs_file, outputs = copy_project(tmp_path, "args")
    build(runs_file, outputs)
    other = tmp_path / "other.yaml"
    config = yaml.safe_load(runs_file.read_text())
    config.update(experiment="runs", submission=False)
    other.write_text(yaml.safe_dump(config), encoding="utf-8")
    done = subprocess.run(luigi_command(other, outputs), cwd=REPO, capture_output=True, text=True, timeout=600)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert f"argrank: error: {other}: experiment 'runs' ({outputs / 'experiments' / 'runs'}) is published by " \
           f"{runs_file}" in done.stderr  # fmt: skip


@pytest.mark.parametrize(("stage", "pattern"), [("tokens", "*.parquet"), ("ingest", "*.parquet")])
def test_a_damaged_parquet_page_that_keeps_its_times_is_found_reading_it(tmp_path, reference, stage, pattern):
    """Damage that leaves a file's size and times as recorded (a disk's fault: here the record is made to match the
    damaged file) passes the completeness check; the page checksums find it when the next stage reads the file: one
    line, the file removed, and the next run heals."""
    runs_file, outputs = copy_project(tmp_path, "args")
    build(runs_file, outputs)
    damaged = sorted(p for p in (outputs / "cache" / "args" / stage).glob(pattern) if not p.name.startswith("."))[0]
    _damage(damaged, "flipped")
    record = damaged.with_name(f".{damaged.name}.written.json")
    entries = json.loads(record.read_text())
    entries[damaged.name].update(mtime_ns=damaged.stat().st_mtime_ns, ctime_ns=damaged.stat().st_ctime_ns)
    del entries[CHECKSUM]
    record.write_text(_record_text(entries))  # a sound record, made to match
    later = STAGES[STAGES.index(stage) + 1 :]
    for folder in [*(outputs / "cache" / "args" / name for name in later), outputs / "experiments",
                   outputs / "submission"]:  # fmt: skip
        shutil.rmtree(folder, ignore_errors=True)
    failed = subprocess.run(luigi_command(runs_file, outputs), cwd=REPO, capture_output=True, text=True)
    assert failed.returncode != 0 and not damaged.exists()
    assert f"{damaged}: damaged cache file, found reading it" in failed.stderr + failed.stdout
    assert "Traceback" not in failed.stderr + failed.stdout
    build(runs_file, outputs)
    assert published(outputs) == reference


def test_a_published_file_overwritten_to_the_same_size_is_published_again(tmp_path, reference):
    runs_file, outputs = copy_project(tmp_path, "args")
    build(runs_file, outputs)
    run_file = sorted((outputs / "submission" / "args").glob("*.txt"))[0]
    _damage(run_file, "garbage")
    build(runs_file, outputs)
    assert published(outputs) == reference
