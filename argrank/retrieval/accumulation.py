"""Which accumulator a BM25 ranker scores with: the compiled kernels (retrieval/accumulator.py) or their numpy twins
(retrieval/numpy_accumulator.py), which give the same results bit for bit.

Compiled, a posting costs a few ns and numpy's some 40; but loading the compiled kernels costs a process about a
second of CPU (numba's import, then its first call, which loads numba's typing registries and scipy.linalg), as
much as numpy spends on some 40 million postings, while a run's 50 topics reach 2.4 million (titles) to 16
million (with descriptions) at args.me size. A re-run after a ranking parameter changed is such a process. So a
ranker in a process that has not loaded numba scores in numpy until it has scored LOAD_POSTINGS postings, and
loads the kernels then (as in ski rental, it never pays much more than twice the better choice's cost); where
numba is loaded already (the graph's ingest, tokenizer and index builder use it), it takes the kernels at once.
"""

from __future__ import annotations

import sys
from types import ModuleType

from argrank.retrieval import numpy_accumulator

LOAD_POSTINGS = 40_000_000  # numpy's extra time on these is about what loading the compiled kernels takes


class Accumulation:
    """One ranker's choice, made before each query (both kernels share the ranker's buffers, so it may change
    between two queries); `compiled` fixes it, as the tests do."""

    def __init__(self, compiled: bool | None = None):
        self.fixed = compiled
        self.scored = 0  # postings this ranker has scored
        self.used: set[str] = set()  # which kernels have scored: "numpy", "compiled"

    def kernels(self, postings: int) -> ModuleType:
        """The module whose `impacts` and `accumulate` score the next query, which reads `postings` postings."""
        compiled = self.fixed
        if compiled is None:
            compiled = "numba" in sys.modules or self.scored >= LOAD_POSTINGS
        self.scored += postings
        self.used.add("compiled" if compiled else "numpy")
        if not compiled:
            return numpy_accumulator
        from argrank.retrieval import accumulator  # numba: loaded to rank many postings only

        return accumulator
