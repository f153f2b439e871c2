"""Nested cross-validation by issue on a release's training queries, with a lockbox: the protocol for tuning without
the dev split, and for predicting what the graph does on questions it has never seen.

An issue is one question asked in three languages with one relevant set, so its queries share their judgments:
held-out queries must be whole issues, or their own arguments would be among the training concepts. Issues are
the distinct relevant sets of the baseline training queries; a perspective query belongs to the issue its relevant
set overlaps most, as in `training_from_queries`.

- The lockbox: a quarter of the issues (8 of the release's 35) set aside by a rule that reads nothing but the
  judgments' ids, the issues whose SHA-256 of their sorted relevant ids sorts first. Nothing is chosen on them:
  they are ranked once, with the settings the cross-validation's issues choose (tuning.py, over all its folds) and
  everything learnt from those issues, as the dev split is ranked with everything learnt from the training split.
- The cross-validation: the other issues, sorted and dealt to folds round-robin (the same folds on every run). Each
  outer fold is ranked with what the other folds teach, with the settings *they* choose: the inner folds are the
  other outer folds, each scored with what the rest of them teach, so no held-out issue takes part in choosing
  how it is ranked. The headline is the outer figure (`cv_mean`: every held-out query scored once), beside the
  inner one (`cv_inner_mean`: each fold's choice's inner figure, averaged over folds) and the spread of the folds'
  figures (`cv_spread`), as the fusion tuning's report names them (argrank/evaluation/fusion_tuning.py).

Each held-out set is ranked exactly as `RankPerspective` ranks a split with the chosen settings. The index is built
once, and a question's first-pass matches are computed once: neither reads judgments. Figures are given over all
held-out queries and per query language (detected from the question's stop words), because a French or Italian
question has to find the German majority of the corpus.

Beside ours, two reference rankings of the perspective queries: property-blind (the baseline scenario's ranking,
which ignores the query's property) and, for explicit, filter by property (that ranking with the arguments whose
author has the property ahead of all others, each group in its order).
"""

from __future__ import annotations

import hashlib
import math
import tempfile
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from argrank.core.errors import InputError
from argrank.core.parquet_file import read_parquet
from argrank.core.text_table import text_table
from argrank.evaluation.folds import fold_spread
from argrank.index.build import index_codes, read_token_codes
from argrank.index.store import Index
from argrank.text.analyzer import Analyzer
from argrank.text.multilingual import MultilingualAnalyzer, make_analyzer
from argrank.text.tokenize import tokenize_table
from argrank.tracks.perspective.crosslingual import DEFAULTS, CrossLingualRanker, Matcher, build_matcher, build_ranker
from argrank.tracks.perspective.data import SCENARIOS, Corpus, Query, query_file, read_corpus, read_queries
from argrank.tracks.perspective.evaluation import RELEVANCE, PerspectiveScores, at_every_k, evaluate_perspective
from argrank.tracks.perspective.ingest import TEXT, ingest_perspective
from argrank.tracks.perspective.property_accuracy import PropertyAccuracy, format_accuracy
from argrank.tracks.perspective.property_guess import TextFeatures, examples, judged_arguments, text_features
from argrank.tracks.perspective.ranking import (
    DIVERSITY_VARIABLES,
    PropertyEvidence,
    aligned,
    allowed_columns,
    rank_scenario,
    training_from_queries,
)
from argrank.tracks.perspective.training import Training
from argrank.tracks.perspective.translation import DICTIONARIES, Lexicon, read_lexicon
from argrank.tracks.perspective.tuning import DIVERSIFY_GRID, DIVERSIFY_TOLERANCE, TUNED, Choice, Tuner

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
    """What the command fixes, as RankPerspective's parameters of the same names say: ranker `params` (those given
    are not tuned; the others are chosen in inner folds from tuning.GRID, crosslingual.DEFAULTS beyond it), the
    explicit scenario's `diversify` weight (None: chosen), the implicit scenario's `stance` switch and the folder of
    the dictionaries questions are translated with."""

    params: Mapping[str, float] = field(default_factory=dict)
    diversify: float | None = None
    stance: bool = True
    dictionaries: str = DICTIONARIES


@dataclass(frozen=True)
class Part:
    """One part of the protocol scored: each scenario's methods over every query its folds hold out (each query
    scored once, by the fold holding it out, with that fold's choice), and the implicit scenario's guesses of the
    property there. `languages` gives each query's language, by query file ("baseline" or "perspective") and id."""

    name: str
    folds: list[Fold]
    choices: list[Choice]
    scores: dict[str, dict[str, PerspectiveScores]]  # scenario → method → scores
    property_accuracy: dict[str, dict[str, float]]
    languages: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def language_of(self, scenario: str, query_id: str) -> str:
        return self.languages[_file(scenario)][query_id]

    def fold_means(
        self, scenario: str, method: str, measure: str = FOLD_MEASURE, language: str | None = None
    ) -> list[float]:
        """The mean of a relevance measure over each fold's queries (of `language` only, where given; NaN for a
        fold without any)."""
        per_query = self.scores[scenario][method].per_query
        return [_mean([per_query[q][measure] for q in self._held_out(fold, scenario, language)]) for fold in self.folds]

    def inner_means(self, scenario: str, language: str | None = None) -> list[float]:
        """Each fold's choice's inner nDCG@4 for a scenario (its `language` questions only, where given); NaN where
        the fold chose nothing or the scenario is not tuned."""
        means = []
        for choice in self.choices:
            scores = choice.inner.get(scenario, {})
            kept = [v for q, v in scores.items() if language is None or self.language_of(scenario, q) == language]
            means.append(_mean(kept))
        return means

    def summary(self, scenario: str, language: str | None = None) -> dict[str, Any]:
        """Ours, nested (of `language`'s questions, where given): `cv_mean` (the outer figure, every held-out query
        once), `cv_inner_mean` (the folds' inner figures, averaged over the folds that have one) and `cv_spread`
        (sample sd, min and max of the folds' outer figures)."""
        per_query = self.scores[scenario][OURS].per_query
        queries = [q for fold in self.folds for q in self._held_out(fold, scenario, language)]
        folds = [value for value in self.fold_means(scenario, OURS, FOLD_MEASURE, language) if not math.isnan(value)]
        inner = [value for value in self.inner_means(scenario, language) if not math.isnan(value)]
        return {
            "queries": len(queries), "cv_mean": _mean([per_query[q][FOLD_MEASURE] for q in queries]),
            "cv_inner_mean": _mean(inner), "cv_spread": fold_spread(folds),
        }  # fmt: skip

    def language_means(self, scenario: str, method: str) -> dict[str, dict[str, float]]:
        """Per query language (in LANGUAGES order): its queries' count and the mean of every relevance measure."""
        per_query = self.scores[scenario][method].per_query
        grouped: dict[str, list[dict[str, float]]] = {}
        for fold in self.folds:
            for query in fold.queries(scenario):
                grouped.setdefault(self.language_of(scenario, query.query_id), []).append(per_query[query.query_id])
        return {
            name: {"queries": len(rows), **{measure: _mean([row[measure] for row in rows]) for measure in rows[0]}}
            for name, rows in sorted(grouped.items(), key=lambda item: _language_order(item[0]))
        }

    def to_json(self, grid: Mapping[str, Sequence[float]]) -> dict[str, Any]:
        def method_json(scenario: str, method: str, result: PerspectiveScores) -> dict[str, Any]:
            ours = method == OURS
            languages = {
                name: {**row, **(_json_numbers(self.summary(scenario, name)) if ours else {})}
                for name, row in self.language_means(scenario, method).items()
            }
            return {
                **result.summary_json(), **(_json_numbers(self.summary(scenario)) if ours else {}),
                "per_fold": {name: self.fold_means(scenario, method, name) for name in at_every_k(RELEVANCE)},
                **({"per_fold_inner": [_json_number(v) for v in self.inner_means(scenario)]} if ours else {}),
                "per_language": languages,
            }  # fmt: skip

        return {
            "folds": len(self.folds),
            "fold_issues": [fold.issues for fold in self.folds],
            "choices": [choice.to_json(grid) for choice in self.choices],
            "scenarios": {
                scenario: {method: method_json(scenario, method, result) for method, result in methods.items()}
                for scenario, methods in self.scores.items()
            },
            **({"implicit_property_accuracy": self.property_accuracy} if self.property_accuracy else {}),
        }

    def _held_out(self, fold: Fold, scenario: str, language: str | None) -> list[str]:
        return [
            query.query_id for query in fold.queries(scenario)
            if language is None or self.language_of(scenario, query.query_id) == language
        ]  # fmt: skip


@dataclass(frozen=True)
class CrossValidation:
    """The protocol's parts (the cross-validation, then the lockbox where there is one), each question's detected
    language, what was fixed and what the inner folds chose from."""

    parts: list[Part]
    issues: int
    lockbox_issues: list[int]
    language: dict[str, str]  # query text → language
    settings: Settings = Settings()
    dictionaries: tuple[str, ...] = ()  # the dictionary files read
    grid: Mapping[str, Sequence[float]] = field(default_factory=dict)  # the ranker settings chosen in inner folds

    def part(self, name: str) -> Part:
        return next(part for part in self.parts if part.name == name)

    def fixed(self) -> dict[str, float]:
        """The ranker settings no inner fold chose: given, or the defaults."""
        return {name: value for name, value in {**DEFAULTS, **self.settings.params}.items() if name not in self.grid}

    def to_json(self) -> dict[str, Any]:
        diversify = self.settings.diversify
        return {
            "settings": {
                "fixed": self.fixed(), "grid": {name: list(values) for name, values in self.grid.items()},
                "diversify": list(DIVERSIFY_GRID) if diversify is None else diversify,
                "diversify_tolerance": DIVERSIFY_TOLERANCE, "measure": FOLD_MEASURE, "tuned_on": list(TUNED),
                "implicit_stance": self.settings.stance, "dictionaries": list(self.dictionaries),
            },
            "issues": self.issues,
            "lockbox_issues": self.lockbox_issues,
            **{part.name: part.to_json(self.grid) for part in self.parts},
        }  # fmt: skip


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
    """Choose settings in each outer fold's inner folds and rank its held-out queries of every scenario with them
    and what the other folds teach; choose on all folds for the lockbox, ranked with what they all teach; score
    every held-out query once."""
    corpus = read_corpus(data_dir)
    baseline = read_queries(query_file(data_dir, "baseline", "train"), corpus)
    perspective = read_queries(query_file(data_dir, "explicit", "train"), corpus)
    split = split_by_issue(baseline, perspective, folds, Path(data_dir), lockbox)
    release = load_release(data_dir, settings.dictionaries)
    detect = release.analyzer.detect  # as the ranking detects a question's language
    language = {query.text: detect(query.text) for query in (*baseline, *perspective)}
    languages = {"baseline": {q.query_id: language[q.text] for q in baseline},
                 "perspective": {q.query_id: language[q.text] for q in perspective}}  # fmt: skip

    trained = _Trained(release, split, settings)
    tuner = trained.tuner()
    everything = frozenset(range(folds))
    outer = [tuner.choose(sorted(everything - {number})) for number in range(folds)]
    ranked = _Ranked(release, corpus, scenarios, settings, trained, languages)
    parts = [ranked.part(CROSS_VALIDATION, split.folds, [everything - {n} for n in range(folds)], outer)]
    if split.lockbox:
        parts.append(ranked.part(LOCKBOX, [split.lockbox], [everything], [tuner.choose(sorted(everything))]))
    locked = split.lockbox.issues if split.lockbox else []
    files = tuple(path.name for path in release.lexicon.files)
    return CrossValidation(parts, split.issues, locked, language, settings, files, tuner.grid)


class _Trained:
    """What trainings on sets of the cross-validation's folds share, each computed once: the first pass's matcher
    and every question's matches (no judgment read), per set of folds its training and ranker, the explicit
    scenario's property holders and diversity values, and the implicit guess's text features."""

    def __init__(self, release: Release, split: Split, settings: Settings):
        self.release, self.split, self.settings = release, split, settings
        documents = release.documents
        self.languages, self.topics = (documents.column(name).to_pylist() for name in ("language", "topic"))
        params = {**DEFAULTS, **settings.params}
        self.matcher: Matcher = build_matcher(release.index, params, release.analyzer, release.lexicon, self.languages)
        self.matches = cache(self.matcher.matches)
        self.profiles = PropertyEvidence("explicit", documents.select(allowed_columns("explicit")), Training([], {}))
        # An argument id's document position (-1 for none) without a Python call per id: trainings read millions.
        self.position: Callable[[int], int] = defaultdict(lambda: -1, release.positions).__getitem__
        self._trainings: dict[frozenset[int], Training] = {}
        self._rankers: dict[frozenset[int], CrossLingualRanker] = {}
        self._features = None

    def training(self, folds: frozenset[int]) -> Training:
        if folds not in self._trainings:
            chosen = [fold for number, fold in enumerate(self.split.folds) if number in folds]
            baseline, perspective = [q for f in chosen for q in f.baseline], [q for f in chosen for q in f.perspective]
            self._trainings[folds] = training_from_queries(baseline, perspective, self.position)
        return self._trainings[folds]

    def ranker(self, folds: frozenset[int], params: Mapping[str, float] | None = None) -> CrossLingualRanker:
        """The ranker trained on `folds`, with `params` (the fixed settings and defaults where None)."""
        if folds not in self._rankers:
            training = self.training(folds)
            self._rankers[folds] = build_ranker(
                self.release.index, self.languages, self.topics, training.issues, {**DEFAULTS, **self.settings.params},
                questions=training.questions, matcher=self.matcher,
            )  # fmt: skip
        ranker = self._rankers[folds]
        if params is None:
            return ranker
        return replace(ranker, weights=(params["concept_weight"], params["category_weight"]),
                       translation=params["translation"], feedback=int(params["feedback"]),
                       penalty=params["other_issue_penalty"])  # fmt: skip

    def score(self, ranker: CrossLingualRanker) -> Callable[[str], np.ndarray]:
        """`ranker.score_text` from the shared matches."""
        return lambda text: ranker.combine(ranker.parts(self.matches(text), ranker.questions.get(text)))

    def features(self) -> TextFeatures:
        """The implicit guess's text features, computed on first use, with the nearest judged arguments of every
        training the parts rank with (each outer fold's other folds, and all folds for the lockbox)."""
        if self._features is None:
            everything = frozenset(range(len(self.split.folds)))
            trainings = [everything - {number} for number in sorted(everything)]
            trainings += [everything] if self.split.lockbox else []
            judged = [judged_arguments(examples(self.training(folds))) for folds in trainings]
            matrix = text_features(self.release.documents.column("argument").to_pylist())
            self._features = TextFeatures(matrix, judged)
        return self._features

    def fold(self, number: int) -> tuple[list[Query], list[Query]]:
        """A cross-validation fold's baseline and perspective queries."""
        return self.split.folds[number].baseline, self.split.folds[number].perspective

    def tuner(self) -> Tuner:
        """The inner folds' chooser over these trainings, with the settings the command fixes."""
        values = {name: self.profiles.values(name) for name in DIVERSITY_VARIABLES}
        return Tuner(self.fold, self.ranker, self.matches, self.profiles, values, self.position,
                     self.settings.params, self.settings.diversify)  # fmt: skip


@dataclass(frozen=True)
class _Ranked:
    """What a part's rankings share: the release, its corpus, the scenarios, the settings, the trainings and each
    query's language."""

    release: Release
    corpus: Corpus
    scenarios: Sequence[str]
    settings: Settings
    trained: _Trained
    languages: Mapping[str, Mapping[str, str]]

    def part(self, name: str, tests: list[Fold], trainings: list[frozenset[int]], choices: list[Choice]) -> Part:
        """Each of `tests` ranked with what its training folds teach and its choice, every query scored."""
        rankings: dict[str, dict[str, dict[str, list[int]]]] = {scenario: {} for scenario in self.scenarios}
        accuracy = PropertyAccuracy()
        position = self.trained.position
        for held_out, folds, choice in zip(tests, trainings, choices):
            training = self.trained.training(folds)
            ranker = self.trained.ranker(folds, choice.params)
            tested = training_from_queries(held_out.baseline, held_out.perspective, position)
            settings = replace(self.settings, params=choice.params, diversify=choice.diversify)
            fold = _rank_fold(self.release, held_out, training, self.scenarios, settings, accuracy, tested,
                              self.trained.score(ranker), self.trained.features)  # fmt: skip
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
        return Part(name, tests, choices, scores, accuracy.table(), self.languages)


def _rank_fold(
    release: Release,
    fold: Fold,
    training: Training,
    scenarios: Sequence[str],
    settings: Settings,
    accuracy: PropertyAccuracy,
    tested: Training,
    ranker_score: Callable[[str], np.ndarray],
    features: Callable[[], TextFeatures],
) -> dict[str, dict[str, dict[str, list[int]]]]:
    """Scenario → method → query id → ranked argument ids, for one fold's held-out queries (RankPerspective.run's
    steps with `settings`, the ranker's `ranker_score` of a text shared by the fold's scenarios); the implicit
    scenario's guesses (on `features`' text features) are scored on the held-out examples `tested` into
    `accuracy`. The ranker's scores are kept per distinct query (read-only): the release's perspective queries ask
    its 105 questions again and again, each ranked three times."""
    index, documents = release.index, release.documents

    @cache
    def score(text: str) -> np.ndarray:
        scores = ranker_score(text)
        scores.setflags(write=False)
        return scores

    stance = settings.stance

    def rank(queries: list[Query], scenario: str, diversity: float = 0.0) -> dict[str, list[int]]:
        shared = features() if scenario == "implicit" else None
        evidence = PropertyEvidence(
            scenario, documents.select(allowed_columns(scenario, stance)), training, stance=stance, features=shared
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


def _file(scenario: str) -> str:
    return "baseline" if scenario == "baseline" else "perspective"


def _mean(values: list[float]) -> float:
    return math.fsum(values) / len(values) if values else math.nan


def _json_number(value: float) -> float | None:
    return None if math.isnan(value) else value


def _json_numbers(summary: dict[str, Any]) -> dict[str, Any]:
    """A summary with NaN as null (JSON has no NaN)."""
    return {
        name: {k: _json_number(v) for k, v in value.items()} if isinstance(value, dict)
        else _json_number(value) if isinstance(value, float) else value
        for name, value in summary.items()
    }  # fmt: skip


def _language_order(language: str) -> int:
    return LANGUAGES.index(language) if language in LANGUAGES else len(LANGUAGES)


def format_cross_validation(result: CrossValidation) -> str:
    """What was fixed and chosen from, each fold's choice; then per part and scenario the nested headline (outer
    figure, inner figure, folds' spread: overall and per language), a row per method (the TABLE measures over all
    held-out queries) and a row per method and query language."""
    settings = result.settings
    fixed = ", ".join(f"{name} {value:g}" for name, value in result.fixed().items())
    grid = "; ".join(f"{name} from {', '.join(f'{v:g}' for v in values)}" for name, values in result.grid.items())
    if settings.diversify is None:
        diversify = (f"explicit diversify from {', '.join(f'{v:g}' for v in DIVERSIFY_GRID)} (the largest within "
                     f"{DIVERSIFY_TOLERANCE:g} {FOLD_MEASURE} of 0)")  # fmt: skip
    else:
        diversify = f"explicit diversify {settings.diversify:g}"
    stance = "reads" if settings.stance else "does not read"
    tuned = " and ".join(TUNED)
    chosen = f"chosen in inner folds by {FOLD_MEASURE} ({tuned}): {grid or 'no ranker setting'}; {diversify}"
    blocks = [f"ranker: {fixed}\n{chosen}\nimplicit {stance} the stance label"]
    files = ", ".join(result.dictionaries) or "none"
    blocks[0] += f"\ndictionaries under {settings.dictionaries}: {files}"
    blocks.append(_choices(result))
    for part in result.parts:
        for scenario, methods in part.scores.items():
            queries = next(iter(methods.values())).queries
            rows = [["method", *TABLE]]
            by_language = [["method", "language", "queries", *LANGUAGE_TABLE]]
            for method, scores in methods.items():
                rows.append([method, *(f"{scores.means[name]:.4f}" for name in TABLE)])
                for language, means in part.language_means(scenario, method).items():
                    figures = (f"{means[name]:.4f}" for name in LANGUAGE_TABLE)
                    by_language.append([method, language, str(means["queries"]), *figures])
            headline = _headline(part, scenario)
            blocks.append(f"{_title(result, part, scenario, queries)}\n{headline}\n{text_table(rows)}\n"
                          f"{text_table(by_language)}")  # fmt: skip
        if part.property_accuracy:
            title = f"{part.name}, implicit: its guesses of the query's property on held-out issues' judged arguments"
            blocks.append(f"{title}\n{format_accuracy(part.property_accuracy)}")
    return "\n\n".join(blocks)


def _choices(result: CrossValidation) -> str:
    """A row per fold: its held-out issues, what its inner folds chose and their figures."""
    rows = [["fold", "held-out issues", *result.grid, "diversify", *(f"inner {s}" for s in TUNED)]]
    for part in result.parts:
        for number, (fold, choice) in enumerate(zip(part.folds, part.choices), start=1):
            name = f"{part.name} {number}" if part.name == CROSS_VALIDATION else part.name
            inner = [_figure(choice.inner_mean(scenario)) for scenario in TUNED]
            if not choice.tuned:
                inner = ["defaults: fewer than 2 inner folds"] + [""] * (len(TUNED) - 1)
            issues = ", ".join(map(str, fold.issues))
            params = [f"{choice.params[name]:g}" for name in result.grid]
            rows.append([name, issues, *params, f"{choice.diversify:g}", *inner])
    return f"chosen per fold (inner {FOLD_MEASURE}: its inner folds' held-out queries)\n{text_table(rows)}"


def _headline(part: Part, scenario: str) -> str:
    """Ours: the outer figure, the inner one beside it and the folds' spread, overall and per language."""
    lines = []
    for language in [None, *part.language_means(scenario, OURS)]:
        summary = part.summary(scenario, language)
        spread = summary["cv_spread"]
        name = "all" if language is None else language
        figures = f"{_figure(summary['cv_mean'])} held out (inner {_figure(summary['cv_inner_mean'])})"
        folds = f"folds sd {_figure(spread['sd'])}, {_figure(spread['min'])} to {_figure(spread['max'])}"
        lines.append(f"  {name}: {figures}; {folds}")
    return f"ours, {FOLD_MEASURE}:\n" + "\n".join(lines)


def _figure(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.4f}"


def _title(result: CrossValidation, part: Part, scenario: str, queries: int) -> str:
    if part.name == LOCKBOX:
        locked = result.lockbox_issues
        issues = f"issue{'s' if len(locked) > 1 else ''} {', '.join(map(str, locked))}"
        trained = result.issues - len(locked)
        return (f"{LOCKBOX}, {scenario}: {queries} queries of {issues}, learnt from the other {trained} issues with "
                f"the settings their folds chose")  # fmt: skip
    issues = sum(len(fold.issues) for fold in part.folds)
    return (f"{CROSS_VALIDATION}, {scenario}: {queries} held-out queries, {len(part.folds)} folds over {issues} "
            f"issues, each with the settings its inner folds chose")  # fmt: skip
