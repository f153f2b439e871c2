"""The house's layers where import-linter cannot say them (its floors: pyproject.toml's [tool.importlinter], checked
by `lint-imports`): a track is named only by its own package, task module and command-line module (the rest looks
it up in tracks.registry), and the graph loads a track's tasks only where a runs file names the track."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from argrank.tracks.registry import track_names
from workflows.cli import commands

REPO = Path(__file__).resolve().parents[2]
TRACKS = ("args", "comparative", "images", "perspective")
# A comparison with a track's name: `x == "images"`, `"images" != x`, `x in ("args", …)`.
NAME = "|".join(TRACKS)
COMPARISON = re.compile(rf"""(==|!=|\bin)\s*[(\[{{]?\s*["']({NAME})["']|["']({NAME})["']\s*(==|!=)""")
TRACK_IMPORT = re.compile(rf"\b(?:argrank|tasks|workflows)\.tracks\.({NAME})\b")


def sources() -> list[Path]:
    return sorted(p for folder in ("argrank", "tasks", "workflows") for p in (REPO / folder).rglob("*.py"))


def owner(path: Path) -> str | None:
    """The track whose package, task module or command-line module (or package) `path` is, if any."""
    parts = path.relative_to(REPO).parts
    if parts[:2] == ("argrank", "tracks") and len(parts) > 3:
        return parts[2]
    if parts[:2] == ("tasks", "tracks") and len(parts) == 3:
        return Path(parts[2]).stem
    if parts[:2] == ("workflows", "tracks") and len(parts) >= 3:
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


def test_the_graph_loads_a_tracks_tasks_only_where_the_runs_file_names_it(tmp_path):
    """Tracks are registered, never imported by name: the graph's import registers no track's own tasks, and
    building one track's graph loads that track's task module alone."""
    tracks = "sorted(m for m in sys.modules if m.startswith('tasks.tracks.'))"
    done = _build_args_graph(tmp_path, before=f"print('IMPORTED', {tracks})", after=f"print('BUILT', {tracks})")
    assert "IMPORTED []\nBUILT ['tasks.tracks.args']\n" in done.stdout, (done.stdout[-500:], done.stderr[-2000:])


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


def test_the_evaluation_commands_start_without_luigi_or_the_graph():
    """Every command but those that build the graph (run, nightly, tira) shows its --help, in a process of its own,
    without loading Luigi, a task module or the graph (pyproject.toml's forbidden contract says it of the imports,
    this of what the start-up loads): the package loads the graph only where Luigi is loaded."""
    evaluating = [name for name in commands() if name not in ("run", "nightly", "tira")]
    script = (
        "import contextlib, io, sys\nfrom workflows.cli import main\n"
        "for command in sys.argv[1:]:\n"
        "    with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
        "        main([command, '--help'])\n"
        "graph = ('luigi', 'tasks', 'workflows.graph', 'workflows.run', 'workflows.setup')\n"
        "print('LOADED', sorted(m for m in sys.modules if m in graph or m.startswith(('luigi.', 'tasks.'))))"
    )
    done = subprocess.run([sys.executable, "-c", script, *evaluating], cwd=REPO, capture_output=True, text=True,
                          check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert {"compare", "evaluate", "fuse", "validate", "report"} <= set(evaluating)
    assert done.stdout.strip() == "LOADED []"
