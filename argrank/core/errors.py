"""One error type for bad input, so every stage reports it the same way: which file, where in it, what was wrong."""

from __future__ import annotations

from pathlib import Path


class InputError(Exception):
    """Raised for input the pipeline cannot use; the CLI and the tasks print it without a traceback."""

    def __init__(self, path: str | Path, where: str, problem: str):
        self.path = str(path)
        self.where = where
        self.problem = problem
        super().__init__(f"{self.path}: {where}: {problem}" if where else f"{self.path}: {problem}")
