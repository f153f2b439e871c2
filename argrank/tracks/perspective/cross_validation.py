"""Cross-validation by issue on a release's training queries, with a lockbox: the protocol for tuning without the
dev split, and for predicting what the graph does on questions it has never seen.

An issue is one question asked in three languages with one relevant set, so its queries share their judgments:
held-out queries must be whole issues, or their own arguments would be among the training concepts. Issues are
the distinct relevant sets of the baseline training queries; a perspective query belongs to the issue its relevant
set overlaps most, as in `training_from_queries`.

- The lockbox: a quarter of the issues (8 of the release's 35) set aside by a rule that reads nothing but the
  judgments' ids, the issues whose SHA-256 of their sorted relevant ids sorts first. No setting, feature or default
  is chosen on them: they are ranked once, with everything learnt from all the other issues, as the dev split is
  ranked with everything learnt from the training split. Cross-validated figures are optimistic wherever a setting
  was chosen by looking at them; the lockbox's are not, so they are the estimate for unseen questions.
- The cross-validation: the other issues, sorted and dealt to folds round-robin (the same folds on every run), each
  fold ranked with what the other folds teach. It is where settings are compared.

Each held-out set is ranked exactly as `RankPerspective` ranks a split. The index is built once: it reads no
judgments. Figures are given over all held-out queries and per query language (detected from the question's stop
words), because a French or Italian question has to find the German majority of the corpus.

Beside ours, two reference rankings of the perspective queries: property-blind (the baseline scenario's ranking,
which ignores the query's property) and, for explicit, filter by property (that ranking with the arguments whose
author has the property ahead of all others, each group in its order).
"""

from __future__ import annotations

import hashlib
import math
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from argrank.core.errors import InputError
from argrank.core.parquet_file import read_parquet
from argrank.core.text_table import text_table
from argrank.index.build import index_codes, read_token_codes
from argrank.index.store import Index
from argrank.text.analyzer import Analyzer
from argrank.text.multilingual import MultilingualAnalyzer, make_analyzer
from argrank.text.tokenize import tokenize_table
from argrank.tracks.perspective.crosslingual import DEFAULTS, build_ranker
from argrank.tracks.perspective.data import SCENARIOS, Corpus, Query, query_file, read_corpus, read_queries
from argrank.tracks.perspective.evaluation import RELEVANCE, PerspectiveScores, at_every_k, evaluate_perspective
from argrank.tracks.perspective.ingest import TEXT, ingest_perspective
from argrank.tracks.perspective.property_accuracy import PropertyAccuracy, format_accuracy
from argrank.tracks.perspective.ranking import (
    DEFAULT_DIVERSIFY,
    PropertyEvidence,
    aligned,
    allowed_columns,
    rank_scenario,
    training_from_queries,
)
from argrank.tracks.perspective.training import Training
from argrank.tracks.perspective.translation import DICTIONARIES, Lexicon, read_lexicon

LANGUAGES = ("de", "fr", "it")  # RankPerspective's default, the majority first
DEPTH = 1000  # arguments per query, as RankPerspective ranks them
OURS, BLIND, FILTER = "ours", "property-blind", "filter by property"
TABLE = ("nDCG@4", "nDCG@8", "P@4", "alpha-nDCG@4", "rKL@4")
LANGUAGE_TABLE = ("nDCG@4", "nDCG@8", "P@4")
FOLD_MEASURE = "nDCG@4"
CROSS_VALIDATION, LOCKBOX = "cross-validation", "lockbox"


@dataclass(frozen=True)
class Fold:
    """One held-out set's issues (numbers into the sorted issues) and its training queries."""

    issues: list[int]
    baseline: list[Query]
    perspective: list[Query]

    def queries(self, scenario: str) -> list[Query]:
        return self.baseline if scenario == "baseline" else self.perspective


@dataclass(frozen=True)
class Split:
    """The cross-validation's folds and the lockbox (None where it is empty), over `issues` issues in all."""

    folds: list[Fold]
    lockbox: Fold | None
    issues: int


@dataclass(frozen=True)
class Settings:
    """How every fold is ranked, as RankPerspective's parameters of the same names say: the cross-lingual ranker's
    `params` (crosslingual.DEFAULTS where missing), the explicit scenario's `diversify` weight, the implicit
    scenario's `stance` switch and the folder of the dictionaries questions are translated with."""

    params: Mapping[str, float] = field(default_factory=dict)
    diversify: float = DEFAULT_DIVERSIFY
    stance: bool = True
    dictionaries: str = DICTIONARIES


@dataclass(frozen=True)
class Part:
    """One part of the protocol scored: each scenario's methods over every query its folds hold out (each query
    scored once, by the fold holding it out), and the implicit scenario's guesses of the property there."""

    name: str
    folds: list[Fold]
    scores: dict[str, dict[str, PerspectiveScores]]  # scenario → method → scores
    property_accuracy: dict[str, dict[str, float]]

    def fold_means(self, scenario: str, method: str, measure: str = FOLD_MEASURE) -> list[float]:
        """The mean of a relevance measure over each fold's queries (NaN for a fold without queries)."""
        per_query = self.scores[scenario][method].per_query
        return [_mean([per_query[query.query_id][measure] for query in fold.queries(scenario)]) for fold in self.folds]

    def language_means(self, scenario: str, method: str, language: Mapping[str, str]) -> dict[str, dict[str, float]]:
        """Per query language (in LANGUAGES order): its queries' count and the mean of every relevance measure."""
        per_query = self.scores[scenario][method].per_query
        grouped: dict[str, list[dict[str, float]]] = {}
        for fold in self.folds:
            for query in fold.queries(scenario):
                grouped.setdefault(language[query.text], []).append(per_query[query.query_id])
        return {
            name: {"queries": len(rows), **{measure: _mean([row[measure] for row in rows]) for measure in rows[0]}}
            for name, rows in sorted(grouped.items(), key=lambda item: _language_order(item[0]))
        }

    def to_json(self, language: Mapping[str, str]) -> dict[str, Any]:
        return {
            "folds": len(self.folds),
            "fold_issues": [fold.issues for fold in self.folds],
            "scenarios": {
                scenario: {
                    method: {
                        **result.summary_json(),
                        "per_fold": {name: self.fold_means(scenario, method, name) for name in at_every_k(RELEVANCE)},
                        "per_language": self.language_means(scenario, method, language),
                    }
                    for method, result in methods.items()
                }
                for scenario, methods in self.scores.items()
            },
            **({"implicit_property_accuracy": self.property_accuracy} if self.property_accuracy else {}),
        }


@dataclass(frozen=True)
class CrossValidation:
    """The protocol's parts (the cross-validation, then the lockbox where there is one) and each question's
    detected language."""

    parts: list[Part]
    issues: int
    lockbox_issues: list[int]
    language: dict[str, str]  # query text → language
    settings: Settings = Settings()
    dictionaries: tuple[str, ...] = ()  # the dictionary files read

    def part(self, name: str) -> Part:
        return next(part for part in self.parts if part.name == name)

    def to_json(self) -> dict[str, Any]:
        return {
            "settings": {"params": {**DEFAULTS, **self.settings.params}, "diversify": self.settings.diversify,
                         "implicit_stance": self.settings.stance, "dictionaries": list(self.dictionaries)},  # fmt: skip
            "issues": self.issues,
            "lockbox_issues": self.lockbox_issues,
            **{part.name: part.to_json(self.language) for part in self.parts},
        }


@dataclass(frozen=True)
class Release:
    """What every fold shares: the index, the document table in index order and the query analyzer."""

    index: Index
    documents: pa.Table
    positions: dict[int, int]  # argument id → document position
    analyzer: Analyzer | MultilingualAnalyzer
    lexicon: Lexicon  # the dictionaries questions are translated with

    def position(self, argument_id: int) -> int:
        return self.positions.get(argument_id, -1)


def default_lockbox(issues: int) -> int:
    """A quarter of the issues, rounded down: 8 of the release's 35, 1 of the embedded data's 4."""
    return issues // 4


def lockbox_issues(issues: Sequence[tuple[int, ...]], size: int) -> list[int]:
    """The numbers (into `issues`) of the `size` issues whose SHA-256 of their relevant ids, sorted and written as
    comma-separated decimals, sorts first: fixed by the judgments alone, chosen on no result."""
    digest = [hashlib.sha256(",".join(map(str, issue)).encode()).hexdigest() for issue in issues]
    return sorted(sorted(range(len(issues)), key=digest.__getitem__)[:size])


def split_by_issue(
    baseline: Sequence[Query], perspective: Sequence[Query], folds: int, source: Path, lockbox: int | None = None
) -> Split:
    """The judged training queries by issue: `lockbox` issues (default_lockbox where None) set aside, the others in
    `folds` folds; InputError where too few issues are left for the folds."""
    if folds < 2:
        raise ValueError(f"cross-validation needs at least 2 folds, got {folds}")
    judged = [query for query in baseline if query.relevant_candidates]
    issues = sorted({tuple(sorted(set(query.relevant_candidates))) for query in judged})
    size = default_lockbox(len(issues)) if lockbox is None else lockbox
    if size < 0:
        raise ValueError(f"the lockbox cannot hold {size} issues")
    if len(issues) - size < folds:
        kept = f" and a lockbox of {size}" if size else ""
        problem = f"{folds} folds{kept} need at least {folds + size} issues; the judged baseline training queries have"
        raise InputError(source, "", f"{problem} {len(issues)}")
    locked = lockbox_issues(issues, size)
    fold_of = {number: None for number in locked}
    for place, number in enumerate(n for n in range(len(issues)) if n not in fold_of):
        fold_of[number] = place % folds
    number = {issue: i for i, issue in enumerate(issues)}
    members = [set(issue) for issue in issues]
    held: dict[int | None, tuple[list[Query], list[Query]]] = {f: ([], []) for f in [*range(folds), None]}
    for query in judged:
        held[fold_of[number[tuple(sorted(set(query.relevant_candidates)))]]][0].append(query)
    for query in perspective:
        if query.relevant_candidates:
            relevant = set(query.relevant_candidates)
            issue = max(range(len(issues)), key=lambda i: len(relevant & members[i]))  # ties: the first issue
            held[fold_of[issue]][1].append(query)
    groups = {f: [n for n in range(len(issues)) if fold_of[n] == f] for f in held}
    cross = [Fold(groups[f], *held[f]) for f in range(folds)]
    return Split(cross, Fold(groups[None], *held[None]) if locked else None, len(issues))


def load_release(data_dir: str | Path, dictionaries: str | Path = DICTIONARIES) -> Release:
    """Ingest, tokenize and index the release as the graph's stages do (IngestPerspective, TokenizeDocuments,
    BuildIndex), in a temporary folder instead of the cache; read the dictionaries under `dictionaries`."""
    with tempfile.TemporaryDirectory(prefix="perspective-cv-") as tmp:
        table, tokens = Path(tmp) / "documents.parquet", Path(tmp) / "tokens.parquet"
        ingest_perspective(data_dir, table, LANGUAGES)
        analyzer = make_analyzer(",".join(LANGUAGES))
        tokenize_table(table, tokens, analyzer, [TEXT])
        index = index_codes(read_token_codes(tokens))
        documents = aligned(read_parquet(table), index.doc_ids)
    positions = {int(doc): i for i, doc in enumerate(index.doc_ids.to_pylist())}
    return Release(index, documents, positions, analyzer, read_lexicon(dictionaries, LANGUAGES))


def cross_validate(
    data_dir: str | Path,
    folds: int = 5,
    scenarios: Sequence[str] = SCENARIOS,
    settings: Settings = Settings(),
    lockbox: int | None = None,
) -> CrossValidation:
    """Rank each fold's held-out queries of every scenario with what the other folds teach, and the lockbox's with
    what all folds teach; score them all."""
    corpus = read_corpus(data_dir)
    baseline = read_queries(query_file(data_dir, "baseline", "train"), corpus)
    perspective = read_queries(query_file(data_dir, "explicit", "train"), corpus)
    split = split_by_issue(baseline, perspective, folds, Path(data_dir), lockbox)
    release = load_release(data_dir, settings.dictionaries)

    ranked = _Ranked(release, corpus, scenarios, settings)
    parts = [ranked.part(CROSS_VALIDATION, split.folds, split.folds)]
    if split.lockbox:
        parts.append(ranked.part(LOCKBOX, [split.lockbox], split.folds))
    detect = release.analyzer.detect  # as the ranking detects a question's language
    language = {query.text: detect(query.text) for query in (*baseline, *perspective)}
    locked = split.lockbox.issues if split.lockbox else []
    files = tuple(path.name for path in release.lexicon.files)
    return CrossValidation(parts, split.issues, locked, language, settings, files)


@dataclass(frozen=True)
class _Ranked:
    """What a part's rankings share: the release, its corpus, the scenarios and the settings."""

    release: Release
    corpus: Corpus
    scenarios: Sequence[str]
    settings: Settings

    def part(self, name: str, tests: list[Fold], pool: list[Fold]) -> Part:
        """Each of `tests` ranked with what the other folds of `pool` teach, every query scored."""
        rankings: dict[str, dict[str, dict[str, list[int]]]] = {scenario: {} for scenario in self.scenarios}
        accuracy = PropertyAccuracy()
        position = self.release.position
        for held_out in tests:
            others = [fold for fold in pool if fold is not held_out]
            baseline, perspective = [q for f in others for q in f.baseline], [q for f in others for q in f.perspective]
            training = training_from_queries(baseline, perspective, position)
            tested = training_from_queries(held_out.baseline, held_out.perspective, position)
            fold = _rank_fold(self.release, held_out, training, self.scenarios, self.settings, accuracy, tested)
            for scenario, methods in fold.items():
                for method, ranked in methods.items():
                    rankings[scenario].setdefault(method, {}).update(ranked)
        queries = {scenario: [q for fold in tests for q in fold.queries(scenario)] for scenario in rankings}
        scores = {
            scenario: {
                method: evaluate_perspective(self.corpus, queries[scenario], ranked, scenario)
                for method, ranked in methods.items()
            }
            for scenario, methods in rankings.items()
        }
        return Part(name, tests, scores, accuracy.table())


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
    ranker = build_ranker(
        index, languages, categories, training.issues, dict(settings.params), analyzer, release.lexicon,
        training.questions,
    )  # fmt: skip

    @cache
    def score(text: str) -> np.ndarray:
        scores = ranker.score_text(text)
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


def _language_order(language: str) -> int:
    return LANGUAGES.index(language) if language in LANGUAGES else len(LANGUAGES)


def format_cross_validation(result: CrossValidation) -> str:
    """Per part and scenario, a row per method (the TABLE measures over all held-out queries and the mean ± sample
    standard deviation of the folds' FOLD_MEASURE) and a row per method and query language."""
    settings = result.settings
    params = ", ".join(f"{name} {value:g}" for name, value in {**DEFAULTS, **settings.params}.items())
    stance = "reads" if settings.stance else "does not read"
    blocks = [f"ranker: {params}; explicit diversify {settings.diversify:g}; implicit {stance} the stance label"]
    files = ", ".join(result.dictionaries) or "none"
    blocks[0] += f"\ndictionaries under {settings.dictionaries}: {files}"
    for part in result.parts:
        for scenario, methods in part.scores.items():
            queries = next(iter(methods.values())).queries
            rows = [["method", *TABLE, f"{FOLD_MEASURE} per fold"]]
            by_language = [["method", "language", "queries", *LANGUAGE_TABLE]]
            for method, scores in methods.items():
                folds = [value for value in part.fold_means(scenario, method) if not math.isnan(value)]
                spread = f"{np.mean(folds):.4f} ± {np.std(folds, ddof=1) if len(folds) > 1 else 0.0:.4f}"
                rows.append([method, *(f"{scores.means[name]:.4f}" for name in TABLE), spread])
                for language, means in part.language_means(scenario, method, result.language).items():
                    figures = (f"{means[name]:.4f}" for name in LANGUAGE_TABLE)
                    by_language.append([method, language, str(means["queries"]), *figures])
            blocks.append(f"{_title(result, part, scenario, queries)}\n{text_table(rows)}\n{text_table(by_language)}")
        if part.property_accuracy:
            title = f"{part.name}, implicit: its guesses of the query's property on held-out issues' judged arguments"
            blocks.append(f"{title}\n{format_accuracy(part.property_accuracy)}")
    return "\n\n".join(blocks)


def _title(result: CrossValidation, part: Part, scenario: str, queries: int) -> str:
    if part.name == LOCKBOX:
        locked = result.lockbox_issues
        issues = f"issue{'s' if len(locked) > 1 else ''} {', '.join(map(str, locked))}"
        trained = result.issues - len(locked)
        return f"{LOCKBOX}, {scenario}: {queries} queries of {issues}, learnt from the other {trained} issues"
    issues = sum(len(fold.issues) for fold in part.folds)
    return f"{CROSS_VALIDATION}, {scenario}: {queries} held-out queries, {len(part.folds)} folds over {issues} issues"
