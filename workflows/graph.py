"""The graph's root: `FullSubmission`, every configured track from ingest to a published, scored submission (or
experiment) and its report. `luigi --module workflows FullSubmission` finds it through the package (workflows).

A track's own tasks are loaded when the graph is built for a runs file that names the track (tasks.tracks), not
here: Luigi builds its command line three times in a run, with every parameter of every task class it knows, so
a run of one track would pay for the other tracks' classes and modules too. The graph sets its tasks' parameters
from the runs file, none from the command line."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import luigi
from luigi.cmdline_parser import CmdlineParser
from luigi.retcodes import retcode

from argrank.config import check_training_held_out, load_experiment
from argrank.core.atomic import remove_leftovers
from argrank.core.errors import InputError
from argrank.core.layout import written_folders
from argrank.core.ownership import check_owner
from tasks.base import Settings, unwritable_as_input_error
from tasks.publish import published_folders
from tasks.report import ExperimentReport
from workflows.setup import prepare_process


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
            _prepare_outputs(self.runs_file)
        except InputError as error:
            if CmdlineParser.get_instance() is None:  # built from code (argrank run, tests): the caller reports it
                raise
            print(f"argrank: error: {error}", file=sys.stderr)
            sys.exit(retcode().scheduling_error)

    def requires(self) -> luigi.Task:
        return ExperimentReport(runs_file=self.runs_file)


def _prepare_outputs(runs_file: str) -> None:
    """Check the runs file, that no section learns from the topics it ranks (made here, on every build: a cached
    model would skip a check in its stage), and that no other runs file publishes where it does (core.ownership; it
    claims those folders when it first publishes), and sweep what killed writers left in every folder the run
    writes into: left alone, their entries outlived every run whose stage did not run again, and showed as tracks."""
    experiment = load_experiment(runs_file)
    for section in experiment.tracks.values():
        check_training_held_out(section)
    output_dir = Settings().output_dir
    for folder, what in published_folders(output_dir, experiment):
        check_owner(folder, runs_file, what)
    with unwritable_as_input_error(Path(output_dir)):
        for folder in written_folders(output_dir, experiment.name):
            remove_leftovers(folder)
