"""The graph's process set-up: at exit the heap is frozen, so the interpreter's last collections skip it."""

from __future__ import annotations

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
