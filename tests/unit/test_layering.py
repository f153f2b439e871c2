"""The house's layers, read from the source: the library imports no Luigi, a track is named only by its own package
and task module (the rest looks it up in tracks.registry), retrieval imports no track, and the commands that only
read files start without Luigi, the graph's tasks or the numeric libraries."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from argrank.tracks.registry import track_names

REPO = Path(__file__).resolve().parents[2]
TRACKS = ("args", "comparative", "images", "perspective")
# A comparison with a track's name: `x == "images"`, `"images" != x`, `x in ("args", …)`.
NAME = "|".join(TRACKS)
COMPARISON = re.compile(rf"""(==|!=|\bin)\s*[(\[{{]?\s*["']({NAME})["']|["']({NAME})["']\s*(==|!=)""")
TRACK_IMPORT = re.compile(rf"\bargrank\.tracks\.({NAME})\b")


def sources() -> list[Path]:
    return sorted(p for folder in ("argrank", "tasks", "workflows") for p in (REPO / folder).rglob("*.py"))


def owner(path: Path) -> str | None:
    """The track whose package or task module `path` is, if any."""
    parts = path.relative_to(REPO).parts
    if parts[:2] == ("argrank", "tracks") and len(parts) > 3:
        return parts[2]
    if parts[:2] == ("tasks", "tracks") and len(parts) == 3:
        return Path(parts[2]).stem
    return None


def test_the_registry_finds_our_four_tracks_in_name_order():
    assert track_names()[:4] == list(TRACKS)


def test_no_track_is_named_outside_its_package_and_task_module():
    offences = []
    for path in sources():
        mine = owner(path)
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            code = line.split("#", 1)[0]
            named = {*(m.group(2) or m.group(3) for m in COMPARISON.finditer(code)), *TRACK_IMPORT.findall(code)}
            offences += [f"{path.relative_to(REPO)}:{number}: {line.strip()}" for name in named if name != mine]
    assert not offences, "\n".join(offences)


def test_the_library_imports_no_luigi_and_retrieval_no_track():
    for path in sources():
        text = path.read_text(encoding="utf-8")
        relative = path.relative_to(REPO).as_posix()
        if relative.startswith("argrank/"):
            assert not re.search(r"^\s*(import|from) luigi\b", text, re.M), relative
        if relative.startswith("argrank/retrieval/"):
            assert "argrank.tracks" not in text, relative


@pytest.mark.parametrize(
    "command", ["compare --help", "validate --track comparative RUN", "evaluate --run RUN --qrels QRELS"]
)
def test_commands_that_read_files_start_without_the_graph(command, tmp_path):
    """What `argrank compare --help` (and evaluate, validate) import: no Luigi, no task module; for the help, not
    numpy either (it answers before anything is computed)."""
    qrels = REPO / "data" / "args" / "qrels-relevance.qrels"
    judged = [line.split() for line in qrels.read_text(encoding="utf-8").splitlines()[:20]]
    run = tmp_path / "run.txt"
    run.write_text("".join(f"{q} Q0 {d} {i} {20 - i} tag\n" for i, (q, _, d, _) in enumerate(judged, 1)), "utf-8")
    argv = command.replace("RUN", str(run)).replace("QRELS", str(qrels)).split()
    numeric = ("numpy", "scipy", "sklearn", "pyarrow") if "--help" in argv else ()
    heavy = ("luigi", "tasks", "workflows.graph", *numeric)
    script = (
        "import sys\nfrom workflows.cli import main\n"
        f"try:\n    code = main({argv!r})\nexcept SystemExit as exit:\n    code = exit.code\nprint('EXIT', code)\n"
        f"print('LOADED', sorted({{m.split('.')[0] if m.split('.')[0] != 'workflows' else m for m in sys.modules}}"
        f" & set({heavy!r})))"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, check=False)
    loaded = done.stdout.rsplit("LOADED ", 1)[-1].strip()
    assert "EXIT 0\n" in done.stdout, done.stderr[-2000:]
    assert loaded == "[]", (loaded, done.stderr[-2000:])


def test_the_graph_starts_without_spacy_numba_scipy_or_ir_measures():
    """Loading the graph and reading the runs file (every run, the one that re-ranks after a k1 change included)
    imports neither spaCy nor numba, scipy, scikit-learn or ir_measures, nor the image ingest's lxml and Pillow: an
    analyzer or a ranking loads the first two when it is built or scores, a stage that trains, evaluates or
    ingests the others. Each costs a start 0.01 to 0.8 CPU-seconds."""
    heavy = {"spacy", "numba", "scipy", "sklearn", "ir_measures", "lxml", "PIL"}
    loaded = f"sorted({{m.split('.')[0] for m in sys.modules}} & {heavy!r})"
    script = (
        "import sys, workflows.graph\nfrom argrank.config import load_experiment\n"
        f"load_experiment({str(REPO / 'runs.yaml')!r})\nprint('LOADED', {loaded})"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, check=False)
    assert done.stdout.strip().endswith("LOADED []"), (done.stdout[-500:], done.stderr[-2000:])


def test_the_graph_loads_a_tracks_tasks_only_where_the_runs_file_names_it(tmp_path):
    """Luigi's command line is built three times in a run, with every parameter of every task class then
    registered: the graph's import registers no track's own tasks, and building one track's graph loads that
    track's task module alone."""
    tracks = "sorted(m for m in sys.modules if m.startswith('tasks.tracks.'))"
    done = _build_args_graph(tmp_path, before=f"print('IMPORTED', {tracks})", after=f"print('BUILT', {tracks})")
    assert "IMPORTED []\nBUILT ['tasks.tracks.args']\n" in done.stdout, (done.stdout[-500:], done.stderr[-2000:])


def test_the_args_graph_is_built_without_pyarrow_compute(tmp_path):
    """pyarrow.compute's import costs a process some 0.03 CPU-seconds, a twentieth of the re-run after a change of
    k1: the graph, and the stages that rank and write a run, call Arrow's kernels by name (core/arrow_kernels.py)."""
    done = _build_args_graph(tmp_path, after="print('COMPUTE', 'pyarrow.compute' in sys.modules)")
    assert done.stdout.endswith("COMPUTE False\n"), (done.stdout[-500:], done.stderr[-2000:])


def _build_args_graph(tmp_path: Path, before: str = "", after: str = "") -> subprocess.CompletedProcess:
    """A new process that imports the graph and builds it for runs.yaml's args section: `before` runs after the
    import, `after` once every task of the graph is made."""
    section = (REPO / "runs.yaml").read_text(encoding="utf-8").split("\nargs:\n", 1)[1].split("\n\n", 1)[0]
    runs = tmp_path / "runs.yaml"
    runs.write_text("submission: false\nargs:\n" + section.replace("data/", f"{REPO / 'data'}/") + "\n", "utf-8")
    script = (
        f"import sys, luigi\nimport workflows.graph\n{before}\n"
        "luigi.configuration.get_config().set('argrank', 'output_dir', sys.argv[2])\n"
        "todo = [workflows.graph.FullSubmission(runs_file=sys.argv[1])]\n"
        f"while todo:\n    todo += luigi.task.flatten(todo.pop().requires())\n{after}"
    )
    command = [sys.executable, "-c", script, str(runs), str(tmp_path / "outputs")]
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False)
