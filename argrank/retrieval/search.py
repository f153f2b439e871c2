"""From topics to a ranked list per topic: query formulation, analysis, scoring and the top-k cut."""

from __future__ import annotations

import logging
from typing import Sequence

import pyarrow as pa

from argrank.index.store import Index
from argrank.tracks.comparative.objects import topic_objects
from argrank.retrieval.ranking import BM25, DirichletLM, top_k
from argrank.text.analyzer import Analyzer
from argrank.formats.topics import Topic

log = logging.getLogger(__name__)

QUERIES = ("title", "title+description", "title+objects")

QUERY_SCHEMA = pa.schema([("qid", pa.string()), ("terms", pa.list_(pa.string()))])
RANKING_SCHEMA = pa.schema([("qid", pa.string()), ("doc", pa.string()), ("rank", pa.int32()), ("score", pa.float64())])


def query_text(topic: Topic, query: str) -> str:
    """The text a topic is searched with; a missing description (titles-only topics) contributes nothing.

    `title+objects` adds a comparative topic's two objects to its title, so each object weighs twice as much
    as the question's other words and a passage about only one of them ranks below one that compares both.
    """
    if query not in QUERIES:
        raise ValueError(f"unknown query formulation {query!r} (known: {', '.join(QUERIES)})")
    if query == "title+description":
        return f"{topic.title} {topic.description or ''}"
    if query == "title+objects":
        return " ".join((topic.title, *(topic_objects(topic) or ())))
    return topic.title


def analyze_topics(analyzer: Analyzer, topics: Sequence[Topic], query: str) -> pa.Table:
    """Each topic's query terms (qid, terms), analysed as the documents were. Kept as a stage of its own, so a
    ranking needs no analyzer and a changed ranking parameter loads no lemma table."""
    return pa.table(
        {"qid": [topic.number for topic in topics], "terms": [analyzer.analyze(query_text(t, query)) for t in topics]},
        schema=QUERY_SCHEMA,
    )


def rank_queries(
    index: Index, queries: pa.Table, ranker: BM25 | DirichletLM, depth: int, warn_unmatched: bool = True
) -> pa.Table:
    """Top `depth` documents per query as a table (qid, doc, rank from 1, score), queries in the given order.

    Query terms are looked up in the ranker's collection statistics, which for a shard are the whole
    collection's; a shard passes `warn_unmatched=False`, since the merge of all shards warns once instead.
    """
    columns: dict[str, list] = {"qid": [], "doc": [], "rank": [], "score": []}
    for qid, terms in zip(queries.column("qid").to_pylist(), queries.column("terms").to_pylist()):
        term_ids = ranker.term_ids(terms)
        if not term_ids:
            if warn_unmatched:
                warn_no_results(qid)
            continue
        docs, scores = top_k(*ranker.score(term_ids), depth)
        columns["qid"].extend([qid] * len(docs))
        columns["doc"].extend(index.doc_ids.take(docs).to_pylist())
        columns["rank"].extend(range(1, len(docs) + 1))
        columns["score"].extend(scores.tolist())
    return pa.table(columns, schema=RANKING_SCHEMA)


def rank_topics(
    index: Index,
    analyzer: Analyzer,
    topics: Sequence[Topic],
    ranker: BM25 | DirichletLM,
    query: str,
    depth: int,
    warn_unmatched: bool = True,
) -> pa.Table:
    """analyze_topics, then rank_queries: the whole way from topics to a ranking, in one call."""
    return rank_queries(index, analyze_topics(analyzer, topics, query), ranker, depth, warn_unmatched)


def warn_no_results(qid: str) -> None:
    log.warning("topic %s: no query term occurs in the index, so the topic gets no results", qid)
