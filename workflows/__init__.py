"""The graph's entry point, `luigi --module workflows FullSubmission --local-scheduler`, and the `argrank` command
(workflows.cli). Importing the package registers the graph's root task with Luigi."""

from __future__ import annotations

import configparser
import sys

from workflows import threads  # noqa: F401 (first: it holds OpenBLAS to one thread before numpy loads)
from workflows.luigi_config import luigi_config_problem, retcode_problem

try:  # Luigi reads its configuration files as it is imported: a broken one is one line, not a traceback
    from luigi.configuration import get_config

    from workflows.graph import FullSubmission
except (configparser.Error, UnicodeDecodeError) as error:
    problem = luigi_config_problem(error)
    if problem is None:
        raise
    sys.stderr.write(f"argrank: error: {problem}\n")
    raise SystemExit(2) from None
if isinstance(get_config(), configparser.RawConfigParser) and (problem := retcode_problem(get_config())):
    sys.stderr.write(f"argrank: error: {problem}\n")  # before any work, not after the whole build
    raise SystemExit(2)

__all__ = ["FullSubmission"]
