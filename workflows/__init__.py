"""Entry points of the graph: `luigi --module workflows FullSubmission --local-scheduler`.

Importing this package is how Luigi's command line starts a build, so the process is prepared here, once
(`setup.prepare_process`); code that builds again in the same process calls `setup.fresh_build` first.
"""

from __future__ import annotations

import luigi

from argrank.config import PERSPECTIVE, load_config
from tasks.publish import PublishPerspective, PublishTrack
from workflows.setup import prepare_process

prepare_process()


class FullSubmission(luigi.WrapperTask):
    """Every configured track, from ingest to a published, scored submission."""

    runs_file = luigi.Parameter(default="runs.yaml", description="the YAML file that names the runs to produce")

    def requires(self) -> list[luigi.Task]:
        return [
            (PublishPerspective if track == PERSPECTIVE else PublishTrack)(runs_file=self.runs_file, track=track)
            for track in load_config(self.runs_file)
        ]
