"""The graph's process set-up: at exit the heap is frozen, so the interpreter's last collections skip it."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _exit_output(prepare: bool) -> str:
    """What a process prints at exit that holds a reference cycle with a finalizer, after prepare_process or not."""
    script = textwrap.dedent(f"""
        import gc
        from workflows.setup import prepare_process
        if {prepare}:
            prepare_process()
            prepare_process()  # again: one freeze at exit, not two
        class Cycle:
            def __del__(self):
                print("collected", flush=True)
        cycle = Cycle()
        cycle.itself = cycle
        del cycle
        gc.disable()  # only the interpreter's own collections at exit remain
        print("exiting", flush=True)
    """)
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_prepared_process_does_not_collect_its_heap_at_exit():
    """Python's collections at exit went over every object the graph's stages left (0.5 CPU-s after a full run at
    args.me size); frozen, the cycle is left to the operating system with the rest of the process."""
    assert _exit_output(prepare=False).split() == ["exiting", "collected"]
    assert _exit_output(prepare=True).split() == ["exiting"]


def _blas_threads(environment: dict[str, str]) -> tuple[str, list[int]]:
    """OPENBLAS_NUM_THREADS and OpenBLAS's thread counts in a process that imported the graph as Luigi does."""
    script = textwrap.dedent("""
        import os
        import luigi
        import workflows
        from threadpoolctl import threadpool_info
        threads = [pool["num_threads"] for pool in threadpool_info() if pool["internal_api"] == "openblas"]
        print(os.environ.get("OPENBLAS_NUM_THREADS"), *threads)
    """)
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"} | environment
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    setting, *threads = done.stdout.split()
    return setting, [int(t) for t in threads]


def test_the_graph_runs_openblas_on_one_thread_unless_the_user_chose():
    """OpenBLAS's idle threads spin after numpy loads them: some 0.1 CPU-s in every process of the graph."""
    setting, threads = _blas_threads({})
    assert setting == "1"
    assert threads and set(threads) == {1}
    assert _blas_threads({"OPENBLAS_NUM_THREADS": "2"})[0] == "2"


def _frozen_at_exit(luigis_command_line: bool) -> int:
    """gc.get_freeze_count() at the end of a process that imported the graph through Luigi's command line (asking
    it for help, which loads `--module` and exits) or as a script does."""
    load = (
        "sys.argv = ['luigi', '--module', 'workflows', '--help']\nfrom luigi.cmdline import luigi_run\nluigi_run()"
        if luigis_command_line
        else "import luigi\nimport workflows"
    )
    script = f"import atexit, gc, sys\natexit.register(lambda: print('frozen', gc.get_freeze_count()))\n{load}\n"
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert "frozen" in done.stdout, done.stderr
    return int(done.stdout.rsplit("frozen", 1)[1].split()[0])


def test_luigis_command_line_freezes_what_the_graph_import_made_and_a_script_does_not():
    """The objects of the graph's import live as long as Luigi's process; a script's heap stays collectable."""
    assert _frozen_at_exit(luigis_command_line=True) > 10_000
    assert _frozen_at_exit(luigis_command_line=False) == 0
