"""Shared fixtures and the `slow` mark. Real Touché data lives in ../shared/data; under CI it must be there.

tests/unit test the library and the tasks as functions; tests/integration run the graph, the commands as
processes, luigid and the benchmark, and are all marked slow, so `pytest -m "not slow"` is the quick loop.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from argrank.kernels import ahead_of_time, bm25_numba, bm25_numpy

REPO = Path(__file__).resolve().parent.parent
INTEGRATION = Path(__file__).resolve().parent / "integration"
SHARED_DATA = REPO.parent / "shared" / "data"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The real data folder; fails under CI=true when absent, skips only on a developer's machine without it."""
    if not SHARED_DATA.is_dir():
        message = f"real Touché data not found at {SHARED_DATA}"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return SHARED_DATA


@pytest.fixture(scope="session")
def organizers_runs(shared_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shared 2022 Task 2 runs laid out as the organizers publish a year's runs: `runs/TEAM/output/runN.txt`
    (so run1 and run3 repeat across teams), a README beside the team folders and a team's notes beside its
    output folder. Read-only for the tests: copy it to change it."""
    runs = tmp_path_factory.mktemp("organizers") / "runs"
    for path in sorted((shared_data / "touche-task2" / "runs-2022").glob("*.txt")):
        team, _, number = path.stem.rpartition("-")
        (runs / team / "output").mkdir(parents=True, exist_ok=True)
        shutil.copy(path, runs / team / "output" / f"{number}.txt")
    (runs / "README.md").write_text("# Touché 2022, Task 2: the participants' runs\n\nOne folder per team.\n")
    (runs / "Grimjack" / "notes.txt").write_text("Run 3 re-ranks run 1 with a stance model.\n")
    return runs


@pytest.fixture(scope="session")
def prebuilt_kernels(tmp_path_factory: pytest.TempPathFactory) -> ahead_of_time.Prebuilt:
    """The kernels as `make kernels` built them ahead of time; built here where it has not."""
    kernels = ahead_of_time.load()
    if kernels is None:
        directory = tmp_path_factory.mktemp("prebuilt")
        ahead_of_time.build(directory)
        kernels = ahead_of_time.load(directory)
    assert kernels is not None
    return kernels


@pytest.fixture(params=["numba", "numpy", "prebuilt"])
def kernels(request: pytest.FixtureRequest):
    """Each build of BM25's kernels in turn: numba's, numpy's, the ahead-of-time one."""
    if request.param == "prebuilt":
        return request.getfixturevalue("prebuilt_kernels")
    return {"numba": bm25_numba, "numpy": bm25_numpy}[request.param]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if INTEGRATION in item.path.parents:
            item.add_marker(pytest.mark.slow)
