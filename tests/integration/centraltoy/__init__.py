"""Two Luigi tasks, `Later` needing `Made`, built as one worker under luigid by `python -m centraltoy FOLDER PORT`
(workflows.central.central_build, exit 0 once `Later` is complete). With CENTRALTOY_HOLD set, `Made` writes its
output, touches that file and then holds before it reports DONE: a worker killed there leaves luigid believing `Made`
runs, while its output is complete on disk."""

from __future__ import annotations

import os
import time
from pathlib import Path

import luigi


class Made(luigi.Task):
    folder = luigi.Parameter()

    def output(self):
        return luigi.LocalTarget(str(Path(self.folder) / "made"))

    def run(self):
        with self.output().open("w") as out:
            out.write("made\n")

    def on_success(self):
        hold = os.environ.get("CENTRALTOY_HOLD")
        if hold:
            Path(hold).touch()
            time.sleep(3600)


class Later(luigi.Task):
    folder = luigi.Parameter()

    def requires(self):
        return Made(folder=self.folder)

    def output(self):
        return luigi.LocalTarget(str(Path(self.folder) / "later"))

    def run(self):
        with self.output().open("w") as out:
            out.write("later\n")
