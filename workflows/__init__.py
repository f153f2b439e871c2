"""The graph's entry point, `luigi --module workflows FullSubmission --local-scheduler`, and the `argrank` command
(workflows.cli).

The command must start without Luigi (`argrank compare --help` answers in a tenth of a second), so the graph's
root lives in workflows.graph: it is loaded here when Luigi's own command line imports this package (Luigi is then
imported already), and on first use of `workflows.FullSubmission` otherwise.
"""

from __future__ import annotations

import gc
import sys
from typing import Any

from workflows.threads import one_blas_thread

one_blas_thread()  # before the graph's imports load numpy

if "luigi" in sys.modules:
    from argrank.core.collector import fewer_collections

    with fewer_collections():  # the graph's imports leave some 58,000 tracked objects, all kept
        from workflows.graph import FullSubmission  # noqa: F401 (registers the task with Luigi)
        from workflows.setup import imported_by_luigis_command_line

        if imported_by_luigis_command_line():
            # They live until the process ends: frozen, the collector never goes over them again (a run of the
            # bench's args track with nothing to do 0.44 -> 0.42 CPU-s, the re-run after a change of k1 0.68 -> 0.66).
            gc.freeze()


def __getattr__(name: str) -> Any:
    if name == "FullSubmission":
        from workflows.graph import FullSubmission

        return FullSubmission
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
