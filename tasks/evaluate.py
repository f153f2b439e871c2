"""Evaluate: a run against each named qrels file."""

from __future__ import annotations

import json

import luigi
from luigi.util import requires

from argrank.atomic import atomic_write_text
from argrank.evaluation import evaluate
from argrank.fingerprint import file_digest
from argrank.qrels import read_qrels
from argrank.runfile import read_run
from argrank.topics import read_topics
from tasks.base import CachedTask
from tasks.runs import WriteRun

DEPTH = 5  # Touché Task 1 reports nDCG@5.


@requires(WriteRun)
class EvaluateRun(CachedTask):
    qrels = luigi.DictParameter(description="judgment name → qrels file, e.g. {\"relevance\": \"…\"}")

    stage = "evaluation"
    extension = ".json"
    location_params = ("corpus", "topics", "qrels")

    def input_digests(self) -> list[str]:
        return [file_digest(self.topics)] + [f"{name}:{file_digest(path)}" for name, path in sorted(self.qrels.items())]

    def run(self) -> None:
        run = read_run(self.input().path)
        known = [topic.number for topic in read_topics(self.topics)]
        results = {name: evaluate(run, read_qrels(path, known), depth=DEPTH) for name, path in self.qrels.items()}
        atomic_write_text(self.output_path, json.dumps(results, indent=2, sort_keys=True) + "\n")
