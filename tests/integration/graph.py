"""Running the Luigi graph from tests: on a copy of the embedded data, and what it left in the cache."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import luigi
import yaml

from argrank.formats.runfile import read_run
from workflows import FullSubmission
from workflows.setup import fresh_build

REPO = Path(__file__).resolve().parents[2]


def build(runs_file: Path, output_dir: Path) -> None:
    luigi.configuration.get_config().set("argrank", "output_dir", str(output_dir))
    fresh_build()
    result = luigi.build(
        [FullSubmission(runs_file=str(runs_file))], local_scheduler=True, detailed_summary=True, log_level="WARNING"
    )
    assert result.status == luigi.LuigiStatusCode.SUCCESS, result.summary_text


def cache_state(output_dir: Path) -> dict[str, int]:
    """Every finished cache target (temporary files start with a dot) and its modification time."""
    root = output_dir / "cache"
    return {
        str(p.relative_to(root)): p.stat().st_mtime_ns
        for p in root.rglob("*")
        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(root).parts)
    }


def stages_of(paths) -> set[str]:
    return {Path(p).parts[1] for p in paths}


def copy_project(tmp_path: Path, *tracks: str) -> tuple[Path, Path]:
    """A copy of the embedded data and of runs.yaml (its paths are relative to it) keeping only `tracks`."""
    shutil.copytree(REPO / "data", tmp_path / "data")
    config = yaml.safe_load((REPO / "runs.yaml").read_text())
    runs_file = tmp_path / "runs.yaml"
    kept = {"submission": True, **{track: config[track] for track in tracks}}  # published to outputs/submission too
    runs_file.write_text(yaml.safe_dump(kept), encoding="utf-8")
    return runs_file, tmp_path / "outputs"


def luigi_command(runs_file: Path, outputs: Path) -> list[str]:
    """The graph as users start it, in a process of its own (for exit codes, stderr and kills)."""
    return [
        sys.executable, "-m", "luigi", "--module", "workflows", "FullSubmission", "--local-scheduler",
        "--runs-file", str(runs_file), "--argrank-output-dir", str(outputs),
    ]  # fmt: skip


def per_topic(path: Path) -> dict[str, list[str]]:
    """A run file's documents per topic, in file order."""
    documents: dict[str, list[str]] = {}
    for line in read_run(path):
        documents.setdefault(line.qid, []).append(line.doc)
    return documents
