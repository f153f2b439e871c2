"""The perspective track's stages after the shared index: rank each scenario's queries, evaluate them, publish.

One ranking per scenario and split; the ranking task reads the document table with only its scenario's columns
(`perspective_ranking.SCENARIO_COLUMNS`), so the rules hold by construction.
"""

from __future__ import annotations

import json
from pathlib import Path

import luigi
import pyarrow.parquet as pq
from luigi.util import inherits

from argrank.core.atomic import atomic_path
from argrank.core.fingerprint import file_digest
from argrank.index.store import load_index
from argrank.text.multilingual import make_analyzer
from argrank.tracks.perspective.crosslingual import build_ranker
from argrank.tracks.perspective.data import (
    CORPUS_FILE,
    query_file,
    read_corpus,
    read_predictions,
    read_queries,
    write_predictions,
)
from argrank.tracks.perspective.evaluation import csv_tables, evaluate_perspective
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
from argrank.tracks.perspective.translation import DICTIONARIES, dictionary_files, read_lexicon
from tasks.base import CachedTask, log
from tasks.index import BuildIndex
from tasks.ingest import INGESTS

TRACK = "perspective"
FIELDS = ("argument",)
RESULT_FILE = "evaluation.json"


class RankPerspective(CachedTask):
    """A scenario's queries of one split, each with its `depth` best arguments, as the task's JSONL."""

    corpus = luigi.Parameter(description="the release directory (corpus.jsonl and the query folders)")
    language = luigi.Parameter(default="de,fr,it", description="the corpus's languages, the majority first")
    scenario = luigi.ChoiceParameter(choices=list(SCENARIO_COLUMNS), description="baseline, explicit or implicit")
    split = luigi.Parameter(description="train, dev or test")
    params = luigi.DictParameter(default={}, description="the cross-lingual ranker's settings")
    depth = luigi.IntParameter(default=1000, description="arguments per query")
    diversify = luigi.FloatParameter(
        default=DEFAULT_DIVERSIFY, description="explicit scenario: weight of profile diversity, 0 to 1"
    )
    implicit_stance = luigi.BoolParameter(default=True, description="implicit scenario: read the stance label")
    dictionaries = luigi.Parameter(
        default=DICTIONARIES, description="folder of the FreeDict dictionaries questions are translated with"
    )

    track = TRACK
    stage = "rank"
    extension = ".jsonl"
    location_params = ("corpus", "dictionaries")

    def own_params(self) -> dict[str, str]:
        """The stance switch only where it matters: a baseline or explicit ranking keeps its cache path."""
        params = super().own_params()
        if self.scenario != "implicit":
            params.pop("implicit_stance")
        return params

    def requires(self) -> dict[str, luigi.Task]:
        index = BuildIndex(track=TRACK, corpus=self.corpus, language=self.language, fields=FIELDS)
        return {"index": index, "documents": INGESTS[TRACK](corpus=self.corpus, language=self.language)}

    def _languages(self) -> list[str]:
        return [code.strip() for code in self.language.split(",")]

    def _training_files(self) -> list[str]:
        return [str(query_file(self.corpus, scenario, "train")) for scenario in ("baseline", "explicit")]

    def input_digests(self) -> list[str]:
        files = (query_file(self.corpus, self.scenario, self.split), *self._training_files())
        dictionaries = dictionary_files(self.dictionaries, self._languages())
        return [*(file_digest(path) for path in (*files, *dictionaries)), METHOD]

    def run(self) -> None:
        index = load_index(self.input()["index"].path)
        analyzer = make_analyzer(self.language)
        positions = {int(doc): i for i, doc in enumerate(index.doc_ids.to_pylist())}
        baseline_training, perspective_training = (read_queries(path) for path in self._training_files())
        training = training_from_queries(baseline_training, perspective_training, lambda i: positions.get(i, -1))
        table = self.input()["documents"].path
        columns = allowed_columns(self.scenario, self.implicit_stance)
        documents = aligned(pq.read_table(table, columns=columns), index.doc_ids)
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
    """Relevance and diversity of one ranking against its queries' judgments: evaluation.json and the CSV tables."""

    track = TRACK
    stage = "evaluation"
    location_params = ("corpus",)

    def requires(self) -> luigi.Task:
        return self.clone(RankPerspective)

    def input_digests(self) -> list[str]:
        return [
            file_digest(query_file(self.corpus, self.scenario, self.split)),
            file_digest(Path(self.corpus) / CORPUS_FILE),
        ]

    def run(self) -> None:
        corpus = read_corpus(self.corpus)
        queries = read_queries(query_file(self.corpus, self.scenario, self.split), corpus)
        predictions = read_predictions(self.input().path, corpus)
        result = evaluate_perspective(corpus, queries, predictions, self.scenario)
        with atomic_path(self.output_path) as tmp:
            tmp.mkdir()
            text = json.dumps(result.to_json(), indent=2, sort_keys=True) + "\n"
            (tmp / RESULT_FILE).write_text(text, encoding="utf-8")
            for name, text in csv_tables(result).items():
                (tmp / name).write_text(text, encoding="utf-8")
