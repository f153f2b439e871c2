"""Search: each query's top documents under a scorer, as the ranking table every later stage reads.

Top-k selection breaks ties by document id, which is the index's column order.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from argrank.core.progress import track
from argrank.index.store import Index
from argrank.retrieval.queries import analyze_topics
from argrank.retrieval.scorer import Scorer
from argrank.retrieval.top_k import top_k

if TYPE_CHECKING:
    from argrank.formats.topics import Topic
    from argrank.text.analyzer import Analyzer

log = logging.getLogger(__name__)

BATCH = 64  # queries ranked together (Scorer.top_many)
RANKING_SCHEMA = pa.schema([("qid", pa.string()), ("doc", pa.string()), ("rank", pa.int32()), ("score", pa.float64())])


def rank_queries(index: Index, queries: pa.Table, ranker: Scorer, depth: int, warn_unmatched: bool = True) -> pa.Table:
    """Top `depth` documents per query as a table (qid, doc, rank from 1, score), queries in the given order.

    Query terms are looked up in the ranker's collection statistics, which for a shard are the whole
    collection's; a shard passes `warn_unmatched=False`, since the merge of all shards warns once instead.
    """
    qids, docs, scores = [], [], []  # per query with results: its qid, top columns and scores
    if "weights" in queries.column_names:  # an expanded query (retrieval.expansion): weighted terms
        terms = zip(queries.column("terms").to_pylist(), queries.column("weights").to_pylist())
        weighted = [_known(ranker, listed, weights) for listed, weights in terms]
    else:
        weighted = [(term_ids, None) for term_ids in ranker.term_ids_of_lists(queries.column("terms"))]
    pairs = list(zip(queries.column("qid").to_pylist(), weighted))
    plain = _in_batches(ranker, [term_ids for _, (term_ids, weights) in pairs if term_ids and weights is None], depth)
    for qid, (term_ids, weights) in track(pairs, "rank", total=queries.num_rows, unit=" topics"):
        if not term_ids:
            if warn_unmatched:
                warn_no_results(qid)
            continue
        if weights is None:
            top, top_scores = next(plain)
        else:
            top, top_scores = top_k(*ranker.score(term_ids, weights), depth)
        qids.append(qid)
        docs.append(top)
        scores.append(top_scores)
    # The columns built at once: the documents' ids taken from the index in one call, not per query as Python
    # strings.
    lengths = np.array([len(top) for top in docs], dtype=np.int64)
    ranks = [np.arange(1, n + 1, dtype=np.int32) for n in lengths.tolist()]
    columns = {
        "qid": pc.take(pa.array(qids, pa.string()), np.repeat(np.arange(len(qids)), lengths)),
        "doc": pc.take(index.doc_ids, np.concatenate(docs) if docs else np.zeros(0, dtype=np.int64)),
        "rank": pa.array(np.concatenate(ranks) if ranks else np.zeros(0, dtype=np.int32)),
        "score": pa.array(np.concatenate(scores) if scores else np.zeros(0)),
    }
    return pa.table(columns, schema=RANKING_SCHEMA)


def _in_batches(ranker: Scorer, queries: list[list[int]], depth: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Each query's top `depth`, ranked BATCH queries at a time (`Scorer.top_many`) as they are asked for, so that
    the progress shown still moves with the topics."""
    for start in range(0, len(queries), BATCH):
        yield from ranker.top_many(queries[start : start + BATCH], depth)


def _known(ranker: Scorer, terms: list[str], weights: list[float]) -> tuple[list[int], list[float]]:
    """The ids of the terms the collection has, with their weights."""
    kept = [(ids[0], weight) for term, weight in zip(terms, weights) if (ids := ranker.term_ids([term]))]
    return [term for term, _ in kept], [weight for _, weight in kept]


def rank_topics(
    index: Index,
    analyzer: Analyzer,
    topics: Sequence[Topic],
    ranker: Scorer,
    query: Callable[[Topic], str],
    depth: int,
    warn_unmatched: bool = True,
) -> pa.Table:
    """analyze_topics with the formulation `query` (retrieval.formulations), then rank_queries: the whole way from
    topics to a ranking, in one call."""
    return rank_queries(index, analyze_topics(analyzer, topics, query), ranker, depth, warn_unmatched)


def warn_no_results(qid: str) -> None:
    log.warning("topic %s: no query term occurs in the index, so the topic gets no results", qid)
