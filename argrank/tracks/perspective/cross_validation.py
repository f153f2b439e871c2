"""Cross-validation by issue on a release's training queries: the protocol for tuning without the dev split.

An issue is one question asked in three languages with one relevant set, so its queries share their judgments:
held-out queries must be whole issues, or their own arguments would be among the training concepts. Issues are
the distinct relevant sets of the baseline training queries, sorted and dealt to folds round-robin (the same
folds on every run); a perspective query belongs to the issue its relevant set overlaps most, as in
`training_from_queries`. Each fold is ranked exactly as `RankPerspective` ranks a split, with a ranker and property
evidence learned from the other folds' queries only. The index is built once: it reads no judgments.

Beside ours, two reference rankings of the perspective queries: property-blind (the baseline scenario's ranking,
which ignores the query's property) and, for explicit, filter by property (that ranking with the arguments whose
author has the property ahead of all others, each group in its order).
"""

from __future__ import annotations

import math
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from argrank.core.errors import InputError
from argrank.core.text_table import text_table
from argrank.index.build import build_index, read_tokens
from argrank.index.store import Index
from argrank.text.analyzer import Analyzer
from argrank.text.multilingual import MultilingualAnalyzer, make_analyzer
from argrank.text.tokenize import tokenize_table
from argrank.tracks.perspective.crosslingual import DEFAULTS, build_ranker
from argrank.tracks.perspective.data import SCENARIOS, Query, query_file, read_corpus, read_queries
from argrank.tracks.perspective.evaluation import RELEVANCE, PerspectiveScores, at_every_k, evaluate_perspective
from argrank.tracks.perspective.ingest import TEXT, ingest_perspective
from argrank.tracks.perspective.property_accuracy import PropertyAccuracy, format_accuracy
from argrank.tracks.perspective.ranking import (
    DEFAULT_DIVERSIFY,
    PropertyEvidence,
    Training,
    aligned,
    allowed_columns,
    rank_scenario,
    training_from_queries,
)

LANGUAGES = ("de", "fr", "it")  # RankPerspective's default, the majority first
DEPTH = 1000  # arguments per query, as RankPerspective ranks them
OURS, BLIND, FILTER = "ours", "property-blind", "filter by property"
TABLE = ("nDCG@4", "nDCG@8", "P@4", "alpha-nDCG@4", "rKL@4")
FOLD_MEASURE = "nDCG@4"


@dataclass(frozen=True)
class Fold:
    """One fold's issues (numbers into the sorted issues) and its held-out training queries."""

    issues: list[int]
    baseline: list[Query]
    perspective: list[Query]

    def queries(self, scenario: str) -> list[Query]:
        return self.baseline if scenario == "baseline" else self.perspective


@dataclass(frozen=True)
class Settings:
    """How every fold is ranked, as RankPerspective's parameters of the same names say: the cross-lingual ranker's
    `params` (crosslingual.DEFAULTS where missing), the explicit scenario's `diversify` weight and the implicit
    scenario's `stance` switch."""

    params: Mapping[str, float] = field(default_factory=dict)
    diversify: float = DEFAULT_DIVERSIFY
    stance: bool = True


@dataclass(frozen=True)
class CrossValidation:
    """Each scenario's methods scored over every held-out query (each scored once, by the fold holding it out)."""

    folds: list[Fold]
    issues: int
    scores: dict[str, dict[str, PerspectiveScores]]  # scenario → method → scores
    property_accuracy: dict[str, dict[str, float]]  # the implicit scenario's guesses on held-out issues, per key
    settings: Settings = Settings()

    def fold_means(self, scenario: str, method: str, measure: str = FOLD_MEASURE) -> list[float]:
        """The mean of a relevance measure over each fold's queries (NaN for a fold without queries)."""
        per_query = self.scores[scenario][method].per_query
        return [_mean([per_query[query.query_id][measure] for query in fold.queries(scenario)]) for fold in self.folds]

    def to_json(self) -> dict[str, Any]:
        return {
            "settings": {"params": {**DEFAULTS, **self.settings.params}, "diversify": self.settings.diversify,
                         "implicit_stance": self.settings.stance},  # fmt: skip
            "folds": len(self.folds),
            "issues": self.issues,
            "fold_issues": [fold.issues for fold in self.folds],
            "scenarios": {
                scenario: {
                    method: {
                        **result.summary_json(),
                        "per_fold": {name: self.fold_means(scenario, method, name) for name in at_every_k(RELEVANCE)},
                    }
                    for method, result in methods.items()
                }
                for scenario, methods in self.scores.items()
            },
            **({"implicit_property_accuracy": self.property_accuracy} if self.property_accuracy else {}),
        }


@dataclass(frozen=True)
class Release:
    """What every fold shares: the index, the document table in index order and the query analyzer."""

    index: Index
    documents: pa.Table
    positions: dict[int, int]  # argument id → document position
    analyzer: Analyzer | MultilingualAnalyzer

    def position(self, argument_id: int) -> int:
        return self.positions.get(argument_id, -1)


def split_by_issue(baseline: Sequence[Query], perspective: Sequence[Query], folds: int, source: Path) -> list[Fold]:
    """The judged training queries in `folds` folds by issue; InputError where there are fewer issues than folds."""
    if folds < 2:
        raise ValueError(f"cross-validation needs at least 2 folds, got {folds}")
    judged = [query for query in baseline if query.relevant_candidates]
    issues = sorted({tuple(sorted(set(query.relevant_candidates))) for query in judged})
    if len(issues) < folds:
        problem = f"{folds} folds need at least {folds} issues; the judged baseline training queries have {len(issues)}"
        raise InputError(source, "", problem)
    number = {issue: i for i, issue in enumerate(issues)}
    members = [set(issue) for issue in issues]
    held_baseline: list[list[Query]] = [[] for _ in range(folds)]
    held_perspective: list[list[Query]] = [[] for _ in range(folds)]
    for query in judged:
        held_baseline[number[tuple(sorted(set(query.relevant_candidates)))] % folds].append(query)
    for query in perspective:
        if query.relevant_candidates:
            relevant = set(query.relevant_candidates)
            issue = max(range(len(issues)), key=lambda i: len(relevant & members[i]))  # ties: the first issue
            held_perspective[issue % folds].append(query)
    return [Fold(list(range(f, len(issues), folds)), held_baseline[f], held_perspective[f]) for f in range(folds)]


def load_release(data_dir: str | Path) -> Release:
    """Ingest, tokenize and index the release as the graph's stages do (IngestPerspective, TokenizeDocuments,
    BuildIndex), in a temporary folder instead of the cache."""
    with tempfile.TemporaryDirectory(prefix="perspective-cv-") as tmp:
        table, tokens = Path(tmp) / "documents.parquet", Path(tmp) / "tokens.parquet"
        ingest_perspective(data_dir, table, LANGUAGES)
        analyzer = make_analyzer(",".join(LANGUAGES))
        tokenize_table(table, tokens, analyzer, [TEXT])
        index = build_index(*read_tokens(tokens))
        documents = aligned(pq.read_table(table), index.doc_ids)
    positions = {int(doc): i for i, doc in enumerate(index.doc_ids.to_pylist())}
    return Release(index, documents, positions, analyzer)


def cross_validate(
    data_dir: str | Path, folds: int = 5, scenarios: Sequence[str] = SCENARIOS, settings: Settings = Settings()
) -> CrossValidation:
    """Rank each fold's held-out queries of every scenario with what the other folds teach, then score them all."""
    corpus = read_corpus(data_dir)
    baseline = read_queries(query_file(data_dir, "baseline", "train"), corpus)
    perspective = read_queries(query_file(data_dir, "explicit", "train"), corpus)
    split = split_by_issue(baseline, perspective, folds, Path(data_dir))
    release = load_release(data_dir)
    rankings: dict[str, dict[str, dict[str, list[int]]]] = {scenario: {} for scenario in scenarios}
    accuracy = PropertyAccuracy()
    for held_out in split:
        others = [fold for fold in split if fold is not held_out]
        training = training_from_queries(
            [q for fold in others for q in fold.baseline], [q for fold in others for q in fold.perspective],
            release.position,
        )  # fmt: skip
        tested = training_from_queries(held_out.baseline, held_out.perspective, release.position)
        ranked_fold = _rank_fold(release, held_out, training, scenarios, settings, accuracy, tested)
        for scenario, methods in ranked_fold.items():
            for method, ranked in methods.items():
                rankings[scenario].setdefault(method, {}).update(ranked)
    scores = {
        scenario: {
            method: evaluate_perspective(
                corpus, [q for fold in split for q in fold.queries(scenario)], ranked, scenario
            )
            for method, ranked in methods.items()
        }
        for scenario, methods in rankings.items()
    }
    issues = len({i for fold in split for i in fold.issues})
    return CrossValidation(split, issues, scores, accuracy.table(), settings)


def _rank_fold(
    release: Release,
    fold: Fold,
    training: Training,
    scenarios: Sequence[str],
    settings: Settings,
    accuracy: PropertyAccuracy,
    tested: Training,
) -> dict[str, dict[str, dict[str, list[int]]]]:
    """Scenario → method → query id → ranked argument ids, for one fold's held-out queries (RankPerspective.run's
    steps, with the ranker built once for the fold's scenarios); the implicit scenario's guesses are scored on the
    held-out examples `tested` into `accuracy`. The ranker's scores are kept per distinct query
    (read-only): the release's perspective queries ask its 105 questions again and again, each ranked three times."""
    index, documents, analyzer = release.index, release.documents, release.analyzer
    languages, categories = (documents.column(name).to_pylist() for name in ("language", "topic"))
    ranker = build_ranker(index, languages, categories, training.issues, dict(settings.params))

    @cache
    def score(text: str) -> np.ndarray:
        scores = ranker.score(index.vocabulary.ids(analyzer.analyze(text)), training.questions.get(text))
        scores.setflags(write=False)
        return scores

    stance = settings.stance

    def rank(queries: list[Query], scenario: str, diversity: float = 0.0) -> dict[str, list[int]]:
        evidence = PropertyEvidence(
            scenario, documents.select(allowed_columns(scenario, stance)), training, stance=stance
        )  # fmt: skip
        if evidence.guesser:
            accuracy.add(evidence.guesser.probability, tested)
        return rank_scenario(queries, score, evidence, index.doc_ids, DEPTH, diversity)

    rankings = {}
    blind = rank(fold.perspective, "baseline") if set(scenarios) - {"baseline"} else {}
    for scenario in scenarios:
        ours = rank(fold.queries(scenario), scenario, settings.diversify if scenario == "explicit" else 0.0)
        rankings[scenario] = {OURS: ours} if scenario == "baseline" else {OURS: ours, BLIND: blind}
        if scenario == "explicit":
            profiles = PropertyEvidence("explicit", documents.select(allowed_columns("explicit")), training)
            rankings[scenario][FILTER] = {
                query.query_id: filter_by_property(blind[query.query_id], profiles(*_property(query)), release.position)
                for query in fold.perspective
            }
    return rankings


def filter_by_property(ranking: list[int], has: np.ndarray, position: Callable[[int], int]) -> list[int]:
    """`ranking` with the arguments whose author has the property (`has`, by document position) ahead of the
    others, each group in ranking order."""
    ahead = [argument for argument in ranking if has[position(argument)]]
    return ahead + [argument for argument in ranking if not has[position(argument)]]


def _property(query: Query) -> tuple[str, str]:
    ((key, value),) = query.demographic_property.items()
    return key, value


def _mean(values: list[float]) -> float:
    return math.fsum(values) / len(values) if values else math.nan


def format_cross_validation(result: CrossValidation) -> str:
    """One table per scenario: a row per method, the TABLE measures over all held-out queries and the mean ± sample
    standard deviation of the folds' FOLD_MEASURE."""
    settings = result.settings
    params = ", ".join(f"{name} {value:g}" for name, value in {**DEFAULTS, **settings.params}.items())
    stance = "reads" if settings.stance else "does not read"
    blocks = [f"ranker: {params}; explicit diversify {settings.diversify:g}; implicit {stance} the stance label"]
    for scenario, methods in result.scores.items():
        queries = next(iter(methods.values())).queries
        header = ["method", *TABLE, f"{FOLD_MEASURE} per fold"]
        rows = [header]
        for method, scores in methods.items():
            folds = [value for value in result.fold_means(scenario, method) if not math.isnan(value)]
            spread = f"{np.mean(folds):.4f} ± {np.std(folds, ddof=1) if len(folds) > 1 else 0.0:.4f}"
            rows.append([method, *(f"{scores.means[name]:.4f}" for name in TABLE), spread])
        title = f"{scenario}: {queries} held-out queries, {len(result.folds)} folds over {result.issues} issues"
        blocks.append(f"{title}\n{text_table(rows)}")
    if result.property_accuracy:
        title = "implicit: its guesses of the query's property on held-out issues' judged arguments"
        blocks.append(f"{title}\n{format_accuracy(result.property_accuracy)}")
    return "\n\n".join(blocks)
