"""One BLAS thread in the processes that import the graph or the `argrank` command, unless the user set
OPENBLAS_NUM_THREADS. Imported first by the `workflows` package: OpenBLAS reads the variable once, when numpy (or
scipy) loads it.

The graph's parallelism is Luigi's workers, one task each, and its BLAS calls are small; OpenBLAS's other threads,
started with numpy, would spin waiting for work that never comes.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
