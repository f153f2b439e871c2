"""The compiled kernels: every loop that numba compiles, BM25's scoring loop's numpy twin, and their ahead-of-time
build.

The rest of the library stays plain Python, numpy and Arrow; what it needs compiled it imports from here. The
modules:

- `bm25_numba`, `bm25_numpy`: BM25's term-at-a-time scoring, compiled by numba and in numpy. With the ahead-of-time
  build, all three give the same candidates in the same order and the same scores bit for bit; the `kernels`
  setting chooses (`choose`).
- `inversion`: the index build's counting sort of token codes into postings.
- `ahead_of_time`: BM25's and the inversion's numba code compiled by `make kernels` into one extension module,
  which a process loads without numba's compiler; where none is built, numba's jit-compiled code runs.
- `chunk_memo`, `table_codes`: the analyzer's memo of whitespace-delimited chunks and the token table's renumbering.
- `json_depth`: the args.me reader's guard against JSON nested too deep.
- `machine_words`, `prefetch`: LLVM operations the loops above share (eight-byte loads, cache prefetches).
- `numba_cache`: numba's compiled kernels go to the user's cache folder, not the source tree.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Protocol

from argrank.kernels import numba_cache  # noqa: F401, I001  (first: numba reads where to cache when imported)
from argrank.kernels import ahead_of_time, bm25_numba, bm25_numpy

KERNELS = ("auto", "numba", "numpy")  # the `kernels` setting's values
L2 = Path("/sys/devices/system/cpu/cpu0/cache/index2")  # Linux's description of the first core's level-2 cache


class Kernels(Protocol):
    """What a BM25 ranker scores with: the functions of bm25_numba, under any of its builds."""

    def impacts(self, indptr, indices, data, rows, norm, k1_plus_1, out) -> int: ...

    def accumulate(self, indptr, indices, data, norm, k1_plus_1, impact, cached, rows, idf, scale, table) -> int: ...

    def collect(self, indptr, indices, rows, table, bar, candidates, scores) -> int: ...

    def top_candidates(self, indptr, indices, data, norm, k1_plus_1, impact, cached, rows, idf, scale, table, k, block,
                       sample, candidates, scores) -> int: ...  # fmt: skip

    def order_ties(self, order, scores, candidates) -> int: ...


def choose(setting: str = "auto") -> Kernels:
    """The BM25 kernels for a `kernels` setting: `numpy`, or numba's (`numba`; `auto` is the same, numba being a
    dependency), taken from the ahead-of-time build where `make kernels` made one for the current sources."""
    if setting not in KERNELS:
        raise ValueError(f"unknown kernels {setting!r} (known: {', '.join(KERNELS)})")
    if setting == "numpy":
        return bm25_numpy
    prebuilt = ahead_of_time.load()
    return bm25_numba if prebuilt is None else prebuilt


def name(kernels: Kernels) -> str:
    """What the benchmark and the tests call a build: "numba", "numpy" or "prebuilt"."""
    if isinstance(kernels, ahead_of_time.Prebuilt):
        return "prebuilt"
    return "numpy" if kernels is bm25_numpy else "numba"


@cache
def block_documents() -> int:
    """How many documents' running scores (8 bytes each) `top_candidates` keeps at a time: three eighths of a
    core's level-2 cache where Linux says its size, else of 1 MiB, so that the block's scores stay in it beside the
    postings and tf factors streaming past them (it prefetches no score)."""
    size = 2**20
    try:
        if (L2 / "level").read_text().strip() == "2":
            text = (L2 / "size").read_text().strip().upper()
            size = int(text.rstrip("KM")) * {"K": 2**10, "M": 2**20}.get(text[-1:], 1)
    except (OSError, ValueError):
        pass
    return max(size * 3 // 8 // 8, 1024)
