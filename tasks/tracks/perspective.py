"""The perspective track's tasks: its ingest and, after the shared index, each scenario's queries ranked, evaluated
and published.

One ranking per scenario and split; the ranking task reads the document table with only its scenario's columns
(`perspective_ranking.SCENARIO_COLUMNS`), so the rules hold by construction.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import luigi
from luigi.util import inherits

from argrank.config import load_experiment
from argrank.core.atomic import atomic_path
from argrank.core.fingerprint import file_digest
from argrank.core.parquet_file import read_parquet
from argrank.core.table_writer import IngestStats
from argrank.index.store import load_index
from argrank.text.multilingual import make_analyzer
from argrank.tracks.perspective.crosslingual import build_ranker
from argrank.tracks.perspective.data import (
    CORPUS_FILE,
    judged,
    query_file,
    read_corpus,
    read_predictions,
    read_queries,
    training_files,
    write_predictions,
)
from argrank.tracks.perspective.evaluation import PerspectiveScores, csv_tables, evaluate_perspective, format_means
from argrank.tracks.perspective.in_sample import perspective_in_sample
from argrank.tracks.perspective.ingest import ingest_perspective
from argrank.tracks.perspective.ranking import (
    DEFAULT_DIVERSIFY,
    METHOD,
    SCENARIO_COLUMNS,
    PropertyEvidence,
    aligned,
    allowed_columns,
    rank_scenario,
    training_from_queries,
)
from argrank.tracks.perspective.section import NAME as TRACK
from argrank.tracks.perspective.translation import DICTIONARIES, dictionary_files, read_lexicon
from tasks.base import CachedTask, location, log
from tasks.index import BuildIndex
from tasks.ingest import IngestTask
from tasks.publish import Publisher, copy_into
from tasks.track_tasks import TrackTasks

FIELDS = ("argument",)
RESULT_FILE = "evaluation.json"


class IngestPerspective(IngestTask):
    """The perspective release's corpus.jsonl, each argument's language detected among `language`'s."""

    language = luigi.Parameter(default="de,fr,it", description="the corpus's languages, the majority first")

    track = TRACK
    documents = "arguments"

    def digest(self) -> str:
        return file_digest(Path(self.corpus) / CORPUS_FILE)

    def ingest(self, out_path: Path) -> IngestStats:
        return ingest_perspective(self.corpus, out_path, [code.strip() for code in self.language.split(",")])


class RankPerspective(CachedTask):
    """A scenario's queries of one split, each with its `depth` best arguments, as the task's JSONL."""

    corpus = location(luigi.Parameter(description="the release directory (corpus.jsonl and the query folders)"))
    language = luigi.Parameter(default="de,fr,it", description="the corpus's languages, the majority first")
    scenario = luigi.ChoiceParameter(choices=list(SCENARIO_COLUMNS), description="baseline, explicit or implicit")
    split = luigi.Parameter(description="train, dev or test")
    params = luigi.DictParameter(default={}, description="the cross-lingual ranker's settings")
    depth = luigi.IntParameter(default=1000, description="arguments per query")
    diversify = luigi.FloatParameter(
        default=DEFAULT_DIVERSIFY, description="explicit scenario: weight of profile diversity, 0 to 1"
    )
    implicit_stance = luigi.BoolParameter(default=True, description="implicit scenario: read the stance label")
    dictionaries = location(luigi.Parameter(
        default=DICTIONARIES, description="folder of the FreeDict dictionaries questions are translated with"
    ))  # fmt: skip

    track = TRACK
    stage = "rank"
    extension = ".jsonl"

    def own_params(self) -> dict[str, str]:
        """The stance switch only where it matters: a baseline or explicit ranking keeps its cache path."""
        params = super().own_params()
        if self.scenario != "implicit":
            params.pop("implicit_stance")
        return params

    def requires(self) -> dict[str, luigi.Task]:
        index = BuildIndex(track=TRACK, corpus=self.corpus, language=self.language, fields=FIELDS)
        return {"index": index, "documents": IngestPerspective(corpus=self.corpus, language=self.language)}

    def _languages(self) -> list[str]:
        return [code.strip() for code in self.language.split(",")]

    def _read_files(self) -> list[Path]:
        """The release's files the ranking reads beside the index (its queries and the training splits) and the
        dictionaries it translates with."""
        files = (query_file(self.corpus, self.scenario, self.split), *training_files(self.corpus))
        return [*files, *dictionary_files(self.dictionaries, self._languages())]

    def input_digests(self) -> list[str]:
        return [*(file_digest(path) for path in self._read_files()), METHOD]

    def input_files(self) -> dict[str, str]:
        return {str(path): file_digest(path) for path in self._read_files()}

    def run(self) -> None:
        index = load_index(self.input()["index"].path)
        analyzer = make_analyzer(self.language)
        positions = {int(doc): i for i, doc in enumerate(index.doc_ids.to_pylist())}
        baseline_training, perspective_training = (read_queries(path) for path in training_files(self.corpus))
        training = training_from_queries(baseline_training, perspective_training, lambda i: positions.get(i, -1))
        table = self.input()["documents"].path
        columns = allowed_columns(self.scenario, self.implicit_stance)
        documents = aligned(read_parquet(table, columns=columns), index.doc_ids)
        lexicon = read_lexicon(self.dictionaries, self._languages())
        if not lexicon.files:
            log.warning("no FreeDict dictionaries under %s: questions are ranked untranslated", self.dictionaries)
        ranker = build_ranker(
            index,
            documents.column("language").to_pylist(),
            documents.column("topic").to_pylist(),
            training.issues,
            dict(self.params),
            analyzer,
            lexicon,
            training.questions,
        )
        rankings = rank_scenario(
            read_queries(query_file(self.corpus, self.scenario, self.split)),
            ranker.score_text,
            PropertyEvidence(self.scenario, documents, training, stance=self.implicit_stance),
            index.doc_ids,
            self.depth,
            self.diversify,
        )
        write_predictions(self.output_path, rankings)


@inherits(RankPerspective)
class EvaluatePerspective(CachedTask):
    """Relevance and diversity of one ranking against its queries' judgments: evaluation.json and the CSV tables.
    The scores are marked in-sample where the ranker learned from these queries (perspective.in_sample)."""

    track = TRACK
    stage = "evaluation"

    def requires(self) -> luigi.Task:
        return self.clone(RankPerspective)

    def input_digests(self) -> list[str]:
        files = (query_file(self.corpus, self.scenario, self.split), Path(self.corpus) / CORPUS_FILE)
        return [file_digest(path) for path in (*files, *training_files(self.corpus))]

    def run(self) -> None:
        corpus = read_corpus(self.corpus)
        queries = read_queries(query_file(self.corpus, self.scenario, self.split), corpus)
        predictions = read_predictions(self.input().path, corpus)
        result = evaluate_perspective(corpus, queries, predictions, self.scenario)
        training = [query for path in training_files(self.corpus) for query in read_queries(path)]
        in_sample = perspective_in_sample(self.scenario, queries, training, result.means)
        result = dataclasses.replace(result, in_sample=in_sample)
        with atomic_path(self.output_path) as tmp:
            tmp.mkdir()
            text = json.dumps(result.to_json(), indent=2, sort_keys=True) + "\n"
            (tmp / RESULT_FILE).write_text(text, encoding="utf-8")
            for name, text in csv_tables(result).items():
                (tmp / name).write_text(text, encoding="utf-8")


class PublishPerspective(Publisher):
    """`<scenario>/<split>.jsonl` per configured scenario and split and, where the split is judged, its tables
    (`<scenario>/<split>.<table>.csv`) and scores in the track's evaluation.json and evaluation.txt."""

    track = luigi.Parameter(default=TRACK, description="the perspective track")

    def requires(self) -> dict[str, dict[str, luigi.Task]]:
        section = load_experiment(self.runs_file).tracks[self.track]
        tasks = {}
        for scenario in section.scenarios:
            for split in section.splits:
                run = RankPerspective(
                    corpus=str(section.corpus),
                    language=section.language,
                    scenario=scenario,
                    split=split,
                    params=section.params,
                    depth=section.depth,
                    diversify=section.diversify,
                    implicit_stance=section.implicit_stance,
                    dictionaries=section.dictionaries,
                )
                tasks[f"{scenario}/{split}"] = {"run": run}
                if judged(str(section.corpus), scenario, split):
                    tasks[f"{scenario}/{split}"]["evaluation"] = run.clone(EvaluatePerspective)
        return tasks

    def publish(self, folder: Path) -> list[str]:
        files, evaluations = [], {}
        for name, tasks in self.input().items():
            files.append(copy_into(tasks["run"].path, folder, f"{name}.jsonl"))
            if "evaluation" in tasks:
                data = json.loads((Path(tasks["evaluation"].path) / RESULT_FILE).read_text(encoding="utf-8"))
                evaluations[name] = PerspectiveScores.from_json(data)
                tables = sorted(Path(tasks["evaluation"].path).glob("*.csv"))
                files += [copy_into(str(table), folder, f"{name}.{table.name}") for table in tables]
        if evaluations:
            means = {name: result.summary_json() for name, result in evaluations.items()}
            (folder / "evaluation.json").write_text(json.dumps(means, indent=2, sort_keys=True) + "\n", "utf-8")
            text = "\n\n".join(f"{name}\n{format_means(result)}" for name, result in evaluations.items())
            (folder / "evaluation.txt").write_text(text + "\n", "utf-8")
            files += ["evaluation.json", "evaluation.txt"]
        return files


TASKS = TrackTasks(ingest=IngestPerspective, publisher=PublishPerspective)
