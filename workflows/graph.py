"""The graph's root: `FullSubmission`, every configured track from ingest to a published, scored submission (or
experiment) and its report. `luigi --module workflows FullSubmission` finds it through the package (workflows)."""

from __future__ import annotations

import sys
from typing import Any

import luigi
from luigi.cmdline_parser import CmdlineParser
from luigi.retcodes import retcode

from argrank.config import load_experiment
from argrank.core.errors import InputError
from argrank.tracks.registry import track_names
from tasks.report import ExperimentReport
from tasks.tracks import track_tasks
from workflows.setup import prepare_process

# Every task class registered before Luigi's command line is parsed: it reads options of any task (and the
# [argrank] section) only from classes it knows.
for _name in track_names():
    track_tasks(_name)


class FullSubmission(luigi.WrapperTask):
    """Every configured track, from ingest to a published, scored submission (or experiment) and its report."""

    runs_file = luigi.Parameter(default="runs.yaml", description="the YAML file that names the runs to produce")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Check the runs file before any task is scheduled (InputError).

        Started by Luigi's command line, a mistake is said in one line and ends the process with [retcode]
        scheduling_error: Luigi would log an exception raised here as "Uncaught exception" and hide its reason.
        """
        super().__init__(*args, **kwargs)
        prepare_process()  # the process that builds the graph, set up where the graph starts
        try:
            load_experiment(self.runs_file)
        except InputError as error:
            if CmdlineParser.get_instance() is None:  # built from code (argrank run, tests): the caller reports it
                raise
            print(f"argrank: error: {error}", file=sys.stderr)
            sys.exit(retcode().scheduling_error)

    def requires(self) -> luigi.Task:
        return ExperimentReport(runs_file=self.runs_file)
