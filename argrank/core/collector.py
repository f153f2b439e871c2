"""Fewer passes of Python's cycle collector where a stage makes objects by the million: an ingest parsing a corpus,
building an analyzer (text/multilingual.py), and loading the graph (workflows/__init__.py).

An ingest allocates millions of containers that die young and form no cycles: the parser's dict of each argument,
its lists, the row tuples of a batch. Reference counting frees them; the cycle collector, with its default young
threshold of 700 allocations, still passes over each batch's survivors again and again, which on a whole corpus
is a good part of the ingest's work and finds nothing to free. The collector stays on, so a cycle is still freed,
after at most YOUNG allocations instead of 700.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

YOUNG = 50_000  # allocations between young passes: a few MB of short-lived containers at most


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Raise the young generation's threshold to YOUNG inside the block, and restore the caller's after it."""
    saved = gc.get_threshold()
    gc.set_threshold(max(YOUNG, saved[0]), *saved[1:])
    try:
        yield
    finally:
        gc.set_threshold(*saved)
