"""The three scenarios' rankings, each built only from the columns its rules allow.

- baseline: the query text; of the corpus, its arguments' texts (as the index), languages and topic categories;
- explicit: also the query's socio-cultural property and every author's profile: of the baseline's top RERANK,
  arguments whose author has the property move ahead of the others, each group in the baseline's order;
- implicit: the query's property, but no profile of the corpus. Whether an author has the property is guessed from
  the argument's text by a classifier per property value, trained only on arguments judged for training queries
  (a training query with property p judges its issue's arguments: relevant ones have p, the others do not). The
  classifiers share one character n-gram TF-IDF matrix of every argument's text, built once: the release's 57
  property values with a pipeline each took about 7 minutes to fit and to vectorise every text again per value;
  shared, 27 s.

`documents` passed to `rank_scenario` is checked against SCENARIO_COLUMNS, so a ranking that could read more than
its scenario allows fails instead of running.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from argrank.core.progress import track
from argrank.retrieval.search import top_k
from argrank.tracks.perspective.data import ISSUES, PROFILE_COLUMNS, QUERY_PROPERTY_TO_CORPUS, Query

if TYPE_CHECKING:
    import scipy.sparse as sp
    from sklearn.linear_model import LogisticRegression

_SHARED = ("id", "language", "topic")
SCENARIO_COLUMNS = {
    "baseline": _SHARED,
    "implicit": (*_SHARED, "argument"),
    "explicit": (*_SHARED, "stance", *PROFILE_COLUMNS),
}
# Part of the rankings' cache key: a change of method that changes rankings changes it, so cached ones are redone.
METHOD = "perspective-ranking/2"  # 2: the implicit classifiers share one feature matrix
RERANK = 100  # how many of the baseline's best a query's property may re-order
IMPLICIT_WEIGHT = 0.25  # how far a confident "has the property" lifts an argument, against scores scaled to [0, ~2]


@dataclass(frozen=True)
class Training:
    """What the training queries teach: each issue's arguments (positions in the index's document order) and, per
    property (key, value), arguments known to have it and known not to."""

    issues: list[np.ndarray]
    properties: dict[tuple[str, str], tuple[np.ndarray, np.ndarray]]


def training_from_queries(
    baseline: Sequence[Query], perspective: Sequence[Query], position: Callable[[int], int]
) -> Training:
    """Issues from the baseline training queries (one per distinct relevant set) and property examples from the
    perspective training queries; `position` maps an argument id to its document position (-1: not indexed)."""
    distinct = {tuple(sorted(_positions(query, position))) for query in baseline if query.relevant_candidates}
    issues = [np.array(ids, dtype=np.int64) for ids in sorted(distinct)]
    properties: dict[tuple[str, str], tuple[set[int], set[int]]] = {}
    for query in perspective:
        if not query.relevant_candidates or not query.demographic_property:
            continue
        relevant = set(_positions(query, position))
        issue = max(issues, key=lambda members: len(relevant & set(members.tolist())), default=np.array([], int))
        have, lack = properties.setdefault(next(iter(query.demographic_property.items())), (set(), set()))
        have |= relevant
        lack |= set(issue.tolist()) - relevant
    return Training(issues, {key: (np.array(sorted(h)), np.array(sorted(l - h))) for key, (h, l) in properties.items()})


def _positions(query: Query, position: Callable[[int], int]) -> list[int]:
    return [p for p in (position(i) for i in query.relevant_candidates or ()) if p >= 0]


def check_columns(documents: pa.Table, scenario: str) -> None:
    """ValueError if `documents` holds a column the scenario's rules do not allow."""
    extra = sorted(set(documents.column_names) - set(SCENARIO_COLUMNS[scenario]))
    if extra:
        raise ValueError(f"the {scenario} scenario may not read {', '.join(extra)}")


class PropertyEvidence:
    """What a scenario may know of whether each document's author has a property (key, value), computed once per
    property: explicit, the profile itself (0 or 1); implicit, a text classifier's probability, where one could be
    trained; baseline, nothing."""

    def __init__(self, scenario: str, documents: pa.Table, training: Training, seed: int = 0):
        check_columns(documents, scenario)
        self.scenario = scenario
        self.documents = documents
        if scenario == "implicit":
            self.features, self.models = property_models(documents.column("argument").to_pylist(), training, seed)
        else:
            self.features, self.models = None, {}
        self._known: dict[tuple[str, str], np.ndarray | None] = {}
        self._values: dict[str, np.ndarray] = {}

    def __call__(self, key: str, value: str) -> np.ndarray | None:
        if (key, value) not in self._known:
            self._known[key, value] = self._evidence(key, value)
        return self._known[key, value]

    def _evidence(self, key: str, value: str) -> np.ndarray | None:
        if self.scenario == "explicit":
            return property_mask(self.documents, key, value).astype(np.float64)
        model = self.models.get((key, value))
        if model is None:
            return None
        return model.predict_proba(self.features)[:, list(model.classes_).index(1.0)]

    def values(self, name: str) -> np.ndarray:
        """Explicit scenario: each document's value of the profile column `name`, as integer codes, read once."""
        if name not in self._values:
            column = np.asarray(self.documents.column(name).to_pylist(), dtype=object)
            self._values[name] = np.unique(column.astype(str), return_inverse=True)[1]
        return self._values[name]

    def adjust(self, scores: np.ndarray, query: Query) -> np.ndarray:
        """The baseline scores with the `RERANK` best re-ordered by what is known of the query's property (the rest
        keep their places below): explicit puts those whose author has it first, implicit adds IMPLICIT_WEIGHT × the
        probability. Only the top is re-ordered because the property says nothing of the issue: lifting every
        author who has it would bring in other issues' arguments."""
        if not query.demographic_property or self.scenario == "baseline":
            return scores
        evidence = self(*next(iter(query.demographic_property.items())))
        if evidence is None:
            return scores
        top, _ = top_k(np.arange(len(scores)), scores, RERANK)
        spread = scores.max(initial=0.0) - scores.min(initial=0.0) + 1.0
        weight = spread if self.scenario == "explicit" else IMPLICIT_WEIGHT
        adjusted = scores.copy()
        adjusted[top] += spread + weight * evidence[top]  # the top stays above the rest
        return adjusted


def property_mask(documents: pa.Table, key: str, value: str) -> np.ndarray:
    """Explicit scenario: which documents' authors have the query property `key` = `value`."""
    column = documents.column(QUERY_PROPERTY_TO_CORPUS[key]).to_pylist()
    if QUERY_PROPERTY_TO_CORPUS[key] == ISSUES:
        return np.array([value in (issues or ()) for issues in column], dtype=bool)
    return np.array([item == value for item in column], dtype=bool)


def property_models(
    texts: Sequence[str], training: Training, seed: int = 0
) -> tuple[sp.csr_matrix, dict[tuple[str, str], LogisticRegression]]:
    """Implicit scenario: every text's character n-gram TF-IDF features and, per property value with examples on
    both sides, a classifier of "has it" over them."""
    # Imported here: scikit-learn takes about a second to import, and only this scenario's ranking needs it.
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression

    features = TfidfVectorizer(analyzer="char_wb", ngram_range=(3, 5), sublinear_tf=True).fit_transform(texts)
    models = {}
    for key, (have, lack) in sorted(training.properties.items()):
        if len(have) < 2 or len(lack) < 2:
            continue
        rows = np.concatenate([have, lack])
        labels = np.concatenate([np.ones(len(have)), np.zeros(len(lack))])
        model = LogisticRegression(class_weight="balanced", max_iter=1000, random_state=seed)
        models[key] = model.fit(features[rows], labels)
    return features, models


def aligned(documents: pa.Table, doc_ids: pa.Array) -> pa.Table:
    """`documents` reordered to the index's document order (rows the index lacks are dropped)."""
    return documents.take(pc.index_in(doc_ids, value_set=documents.column("id")))


def rank_scenario(
    queries: Sequence[Query],
    term_ids: Callable[[str], list[int]],
    score: Callable[[list[int]], np.ndarray],
    evidence: PropertyEvidence,
    doc_ids: pa.Array,
    depth: int,
    diversity: float = 0.0,
) -> dict[str, list[int]]:
    """query id → its `depth` best argument ids (as integers), in query order; ties by document id. With
    `diversity` > 0 the explicit scenario's top is diversified over the authors' profiles (`diversify`); the other
    scenarios may not read profiles, so for them it changes nothing."""
    rankings = {}
    for query in track(queries, "rank queries", total=len(queries), unit=" queries"):
        scores = evidence.adjust(score(term_ids(query.text)), query)
        if diversity > 0 and evidence.scenario == "explicit":
            scores = diversify(scores, diversity_values(evidence, query), diversity)
        docs, _ = top_k(np.arange(len(scores)), scores, depth)
        rankings[query.query_id] = [int(doc) for doc in doc_ids.take(pa.array(docs)).to_pylist()]
    return rankings


DIVERSIFY_DEPTH = 50  # how many of the best the diversity re-ranking re-orders
NOVELTY_DECAY = 0.5  # α of α-nDCG: each earlier argument sharing a value halves a value's novelty


def diversity_values(evidence: PropertyEvidence, query: Query) -> list[np.ndarray]:
    """Explicit scenario: per socio variable the evaluation uses (stance and the profile's single-valued columns,
    not denomination), each document's value code; the query's own property is left out, as it is in the
    evaluation. The columns are read once per ranking (PropertyEvidence.values), not once per query."""
    own = QUERY_PROPERTY_TO_CORPUS[next(iter(query.demographic_property))] if query.demographic_property else None
    names = ["stance", *(name for name in PROFILE_COLUMNS if name not in (ISSUES, "denomination"))]
    return [evidence.values(name) for name in names if name != own]


def diversify(scores: np.ndarray, values: Sequence[np.ndarray], weight: float) -> np.ndarray:
    """`scores` with the DIVERSIFY_DEPTH best re-ordered greedily: each next argument maximises
    (1 − weight) × its score (scaled to [0, 1] over those) + weight × its novelty, the mean over variables of
    NOVELTY_DECAY ** (arguments already chosen with its value). The rest keep their scores, below."""
    if weight <= 0 or not values:
        return scores
    top, top_scores = top_k(np.arange(len(scores)), scores, DIVERSIFY_DEPTH)
    span = top_scores.max() - top_scores.min()
    relevance = (top_scores - top_scores.min()) / span if span > 0 else np.ones(len(top))
    codes = [np.unique(column[top], return_inverse=True)[1] for column in values]
    seen = [np.zeros(code.max() + 1) for code in codes]
    remaining = list(range(len(top)))
    adjusted = scores.copy()
    for place in range(len(top)):
        candidates = np.array(remaining)
        novelty = np.mean([NOVELTY_DECAY ** counts[code[candidates]] for code, counts in zip(codes, seen)], axis=0)
        best = candidates[np.argmax((1 - weight) * relevance[candidates] + weight * novelty)]  # ties: the higher score
        remaining.remove(best)
        for code, counts in zip(codes, seen):
            counts[code[best]] += 1
        adjusted[top[best]] = scores.max() + len(top) - place  # above every score outside the top, in chosen order
    return adjusted
