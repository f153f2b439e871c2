"""Entry points of the graph: `luigi --module workflows FullSubmission --local-scheduler`.

Importing this package is how Luigi's command line starts a build, so the process is prepared here, once
(`setup.prepare_process`); code that builds again in the same process calls `setup.fresh_build` first.
"""

from __future__ import annotations

import sys
from typing import Any

import luigi
from luigi.cmdline_parser import CmdlineParser
from luigi.retcodes import retcode

from argrank.config import load_experiment
from argrank.core.errors import InputError
from tasks.report import ExperimentReport
from workflows.setup import prepare_process

prepare_process()


class FullSubmission(luigi.WrapperTask):
    """Every configured track, from ingest to a published, scored submission (or experiment) and its report."""

    runs_file = luigi.Parameter(default="runs.yaml", description="the YAML file that names the runs to produce")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Check the runs file before any task is scheduled (InputError).

        Started by Luigi's command line, a mistake is said in one line and ends the process with [retcode]
        scheduling_error: Luigi would log an exception raised here as "Uncaught exception" and hide its reason.
        """
        super().__init__(*args, **kwargs)
        try:
            load_experiment(self.runs_file)
        except InputError as error:
            if CmdlineParser.get_instance() is None:  # built from code (argrank run, tests): the caller reports it
                raise
            print(f"argrank: error: {error}", file=sys.stderr)
            sys.exit(retcode().scheduling_error)

    def requires(self) -> luigi.Task:
        return ExperimentReport(runs_file=self.runs_file)
