"""The graph's entry point, `luigi --module workflows FullSubmission --local-scheduler`, and the `argrank` command
(workflows.cli). Importing the package registers the graph's root task with Luigi."""

from __future__ import annotations

from workflows import threads  # noqa: F401 (first: it holds OpenBLAS to one thread before numpy loads)
from workflows.graph import FullSubmission

__all__ = ["FullSubmission"]
