"""The experiment's HTML report, written after every track is published: `experiments/<name>/report/`.

Like the publishers it has a fixed folder and a manifest: it is complete while the manifest's signature matches
what it was made from, the publishers' signatures and the nightly history, so a changed run or a new nightly
record rewrites it and an unchanged experiment leaves it alone.
"""

from __future__ import annotations

import functools
import json

import luigi

from argrank.config import load_experiment
from argrank.core.fingerprint import digest, file_digest
from argrank.core.layout import history_file, report_folder
from argrank.core.published_folder import is_published, publish
from argrank.evaluation.standings import participant_files
from argrank.reporting.experiment import write_report
from argrank.reporting.history import read_history
from tasks.base import Settings, unwritable_as_input_error
from tasks.publish import Publisher, PublishTrack, claim_published_folders
from tasks.track_tasks import track_tasks


class ExperimentReport(luigi.Task):
    """index.html with the comparison tables, plots, stance matrices, images and trends of one experiment."""

    runs_file = luigi.Parameter(description="the YAML file that names the experiment's runs")

    def requires(self) -> list[Publisher]:
        return [
            (track_tasks(track).publisher or PublishTrack)(runs_file=self.runs_file, track=track)
            for track in load_experiment(self.runs_file).tracks
        ]

    def folder(self):
        return report_folder(Settings().output_dir, load_experiment(self.runs_file).name)

    def history(self) -> list[dict]:
        """The nightly records of this experiment (only the submission's are kept), and tonight's while `argrank
        nightly` has not yet kept it."""
        if not load_experiment(self.runs_file).submission:
            return []
        tonight = Settings().nightly_record
        return [*read_history(history_file(Settings().output_dir)), *([json.loads(tonight)] if tonight else [])]

    def participants(self) -> list[tuple[str, str, str]]:
        """(track, run name, content digest) of every participants' run a ranking section places its runs among
        (`participants:`), so that a changed or added run there rewrites the report."""
        found = []
        for name, section in load_experiment(self.runs_file).tracks.items():
            folder = getattr(section, "participants", None)
            if folder is not None:
                found += [(name, run, file_digest(path)) for run, path in participant_files(folder, []).runs.items()]
        return found

    @functools.cached_property
    def signature(self) -> str:
        return digest([task.signature for task in self.requires()], self.history(), self.participants())

    def complete(self) -> bool:
        """Published from this signature, and so is every track folder it reports on: a folder removed by hand or
        lost to a kill between its two renames was never published again while the report stood for it."""
        return is_published(self.folder(), self.signature) and all(task.complete() for task in self.requires())

    def run(self) -> None:
        experiment, history = load_experiment(self.runs_file), self.history()
        output_dir = Settings().output_dir
        with unwritable_as_input_error(self.folder()):
            claim_published_folders(self.runs_file)
            publish(
                self.folder(), self.signature, lambda folder: write_report(experiment, output_dir, folder, history)
            )
