"""workflows/setup.py and threads.py: at exit the heap is frozen, so the interpreter's last collections skip it;
OpenBLAS runs one thread."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]


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
    """Python's collections at exit go over every object the graph's stages left; frozen, the cycle is left to the
    operating system with the rest of the process."""
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
    """OpenBLAS's idle threads spin after numpy loads them, in every process of the graph (workflows/threads.py)."""
    setting, threads = _blas_threads({})
    assert setting == "1"
    assert threads and set(threads) == {1}
    assert _blas_threads({"OPENBLAS_NUM_THREADS": "2"})[0] == "2"
