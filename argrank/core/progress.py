"""Progress of a long stage: a bar on a terminal (tqdm) and, for the task running it, a callback it forwards to
Luigi's scheduler, so the luigid page shows how far each running task is.

Library code wraps its long loop in `track`; a task sets the callback around its work with `reporting`. The
library stays free of Luigi, and code run outside a task (tests, the CLI) just gets the bar, or nothing where
stderr is not a terminal.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from contextvars import ContextVar
from typing import TypeVar

from tqdm import tqdm

Item = TypeVar("Item")
Reporter = Callable[[str, int, "int | None"], None]  # (what, done, total or None)

_reporter: ContextVar[Reporter | None] = ContextVar("argrank_progress_reporter", default=None)
_UNKNOWN_EVERY = 1000  # without a total, report every this many items


@contextmanager
def reporting(reporter: Reporter) -> Iterator[None]:
    """Send the progress of every `track` inside the block to `reporter`."""
    token = _reporter.set(reporter)
    try:
        yield
    finally:
        _reporter.reset(token)


def track(items: Iterable[Item], what: str, total: int | None = None, unit: str = "it") -> Iterator[Item]:
    """`items`, one by one, with their progress shown (a bar on a terminal) and reported (about 100 times over a
    known total, every 1,000 items otherwise)."""
    reporter = _reporter.get()
    every = max(1, total // 100) if total else _UNKNOWN_EVERY
    with _bar(items, what, total, unit) as bar:
        for done, item in enumerate(bar, start=1):
            yield item
            if reporter is not None and (done % every == 0 or done == total):
                reporter(what, done, total)


def _bar(items: Iterable[Item], what: str, total: int | None, unit: str) -> AbstractContextManager[Iterable[Item]]:
    """tqdm's bar over the items on a terminal; elsewhere the items themselves."""
    if not (hasattr(sys.stderr, "isatty") and sys.stderr.isatty()):
        return nullcontext(items)
    return tqdm(items, desc=what, total=total, unit=unit, disable=None, leave=False, mininterval=0.5)
