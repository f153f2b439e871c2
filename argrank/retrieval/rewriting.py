"""A researcher's own query rewriter as an expansion step of a run: called with the topics (and, where it asks, the
first ranking's candidates), its queries checked and turned into weighted terms to rank with.

A run's `expand:` list names each step's `use`: `rm3` or `bo1` (retrieval.expansion), `module:callable` (a module
beside the runs file, or one the environment can import) or a name another distribution registers under the
entry-point group `argrank.rewriters` (found and versioned as re-rankers are, retrieval.steps). The callable gets
one Arrow table of the topics (TOPIC_COLUMNS) and the step's `params` as keyword arguments; one that has a
`candidates` keyword argument also gets each topic's top `depth` documents of the ranking before this step, in the
table re-rankers get (retrieval.steps.candidates). It returns one query per topic, in row order: a text, which is
analysed as the track's documents are, or a mapping of terms to weights, each term analysed likewise.

A query is bounded: a mapping of more than MAX_QUERY_TERMS terms keeps its MAX_QUERY_TERMS heaviest (by
magnitude, ties by term) before anything is analysed, a text is analysed as documents are (cut after the analyzer's
longest text), and the analysed query keeps its MAX_QUERY_TERMS heaviest terms; one warning says how many topics
were cut. A query that leaves no term after analysis is refused: the topic would rank nothing.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pyarrow as pa

from argrank.retrieval.expansion import WEIGHTED_QUERY_SCHEMA, query_weights

TOPIC_COLUMNS = ("topic", "query", "terms", "weights")
MAX_QUERY_TERMS = 1_000  # a rewritten query's most terms: far beyond an expansion's tens, far below a document's
MAX_WEIGHT = 1e6  # a term's largest weight in magnitude: only ratios matter, and scores times it stay finite

log = logging.getLogger(__name__)


def topics_table(queries: pa.Table, texts: Mapping[str, str]) -> pa.Table:
    """The topics as a rewriter sees them: `topic`, `query` (the topic's text as the run formulates it), `terms`
    and `weights` (its analysed query as the steps before left it: each term once, with its weight)."""
    weighted = query_weights(queries)
    topics = queries.column("qid").to_pylist()
    return pa.table(
        {
            "topic": pa.array(topics, pa.string()),
            "query": pa.array([texts.get(topic, "") for topic in topics], pa.string()),
            "terms": pa.array([list(query) for query in weighted], pa.list_(pa.string())),
            "weights": pa.array([[float(w) for w in query.values()] for query in weighted], pa.list_(pa.float64())),
        }
    )


def rewritten(returned: Any, topics: pa.Table, analyze: Callable[[str], list[str]]) -> pa.Table:
    """The rewriter's queries as weighted terms (qid, terms, weights), one row per topic: a text's tokens weigh 1.0
    an occurrence; a mapping's term gives each of its tokens its weight. ValueError saying what is wrong with the
    returned value otherwise."""
    if isinstance(returned, (str, bytes, Mapping)) or not isinstance(returned, Sequence):
        raise ValueError(f"returned {type(returned).__name__}, not a list of one query per topic")
    if len(returned) != topics.num_rows:
        raise ValueError(f"returned {len(returned)} queries for {topics.num_rows} topics")
    rows: dict[str, list] = {"qid": topics.column("topic").to_pylist(), "terms": [], "weights": []}
    cut = []
    for position, (topic, query) in enumerate(zip(rows["qid"], returned)):
        where = f"query {position} (topic {topic})"
        weights, was_cut = _weights(query, analyze, where)
        if not weights:
            raise ValueError(f"{where} has no term left after analysis, so the topic would rank nothing")
        if was_cut:
            cut.append(str(topic))
        rows["terms"].append(list(weights))
        rows["weights"].append(list(weights.values()))
    if cut:
        log.warning("rewritten queries of %d topic(s) cut to their %s heaviest terms: %s", len(cut),
                    f"{MAX_QUERY_TERMS:,}", ", ".join(cut[:10]) + (" …" if len(cut) > 10 else ""))  # fmt: skip
    return pa.table(rows, schema=WEIGHTED_QUERY_SCHEMA)


def _weights(query: Any, analyze: Callable[[str], list[str]], where: str) -> tuple[dict[str, float], bool]:
    """One returned query's analysed terms and their weights (at most MAX_QUERY_TERMS of them), and whether it was
    cut to them."""
    if isinstance(query, str):
        pairs: Sequence[tuple[Any, Any]] = [(query, 1.0)]
    elif isinstance(query, Mapping):
        pairs = list(query.items())
    else:
        raise ValueError(f"{where} is a {type(query).__name__}, not a text or a mapping of terms to weights")
    for term, weight in pairs:
        if not isinstance(term, str):
            raise ValueError(f"{where} has the term {term!r}, not a text")
        if isinstance(weight, bool) or not isinstance(weight, (int, float)) or not _finite(weight):
            shown = f"{weight!r}" if len(repr(weight)) <= 40 else f"{repr(weight)[:40]}…"
            raise ValueError(f"{where} weighs {term!r} {shown}, not a finite number")
        if abs(weight) > MAX_WEIGHT:
            raise ValueError(f"{where} weighs {term!r} {weight:g}: at most {MAX_WEIGHT:,.0f} in magnitude (only the "
                             "weights' ratios matter)")  # fmt: skip
    cut = len(pairs) > MAX_QUERY_TERMS
    weights: dict[str, float] = {}
    for term, weight in _heaviest(pairs) if cut else pairs:
        for token in analyze(term):
            weights[token] = weights.get(token, 0.0) + float(weight)
    if len(weights) > MAX_QUERY_TERMS:
        weights, cut = dict(_heaviest(list(weights.items()))), True
    return weights, cut


def _finite(weight: float) -> bool:
    """Whether a weight is a finite float (an integer beyond the floats is not)."""
    try:
        return math.isfinite(weight)
    except OverflowError:
        return False


def _heaviest(pairs: Sequence[tuple[str, float]]) -> list[tuple[str, float]]:
    """The MAX_QUERY_TERMS pairs of largest weight by magnitude, ties by term, in that order."""
    return sorted(pairs, key=lambda pair: (-abs(pair[1]), pair[0]))[:MAX_QUERY_TERMS]
