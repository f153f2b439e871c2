"""Entry points of the graph: `luigi --module workflows FullSubmission --local-scheduler`.

Importing this package is how Luigi's command line starts a build, so the process is prepared here, once
(`setup.prepare_process`); code that builds again in the same process calls `setup.fresh_build` first.
"""

from __future__ import annotations

import luigi

from tasks.report import ExperimentReport
from workflows.setup import prepare_process

prepare_process()


class FullSubmission(luigi.WrapperTask):
    """Every configured track, from ingest to a published, scored submission (or experiment) and its report."""

    runs_file = luigi.Parameter(default="runs.yaml", description="the YAML file that names the runs to produce")

    def requires(self) -> luigi.Task:
        return ExperimentReport(runs_file=self.runs_file)
