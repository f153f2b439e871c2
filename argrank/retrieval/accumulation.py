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

Where `make` has built the kernels ahead of time (retrieval/ahead_of_time.py), a process without numba loads those
instead, in milliseconds, and never needs numpy's.
"""

from __future__ import annotations

import sys
from typing import Protocol

from argrank.retrieval import ahead_of_time, numpy_accumulator

LOAD_POSTINGS = 40_000_000  # numpy's extra time on these is about what loading the compiled kernels takes


class Kernels(Protocol):
    """What a ranker scores with: the functions of retrieval/accumulator.py, under any of its builds."""

    def impacts(self, indptr, indices, data, rows, norm, k1_plus_1, out) -> int: ...

    def accumulate(
        self, indptr, indices, data, norm, k1_plus_1, impact, cached, rows, idf, scale, table, candidates, scores
    ) -> int: ...


class Accumulation:
    """One ranker's choice, made before each query (all kernels share the ranker's buffers, so it may change
    between two queries); `fixed` makes it, as the tests do."""

    scored = 0  # postings the rankers of this process have scored in numpy, all together: the rent paid

    def __init__(self, fixed: Kernels | None = None):
        self.fixed = fixed
        self.used: set[str] = set()  # which kernels have scored: "numpy", "compiled", "prebuilt"
        # The choice once nothing can change it (fixed, numba's, the prebuilt ones), which a ranker takes without
        # counting its query's postings: asked per query, the bench's 50 titles took 24.3-25.3 ms, now 22.2-24.2
        # (medians of five rounds in five alternated processes each).
        self.final: Kernels | None = None

    def kernels(self, postings: int) -> Kernels:
        """The kernels that score the next query, which reads `postings` postings."""
        chosen = self.fixed or self._choose(postings)
        self.used.add(name(chosen))
        if self.fixed is not None or chosen is not numpy_accumulator:
            self.final = chosen
        return chosen

    @staticmethod
    def _choose(postings: int) -> Kernels:
        if "numba" not in sys.modules:
            prebuilt = ahead_of_time.load()
            if prebuilt is not None:
                return prebuilt
            if Accumulation.scored < LOAD_POSTINGS:
                Accumulation.scored += postings
                return numpy_accumulator
        from argrank.retrieval import accumulator  # numba: loaded to rank many postings only

        return accumulator


def name(kernels: Kernels) -> str:
    """How `used` and the benchmark call them."""
    if isinstance(kernels, ahead_of_time.Prebuilt):
        return "prebuilt"
    return "numpy" if kernels is numpy_accumulator else "compiled"
