"""The graph's entry point, `luigi --module workflows FullSubmission --local-scheduler`, and the `argrank` command
(workflows.cli).

Luigi's command line imports Luigi, then the module it is given: where Luigi is loaded, importing the package loads
the graph (workflows.graph), which registers its root task with Luigi. The `argrank` command imports the package
before Luigi, and its evaluation commands load neither Luigi nor the graph's tasks; the commands that build the
graph import workflows.graph themselves, and `from workflows import FullSubmission` loads it where asked.
"""

from __future__ import annotations

import configparser
import sys
from typing import Any

from workflows import threads  # noqa: F401 (first: it holds OpenBLAS to one thread before numpy loads)
from workflows.luigi_config import luigi_config_problem, luigi_configuration


def _root() -> Any:
    """The graph's root task, its module loaded and Luigi's configuration checked before any work: a broken one
    ends the process with one line, not a traceback (Luigi reads its files as it is imported, and the `luigi`
    command its exit codes only after the whole build)."""
    try:
        from workflows.graph import FullSubmission

        luigi_configuration()
    except (configparser.Error, UnicodeDecodeError) as error:
        problem = luigi_config_problem(error)
        if problem is None:
            raise
        sys.stderr.write(f"argrank: error: {problem}\n")
        raise SystemExit(2) from None
    return FullSubmission


if "luigi" in sys.modules:  # Luigi's command line, given `--module workflows`: it finds the root task registered
    FullSubmission = _root()


def __getattr__(name: str) -> Any:
    """`from workflows import FullSubmission` where Luigi was not loaded first (a test, a script)."""
    if name == "FullSubmission":
        return _root()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["FullSubmission"]
