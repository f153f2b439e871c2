"""Evaluate: a run against each named qrels file, and (Task 2) its stance against the stance qrels.

Tasks 1 and 2 score nDCG@5; images score precision of their PRO and CON lists (on-topic, argumentative,
on-stance), from judgments that say per image whether it is on topic, PRO and CON.
"""

from __future__ import annotations

import json

import luigi
from luigi.util import inherits

from argrank.core.atomic import atomic_write_text
from argrank.evaluation.ndcg import evaluate
from argrank.core.fingerprint import file_digest
from argrank.tracks.images.evaluation import evaluate_images
from argrank.tracks.images.qrels import read_image_qrels
from argrank.formats.qrels import judged_topics, read_qrels, read_stance_qrels
from argrank.formats.runfile import RunLine, read_run
from argrank.tracks.comparative.stance_evaluation import evaluate_stance
from argrank.formats.topics import read_topics
from tasks.base import CachedTask
from tasks.runs import WriteRun
from tasks.stance import stance_model_task, stance_report

DEPTH = 5  # Touché Tasks 1 and 2 report nDCG@5.
STANCE = "stance"  # the results' key for stance; no qrels file may be named so


@inherits(WriteRun)
class EvaluateRun(CachedTask):
    qrels = luigi.DictParameter(description="judgment name → qrels file, e.g. {\"relevance\": \"…\"}")
    stance_qrels = luigi.OptionalParameter(default=None, description="stance qrels (Task 2)")

    stage = "evaluation"
    extension = ".json"
    location_params = ("corpus", "topics", "qrels", "stance_training", "stance_qrels")

    def requires(self) -> dict[str, luigi.Task]:
        needs = {"run": self.clone(WriteRun)}
        if self.stance_training:
            needs["model"] = stance_model_task(self)
        return needs

    def input_digests(self) -> list[str]:
        named = {**self.qrels, **({STANCE: self.stance_qrels} if self.stance_qrels else {})}
        return [file_digest(self.topics)] + [f"{name}:{file_digest(path)}" for name, path in sorted(named.items())]

    def run(self) -> None:
        run = read_run(self.input()["run"].path)
        known = [topic.number for topic in read_topics(self.topics)]
        results = {name: self._score(run, path, known) for name, path in self.qrels.items()}
        stance = {}
        if self.stance_qrels:
            stance = evaluate_stance(run, judged_topics(read_stance_qrels(self.stance_qrels), known, self.stance_qrels))
        if "model" in self.input():
            stance["classifier"] = stance_report(self.input()["model"].path)
        if stance:
            results[STANCE] = stance
        atomic_write_text(self.output_path, json.dumps(results, indent=2, sort_keys=True) + "\n")

    def _score(self, run: list[RunLine], qrels: str, known: list[str]) -> dict:
        if self.track == "images":
            return evaluate_images(run, judged_topics(read_image_qrels(qrels), known, qrels))
        return evaluate(run, judged_topics(read_qrels(qrels), known, qrels), depth=DEPTH)
