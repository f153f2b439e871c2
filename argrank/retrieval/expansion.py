"""Query expansion from pseudo-relevance feedback: a run's first ranking's top `fb_docs` documents per topic give
`fb_terms` terms added to its query, each with a weight (the query then ranks as weighted terms).

- **RM3** (Lavrenko & Croft's relevance model, interpolated with the query, as Abdul-Jaleel et al. 2004 and
  PyTerrier's `RM3` do): P(w|R) = Σ_d P(w|d)·P(d|Q) over the feedback documents, P(w|d) = tf(w, d)/|d| and P(d|Q)
  a document's retrieval score over their sum; the `fb_terms` most likely terms, renormalised; each term's weight
  `fb_lambda`·P(t|Q) + (1 − `fb_lambda`)·P(t|R), P(t|Q) its share of the query's terms.
- **Bo1** (Amati's Bose-Einstein divergence from randomness, PyTerrier's `Bo1QueryExpansion`): a term found tfx
  times in the feedback documents, F times in the N documents of the collection, weighs
  w = tfx·log2((1 + Pn)/Pn) + log2(1 + Pn) with Pn = F/N; the `fb_terms` heaviest, each weight over the heaviest's;
  each term's weight its count in the query over the query's most frequent term's, plus that expansion weight.

Ties between candidate terms are broken by the term, so an expansion is the same on every run.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from argrank.core.parquet_file import open_parquet
from argrank.core.params import Range
from argrank.formats.token_table import read_terms
from argrank.index.store import Index

WEIGHTED_QUERY_SCHEMA = pa.schema([("qid", pa.string()), ("terms", pa.list_(pa.string())),
                                   ("weights", pa.list_(pa.float64()))])  # fmt: skip


@dataclass(frozen=True)
class Feedback:
    """What an expansion knows of one feedback document: its retrieval score and its terms' counts."""

    score: float
    counts: Mapping[str, int]


@dataclass(frozen=True)
class Collection:
    """What Bo1 knows of the collection: its number of documents and each term's number of occurrences."""

    documents: int
    frequency: Callable[[str], int]


def rm3(query: Sequence[str] | Mapping[str, float], feedback: Sequence[Feedback], collection: Collection,
        fb_terms: float, fb_lambda: float, **_) -> dict[str, float]:  # fmt: skip
    """RM3's weighted query (module docstring); `query` its terms, or its terms' weights (an earlier step's)."""
    total = sum(document.score for document in feedback)
    relevance: Counter[str] = Counter()
    for document in feedback:
        length = sum(document.counts.values())
        prior = document.score / total if total > 0 else 1 / len(feedback)
        for term, count in document.counts.items():
            relevance[term] += prior * count / length if length else 0.0
    chosen = _heaviest(relevance, int(fb_terms))
    mass = sum(chosen.values())
    model = {term: weight / mass for term, weight in chosen.items()} if mass > 0 else {}
    counts = _weighted(query)
    total = sum(counts.values())
    weights = {term: fb_lambda * count / total for term, count in counts.items()}
    for term, probability in model.items():
        weights[term] = weights.get(term, 0.0) + (1 - fb_lambda) * probability
    return weights


def bo1(query: Sequence[str] | Mapping[str, float], feedback: Sequence[Feedback], collection: Collection,
        fb_terms: float, **_) -> dict[str, float]:  # fmt: skip
    """Bo1's weighted query (module docstring); `query` its terms, or its terms' weights (an earlier step's)."""
    found: Counter[str] = Counter()
    for document in feedback:
        found.update(document.counts)
    divergence = {}
    for term, tfx in found.items():
        pn = collection.frequency(term) / collection.documents
        if pn > 0:
            divergence[term] = tfx * math.log2((1 + pn) / pn) + math.log2(1 + pn)
    chosen = _heaviest(divergence, int(fb_terms))
    heaviest = max(chosen.values(), default=0.0)
    counts = _weighted(query)
    most = max(counts.values())
    weights = {term: count / most for term, count in counts.items()}
    for term, weight in chosen.items():
        if heaviest > 0:
            weights[term] = weights.get(term, 0.0) + weight / heaviest
    return weights


def _weighted(query: Sequence[str] | Mapping[str, float]) -> Mapping[str, float]:
    """A query's terms' weights: as given, or each term's count among its terms."""
    return query if isinstance(query, Mapping) else Counter(query)


def _heaviest(weights: Mapping[str, float], count: int) -> dict[str, float]:
    """The `count` terms of largest weight, ties by the term."""
    return dict(sorted(weights.items(), key=lambda item: (-item[1], item[0]))[:count])


@dataclass(frozen=True)
class Expander:
    """A built-in query expansion: its function and its parameters' defaults and ranges."""

    function: Callable[..., dict[str, float]]
    defaults: Mapping[str, float]
    ranges: Mapping[str, Range]


# PyTerrier's defaults: 3 feedback documents, 10 terms, the query's weight 0.6 in RM3.
EXPANDERS = {
    "rm3": Expander(rm3, {"fb_docs": 3, "fb_terms": 10, "fb_lambda": 0.6},
                    {"fb_docs": Range(1, integer=True), "fb_terms": Range(1, integer=True), "fb_lambda": Range(0, 1)}),
    "bo1": Expander(bo1, {"fb_docs": 3, "fb_terms": 10},
                    {"fb_docs": Range(1, integer=True), "fb_terms": Range(1, integer=True)}),
}  # fmt: skip


def expand_queries(queries: pa.Table, ranking: pa.Table, counts: Mapping[str, Mapping[str, int]],
                   collection: Collection, use: str, params: Mapping[str, float]) -> pa.Table:  # fmt: skip
    """Each query (qid, terms, and weights where an earlier step weighed them) weighted and expanded by `use` from
    its ranking's top `fb_docs` documents, whose terms' counts are `counts` (document → term → count): a table
    (qid, terms, weights)."""
    expander = EXPANDERS[use]
    settings = {**expander.defaults, **params}
    top = feedback_rows(ranking, settings["fb_docs"])
    feedback: dict[str, list[Feedback]] = {}
    for qid, doc, score in zip(*(top.column(name).to_pylist() for name in ("qid", "doc", "score"))):
        feedback.setdefault(qid, []).append(Feedback(score, counts.get(doc, {})))
    rows = {"qid": [], "terms": [], "weights": []}
    for qid, query in zip(queries.column("qid").to_pylist(), query_weights(queries)):
        weighted = expander.function(query, feedback[qid], collection, **settings) if query and qid in feedback else (
            {term: float(weight) for term, weight in query.items()})  # fmt: skip
        rows["qid"].append(qid)
        rows["terms"].append(list(weighted))
        rows["weights"].append(list(weighted.values()))
    return pa.table(rows, schema=WEIGHTED_QUERY_SCHEMA)


def query_weights(queries: pa.Table) -> list[dict[str, float]]:
    """Each query's terms' weights, in row order: its `weights` where it has them, else each term's count."""
    terms = queries.column("terms").to_pylist()
    if "weights" not in queries.column_names:
        return [dict(Counter(query or [])) for query in terms]
    weighted = []
    for query, weights in zip(terms, queries.column("weights").to_pylist()):
        summed: dict[str, float] = {}
        for term, weight in zip(query or [], weights or []):
            summed[term] = summed.get(term, 0.0) + weight
        weighted.append(summed)
    return weighted


def feedback_rows(ranking: pa.Table, fb_docs: float) -> pa.Table:
    """Each topic's top `fb_docs` rows of a ranking (qid, doc, rank, score): the documents an expansion reads."""
    return ranking.filter(pc.less_equal(ranking.column("rank"), int(fb_docs)))


def collection_of(index: Index) -> Collection:
    """The collection figures Bo1 reads, from an index."""
    ids = index.vocabulary.ids
    frequencies = index.collection_frequencies

    def frequency(term: str) -> int:
        found = ids([term])
        return int(frequencies[found[0]]) if found else 0

    return Collection(index.num_docs, frequency)


def term_counts(token_table: str | Path, ids: set[str]) -> dict[str, Counter]:
    """Each document of `ids` as its terms' counts, from a token table (formats/token_table.py), read a batch at a
    time with an id filter."""
    source = open_parquet(token_table, streaming=True)
    terms = read_terms(token_table, source.metadata.metadata).to_pylist()
    wanted = pa.array(sorted(ids), pa.string())
    counts = {}
    for batch in source.iter_batches(columns=["id", "tokens"]):
        hits = batch.filter(pc.is_in(batch.column("id"), value_set=wanted))
        for doc, codes in zip(hits.column("id").to_pylist(), hits.column("tokens").to_pylist()):
            counts[doc] = Counter(terms[code] for code in codes or [])
    return counts
