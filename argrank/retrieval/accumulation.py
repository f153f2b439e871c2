"""Which accumulator a BM25 ranker scores with: the compiled kernels (retrieval/accumulator.py) or their numpy twins
(retrieval/numpy_accumulator.py), which give the same results bit for bit.

Compiled, a posting costs a few ns and numpy's some 40; but loading the compiled kernels costs a process about a
second of CPU (numba's import, then its first call, which loads numba's typing registries and scipy.linalg), as
much as numpy spends on some 40 million postings, while a run's 50 topics reach 2.4 million (titles) to 16
million (with descriptions) at args.me size. A re-run after a ranking parameter changed is such a process. So the
rankers of a process that has not loaded numba score in numpy until together they have scored LOAD_POSTINGS
postings, and load the kernels then (as in ski rental, the process never pays much more than twice the better
choice's cost: a sweep of many rankers in one process, each too small alone, pays for the loading once); where
numba is loaded already (the graph's ingest, tokenizer and index builder use it), they take the kernels at once.
"""

from __future__ import annotations

import sys
from types import ModuleType

from argrank.retrieval import numpy_accumulator

LOAD_POSTINGS = 40_000_000  # numpy's extra time on these is about what loading the compiled kernels takes


class Accumulation:
    """One ranker's choice, made before each query (both kernels share the ranker's buffers, so it may change
    between two queries); `compiled` fixes it, as the tests do."""

    scored = 0  # postings the rankers of this process have scored in numpy, all together: the rent paid

    def __init__(self, compiled: bool | None = None):
        self.fixed = compiled
        self.used: set[str] = set()  # which kernels have scored: "numpy", "compiled"

    def kernels(self, postings: int) -> ModuleType:
        """The module whose `impacts` and `accumulate` score the next query, which reads `postings` postings."""
        compiled = self.fixed
        if compiled is None:
            compiled = "numba" in sys.modules or Accumulation.scored >= LOAD_POSTINGS
        self.used.add("compiled" if compiled else "numpy")
        if not compiled:
            Accumulation.scored += postings
            return numpy_accumulator
        from argrank.retrieval import accumulator  # numba: loaded to rank many postings only

        return accumulator
