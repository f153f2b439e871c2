"""Entry points of the graph: `luigi --module workflows FullSubmission --local-scheduler`."""

from __future__ import annotations

import luigi

from argrank.config import PERSPECTIVE, load_config
from tasks.base import forget_signatures
from tasks.publish import PublishPerspective, PublishTrack


class FullSubmission(luigi.WrapperTask):
    """Every configured track, from ingest to a published, scored submission."""

    runs_file = luigi.Parameter(default="runs.yaml", description="the YAML file that names the runs to produce")

    def requires(self) -> list[luigi.Task]:
        # Luigi asks the root first when a build starts: signatures are then computed from the files as they are.
        forget_signatures()
        return [
            (PublishPerspective if track == PERSPECTIVE else PublishTrack)(runs_file=self.runs_file, track=track)
            for track in load_config(self.runs_file)
        ]
