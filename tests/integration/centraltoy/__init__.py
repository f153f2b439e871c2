"""Two Luigi tasks, `Later` needing `Made`, built as one worker under luigid by `python -m centraltoy FOLDER PORT`
(workflows.central.central_build, exit 0 once `Later` is complete). Their outputs go to the folder in
CENTRALTOY_FOLDER, which is no parameter: builds into two folders are the same tasks to luigid, as two runs of one
runs file into two output folders are. With CENTRALTOY_HOLD set, `Made` writes its output, touches that file and
then holds before it reports DONE: a worker killed there leaves luigid believing `Made` runs, while its output is
complete on disk."""

from __future__ import annotations

import os
import time
from pathlib import Path

import luigi

FOLDER = "CENTRALTOY_FOLDER"


def _output(name: str) -> luigi.LocalTarget:
    return luigi.LocalTarget(str(Path(os.environ[FOLDER]) / name))


class Made(luigi.Task):
    def output(self):
        return _output("made")

    def run(self):
        with self.output().open("w") as out:
            out.write("made\n")

    def on_success(self):
        hold = os.environ.get("CENTRALTOY_HOLD")
        if hold:
            Path(hold).touch()
            time.sleep(3600)


class Later(luigi.Task):
    def requires(self):
        return Made()

    def output(self):
        return _output("later")

    def run(self):
        with self.output().open("w") as out:
            out.write("later\n")
