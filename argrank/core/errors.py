"""One error type for bad input, so every stage reports it the same way: which file, where in it, what was wrong."""

from __future__ import annotations

import re
from pathlib import Path

# Characters that act on a terminal or reorder or break the line (C0 and C1 controls, line and paragraph separators,
# bidirectional overrides): a file name or key that holds one is printed with it escaped.
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """`text` with every character that a terminal would act on written as its Python escape (\\x1b, \\n, …)."""
    return _UNPRINTABLE.sub(lambda match: match.group().encode("unicode_escape").decode("ascii"), text)


class InputError(Exception):
    """Raised for input the pipeline cannot use; the CLI and the tasks print it without a traceback, in one line
    whatever the names in it hold."""

    def __init__(self, path: str | Path, where: str, problem: str):
        self.path = str(path)
        self.where = where
        self.problem = problem
        message = f"{self.path}: {where}: {problem}" if where else f"{self.path}: {problem}"
        super().__init__(printable(message))
