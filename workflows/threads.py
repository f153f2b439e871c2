"""One BLAS thread in the processes that import the graph or the `argrank` command, unless the user set
OPENBLAS_NUM_THREADS: OpenBLAS reads it once, when numpy (or scipy) loads it, so it is set before either loads.

The graph's parallelism is Luigi's workers, one task each; its BLAS calls are small (the perspective track's
L-BFGS steps and query scores, already held to one thread where they run, docs/tracks/perspective.md). And OpenBLAS's
other threads, started with numpy, spin for a while waiting for work that never comes: on the bench's 2-core
machine, 0.08-0.11 CPU-s in every process, a seventh of the re-run after a change of k1 (docs/scale.md).
"""

from __future__ import annotations

import os
import sys


def one_blas_thread() -> None:
    """Ask OpenBLAS for one thread where numpy has not loaded it yet and the user has not chosen a number."""
    if "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
