"""Publish a track: copy its runs and evaluations from the cache into the experiment's folder,
`outputs/experiments/<experiment>/<track>/`, and for the submission experiment into `outputs/submission/<track>/`.

Published folders have fixed names, so they cannot be content-addressed like the cache. Instead a manifest in
each records the signature of what was published; the task is complete only while every manifest's signature
matches the current configuration, and a publication replaces the whole folder at once (core.published_folder),
so runs no longer configured go with it. Experiments share the cache, so a second experiment recomputes only the
stages its settings change.
"""

from __future__ import annotations

import functools
import json
import shutil
from pathlib import Path
from typing import Any

import luigi

from argrank.config import Experiment, load_experiment
from argrank.core.fingerprint import digest
from argrank.core.layout import experiment_folder, submission_folder
from argrank.core.ownership import claim
from argrank.core.published_folder import is_published, publish
from argrank.evaluation.report import format_results, per_topic_csv
from argrank.evaluation.results import RunScores
from argrank.tracks.section import TrackSection
from tasks.base import Settings, unwritable_as_input_error
from tasks.evaluate import evaluation_task
from tasks.runs import run_task


def run_tasks(section: TrackSection) -> dict[str, dict[str, luigi.Task]]:
    """Per run tag, the task writing its run and, when the track has judgments, the one evaluating it."""
    tasks = {}
    for spec in section.runs:
        run = run_task(section, spec)
        tasks[spec.tag] = {"run": run}
        evaluation = evaluation_task(run, section)
        if evaluation.judgment_files():
            tasks[spec.tag]["evaluation"] = evaluation
    return tasks


class Publisher(luigi.Task):
    """What publishing a track shares: fixed folders, each replaced whole by a publication with a manifest of the
    signature it was made from (core.published_folder)."""

    runs_file = luigi.Parameter(description="the YAML file that names the runs")
    track = luigi.Parameter(default="args", description="which track of the runs file")

    def folders(self) -> list[Path]:
        """The experiment's folder for the track and, for the submission, the submission's."""
        experiment, output_dir = load_experiment(self.runs_file), Settings().output_dir
        submission = [submission_folder(output_dir) / self.track] if experiment.submission else []
        return [experiment_folder(output_dir, experiment.name) / self.track, *submission]

    @functools.cached_property
    def signature(self) -> str:
        return digest(_signature_tree(self.requires()))

    def complete(self) -> bool:
        signature = self.signature
        return all(is_published(folder, signature) for folder in self.folders())

    def run(self) -> None:
        folders = self.folders()
        with unwritable_as_input_error(folders[0]):
            claim_published_folders(self.runs_file)
        for folder in folders:
            with unwritable_as_input_error(folder):
                publish(folder, self.signature, self.publish)

    def publish(self, folder: Path) -> list[str]:
        """Write the track's files into `folder` (a new, empty one); their names relative to it."""
        raise NotImplementedError


def published_folders(output_dir: str, experiment: Experiment) -> list[tuple[Path, str]]:
    """The folders of fixed name `experiment` publishes into, each with how messages name it (core.ownership)."""
    folders = [(experiment_folder(output_dir, experiment.name), f"experiment {experiment.name!r}")]
    return folders + ([(submission_folder(output_dir), "the submission")] if experiment.submission else [])


def claim_published_folders(runs_file: str) -> None:
    """Claim the experiment's folders for `runs_file` before anything is published into them."""
    for folder, what in published_folders(Settings().output_dir, load_experiment(runs_file)):
        claim(folder, runs_file, what)


def copy_into(source: str, folder: Path, name: str) -> str:
    (folder / name).parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, folder / name)
    return name


def _signature_tree(tasks: Any) -> Any:
    """The nested dict of required tasks with each task replaced by its signature."""
    if isinstance(tasks, dict):
        return {key: _signature_tree(value) for key, value in tasks.items()}
    return tasks.signature


class PublishTrack(Publisher):
    """A ranking track's runs (`<tag>.txt`), their evaluations and per-topic CSVs."""

    def requires(self) -> dict[str, dict[str, luigi.Task]]:
        return run_tasks(load_experiment(self.runs_file).tracks[self.track])

    def publish(self, folder: Path) -> list[str]:
        files, evaluations = [], {}
        for tag, tasks in self.requires().items():
            files.append(copy_into(tasks["run"].output().path, folder, f"{tag}.txt"))
            if "evaluation" in tasks:
                evaluation = tasks["evaluation"]
                data = json.loads(Path(evaluation.output().path).read_text(encoding="utf-8"))
                evaluations[tag] = RunScores.from_json(data, evaluation.result_type)
                for qrels, result in evaluations[tag].judgments.items():
                    name = f"{tag}.{qrels}.per-topic.csv"
                    (folder / name).write_text(per_topic_csv(result), encoding="utf-8")
                    files.append(name)
        if evaluations:
            as_json = {tag: scores.to_json() for tag, scores in evaluations.items()}
            (folder / "evaluation.json").write_text(json.dumps(as_json, indent=2, sort_keys=True) + "\n", "utf-8")
            (folder / "evaluation.txt").write_text(format_results(evaluations) + "\n", "utf-8")
            files += ["evaluation.json", "evaluation.txt"]
        return files
