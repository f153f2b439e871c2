"""The three scenarios' rankings, each built only from the columns its rules allow.

- baseline: the query text; of the corpus, its arguments' texts (as the index), languages and topic categories;
- explicit: also the query's socio-cultural property and every author's profile: arguments whose author has the
  property move ahead of the others over the whole list, each group in the baseline's order;
- implicit: the query's property, but no profile of the corpus. Whether an author has the property is guessed from
  the argument's text (`property_guess`), learned only from arguments judged for training queries; of the
  baseline's IMPLICIT_DEPTH best, those most likely to have it move up. With `stance` (the default), the argument's
  stance label may be read too: it is the argument's, not its author's profile (the task withholds the profiles,
  not the corpus's other fields). Within a query's candidates, the side (FAVOR or AGAINST) whose arguments the
  guess finds likelier to have the property is the side the property's holders take on this issue, so each
  argument also gets its side's log-odds (a link between property and stance learned per issue, from the guesses
  themselves: no judgment of the query's issue is read).

`documents` passed to `PropertyEvidence` is checked against `allowed_columns`, so a ranking that could read more
than its scenario allows fails instead of running.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from threadpoolctl import threadpool_limits

from argrank.core.progress import track
from argrank.retrieval.top_k import top_k
from argrank.tracks.perspective.data import ISSUES, PROFILE_COLUMNS, QUERY_PROPERTY_TO_CORPUS, STANCES, Query
from argrank.tracks.perspective.property_guess import PropertyGuesser, TextFeatures, logit
from argrank.tracks.perspective.training import Training


_SHARED = ("id", "language", "topic")
SCENARIO_COLUMNS = {
    "baseline": _SHARED,
    "implicit": (*_SHARED, "argument", "stance"),
    "explicit": (*_SHARED, "stance", *PROFILE_COLUMNS),
}
# Part of the rankings' cache key: a change of method that changes rankings changes it, so cached ones are redone.
# 2: the implicit classifiers share one feature matrix; 3: explicit over the whole list, other questions demoted;
# 4: the implicit guess from words and similar judged arguments, as log-odds over a deeper top, stance links;
# 5: French and Italian questions translated with dictionaries; 6: stop words untranslated, each word's translations
# one structured term, the defaults chosen by nested cross-validation
METHOD = "perspective-ranking/6"
IMPLICIT_DEPTH = 300  # how many of the baseline's best the implicit scenario's guess may re-order (an issue: ~600)


def training_from_queries(
    baseline: Sequence[Query], perspective: Sequence[Query], position: Callable[[int], int]
) -> Training:
    """Issues from the baseline training queries (one per distinct relevant set) and property examples from the
    perspective training queries; `position` maps an argument id to its document position (-1: not indexed)."""
    distinct = {tuple(sorted(_positions(query, position))) for query in baseline if query.relevant_candidates}
    issues = [np.array(ids, dtype=np.int64) for ids in sorted(distinct)]
    number = {tuple(ids.tolist()): i for i, ids in enumerate(issues)}
    members = [set(ids.tolist()) for ids in issues]
    questions = {
        query.text: number[tuple(sorted(_positions(query, position)))]
        for query in baseline
        if query.relevant_candidates
    }
    properties: dict[tuple[str, str], tuple[set[int], set[int]]] = {}
    for query in perspective:
        if not query.relevant_candidates or not query.demographic_property:
            continue
        relevant = set(_positions(query, position))
        issue = max(range(len(issues)), key=lambda i: len(relevant & members[i]), default=None)
        if issue is None:
            continue
        questions.setdefault(query.text, issue)
        have, lack = properties.setdefault(next(iter(query.demographic_property.items())), (set(), set()))
        have |= relevant
        lack |= members[issue] - relevant
    properties_ = {key: (np.array(sorted(h)), np.array(sorted(l - h))) for key, (h, l) in properties.items()}
    return Training(issues, properties_, questions)


def _positions(query: Query, position: Callable[[int], int]) -> list[int]:
    return [p for p in (position(i) for i in query.relevant_candidates or ()) if p >= 0]


def allowed_columns(scenario: str, stance: bool = True) -> list[str]:
    """The document columns a scenario's ranking may read; without `stance`, the implicit scenario's lack it."""
    return [c for c in SCENARIO_COLUMNS[scenario] if stance or scenario != "implicit" or c != "stance"]


def check_columns(documents: pa.Table, scenario: str, stance: bool = True) -> None:
    """ValueError if `documents` holds a column the scenario's rules (and the stance switch) do not allow."""
    extra = sorted(set(documents.column_names) - set(allowed_columns(scenario, stance)))
    if extra:
        raise ValueError(f"the {scenario} scenario may not read {', '.join(extra)}")


class PropertyEvidence:
    """What a scenario may know of whether each document's author has a property (key, value), computed once per
    property: explicit, the profile itself (0 or 1); implicit, the log-odds `PropertyGuesser` gives, where it could
    learn the value; baseline, nothing. `stance` is the implicit scenario's switch for reading the stance label."""

    def __init__(self, scenario: str, documents: pa.Table, training: Training, seed: int = 0, stance: bool = True,
                 features: TextFeatures | None = None):  # fmt: skip
        """`features`: the implicit guess's text features computed before (`property_guess.TextFeatures`)."""
        check_columns(documents, scenario, stance)
        self.scenario = scenario
        self.documents = documents
        self.guesser = None
        self.favor = None  # implicit with stance: which documents argue in favour
        if scenario == "implicit":
            self.guesser = PropertyGuesser(documents.column("argument").to_pylist(), training, seed, features)
            if stance:
                self.favor = np.asarray(documents.column("stance").to_pylist(), dtype=object) == STANCES[0]
        self._known: dict[tuple[str, str], np.ndarray | None] = {}
        self._values: dict[str, np.ndarray] = {}

    def __call__(self, key: str, value: str) -> np.ndarray | None:
        if (key, value) not in self._known:
            self._known[key, value] = self._evidence(key, value)
        return self._known[key, value]

    def _evidence(self, key: str, value: str) -> np.ndarray | None:
        if self.scenario == "explicit":
            return property_mask(self.documents, key, value).astype(np.float64)
        return self.guesser.log_odds(key, value) if self.guesser else None

    def values(self, name: str) -> np.ndarray:
        """Explicit scenario: each document's value of the profile column `name`, as integer codes, read once."""
        if name not in self._values:
            column = np.asarray(self.documents.column(name).to_pylist(), dtype=object)
            self._values[name] = np.unique(column.astype(str), return_inverse=True)[1]
        return self._values[name]

    def adjust(self, scores: np.ndarray, query: Query) -> np.ndarray:
        """The baseline scores adjusted by what is known of the query's property. Explicit: every argument whose
        author has it ahead of every other, each group in the baseline's order (the whole list: the relevant are
        exactly the issue's arguments with the property, however deep the baseline puts them). Implicit: of the
        baseline's IMPLICIT_DEPTH best, the guess's log-odds (and, with stance, the side's) added to the score; the
        rest keep their places below, because a guess from the text says nothing of the issue and lifting far
        would bring in other issues' arguments."""
        if not query.demographic_property or self.scenario == "baseline":
            return scores
        evidence = self(*next(iter(query.demographic_property.items())))
        if evidence is None:
            return scores
        spread = scores.max(initial=0.0) - scores.min(initial=0.0) + 1.0
        if self.scenario == "explicit":
            return scores + spread * evidence
        top, _ = top_k(np.arange(len(scores)), scores, IMPLICIT_DEPTH)
        lift = evidence[top] if self.favor is None else evidence[top] + stance_link(evidence[top], self.favor[top])
        adjusted = scores.copy()
        adjusted[top] += spread + lift - lift.min()  # the top stays above the rest
        return adjusted


def stance_link(log_odds: np.ndarray, favor: np.ndarray) -> np.ndarray:
    """Per candidate, the log-odds of its side: logit of the mean guessed probability over the candidates taking
    its stance. The side whose arguments look likelier to have the property is the side its holders take on this
    issue; averaged over a side's arguments, the noisy per-argument guesses agree more than one does."""
    probability = 1.0 / (1.0 + np.exp(-log_odds))
    side = np.array([probability[favor == s].mean() if (favor == s).any() else 0.5 for s in (False, True)])
    return logit(side)[favor.astype(np.int64)]


def property_mask(documents: pa.Table, key: str, value: str) -> np.ndarray:
    """Explicit scenario: which documents' authors have the query property `key` = `value` (a missing one: no)."""
    column = documents.column(QUERY_PROPERTY_TO_CORPUS[key]).combine_chunks()
    if QUERY_PROPERTY_TO_CORPUS[key] != ISSUES:
        return _equals(column, value)
    have = np.zeros(len(column), dtype=bool)  # a list of issues: where any of its items is the value
    have[pc.list_parent_indices(column).to_numpy()[_equals(pc.list_flatten(column), value)]] = True
    return have


def _equals(column: pa.Array, value: str) -> np.ndarray:
    return pc.fill_null(pc.equal(column, value), False).to_numpy(zero_copy_only=False)


def aligned(documents: pa.Table, doc_ids: pa.Array) -> pa.Table:
    """`documents` reordered to the index's document order (rows the index lacks are dropped)."""
    return documents.take(pc.index_in(doc_ids, value_set=documents.column("id")))


def rank_scenario(
    queries: Sequence[Query],
    score: Callable[[str], np.ndarray],
    evidence: PropertyEvidence,
    doc_ids: pa.Array,
    depth: int,
    diversity: float = 0.0,
) -> dict[str, list[int]]:
    """query id → its `depth` best argument ids (as integers), in query order, from `score` (a query text → every
    document's score) adjusted by the evidence of the query's property; ties by document id. With
    `diversity` > 0 the explicit scenario's top is diversified over the authors' profiles (`diversify`); the other
    scenarios may not read profiles, so for them it changes nothing."""
    rankings = {}
    # The perspective queries ask a few questions again and again (the release's 5,577 training queries: its 105
    # questions), so each distinct text is scored once; the scores are read-only, as adjust and diversify copy.
    scored: dict[str, np.ndarray] = {}
    # A query's BLAS calls (a matrix-vector product over the documents) are too small to share among threads: more
    # threads only wait on each other, for the very same scores.
    with threadpool_limits(limits=1, user_api="blas"):
        for query in track(queries, "rank queries", total=len(queries), unit=" queries"):
            if query.text not in scored:
                scored[query.text] = score(query.text)
                scored[query.text].setflags(write=False)
            scores = evidence.adjust(scored[query.text], query)
            if diversity > 0 and evidence.scenario == "explicit":
                scores = diversify(scores, diversity_values(evidence, query), diversity)
            docs, _ = top_k(np.arange(len(scores)), scores, depth)
            rankings[query.query_id] = [int(doc) for doc in doc_ids.take(pa.array(docs)).to_pylist()]
    return rankings


DIVERSIFY_DEPTH = 50  # how many of the best the diversity re-ranking re-orders
# The explicit scenario's diversity weight by default: what `argrank perspective-cv` chooses on the real release's
# cross-validation issues (the largest weight costing nDCG@4 at most tuning.DIVERSIFY_TOLERANCE there: none).
DEFAULT_DIVERSIFY = 0.0
NOVELTY_DECAY = 0.5  # α of α-nDCG: each earlier argument sharing a value halves a value's novelty


def diversity_values(evidence: PropertyEvidence, query: Query) -> list[np.ndarray]:
    """Explicit scenario: per socio variable the evaluation uses (stance and the profile's single-valued columns,
    not denomination), each document's value code; the query's own property is left out, as it is in the
    evaluation. The columns are read once per ranking (PropertyEvidence.values), not once per query."""
    own = QUERY_PROPERTY_TO_CORPUS[next(iter(query.demographic_property))] if query.demographic_property else None
    return [evidence.values(name) for name in DIVERSITY_VARIABLES if name != own]


DIVERSITY_VARIABLES = ("stance", *(name for name in PROFILE_COLUMNS if name not in (ISSUES, "denomination")))


def diversify(scores: np.ndarray, values: Sequence[np.ndarray], weight: float) -> np.ndarray:
    """`scores` with the DIVERSIFY_DEPTH best re-ordered greedily (`diversified_order`), above the rest, which
    keep their scores."""
    if weight <= 0 or not values:
        return scores
    top, top_scores = top_k(np.arange(len(scores)), scores, DIVERSIFY_DEPTH)
    codes = np.stack([np.asarray(column)[top] for column in values])[None]
    order = diversified_order(top_scores[None], codes, np.ones((1, len(values)), dtype=bool), weight, len(top))[0]
    adjusted = scores.copy()
    adjusted[top[order]] = scores.max() + len(top) - np.arange(len(order))  # above every score outside, in order
    return adjusted


def diversified_order(
    scores: np.ndarray, codes: np.ndarray, active: np.ndarray, weight: float, places: int
) -> np.ndarray:
    """For each row (a query's candidates, best first: `scores` queries × candidates, `codes` queries × variables
    × candidates, `active` queries × variables), the candidates' positions in the order the greedy re-ranking
    picks the first `places`: each next maximises (1 − weight) × its score (scaled to [0, 1] over the row) +
    weight × its novelty, the mean over the row's active variables of NOVELTY_DECAY ** (candidates already picked
    with its value); ties go to the better score. Rows at once, so the cross-validation's inner folds can
    diversify thousands of queries' tops; one row is what `diversify` ranks."""
    rows, candidates = scores.shape
    low, high = scores.min(axis=1, keepdims=True), scores.max(axis=1, keepdims=True)
    span = high - low
    relevance = np.where(span > 0, (scores - low) / np.where(span > 0, span, 1.0), 1.0)
    counts = np.zeros(codes.shape)
    picked = np.zeros((rows, candidates), dtype=bool)
    variables = np.maximum(active.sum(axis=1), 1)[:, None]
    order = np.zeros((rows, min(places, candidates)), dtype=np.int64)
    everyone = np.arange(rows)
    for place in range(order.shape[1]):
        novelty = np.zeros((rows, candidates))
        for variable in range(codes.shape[1]):
            novelty += np.where(active[:, variable, None], NOVELTY_DECAY ** counts[:, variable], 0.0)
        objective = (1 - weight) * relevance + weight * (novelty / variables)
        objective[picked] = -np.inf
        best = np.argmax(objective, axis=1)
        order[:, place] = best
        picked[everyone, best] = True
        counts += codes == codes[everyone, :, best][:, :, None]
    return order
