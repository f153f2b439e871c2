"""From topics to a ranked list per topic: query formulation, analysis, scoring and the top-k cut."""

from __future__ import annotations

import logging
from typing import Sequence

import pyarrow as pa

from argrank.index import Index
from argrank.objects import topic_objects
from argrank.ranking import BM25, DirichletLM, top_k
from argrank.text import Analyzer
from argrank.topics import Topic

log = logging.getLogger(__name__)

QUERIES = ("title", "title+description", "title+objects")

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


def rank_topics(
    index: Index,
    analyzer: Analyzer,
    topics: Sequence[Topic],
    ranker: BM25 | DirichletLM,
    query: str,
    depth: int,
    warn_unmatched: bool = True,
) -> pa.Table:
    """Top `depth` documents per topic as a table (qid, doc, rank from 1, score), topics in the given order.

    Query terms are looked up in the ranker's collection statistics, which for a shard are the whole
    collection's; a shard passes `warn_unmatched=False`, since the merge of all shards warns once instead.
    """
    columns: dict[str, list] = {"qid": [], "doc": [], "rank": [], "score": []}
    for topic in topics:
        term_ids = ranker.term_ids(analyzer.analyze(query_text(topic, query)))
        if not term_ids:
            if warn_unmatched:
                warn_no_results(topic.number)
            continue
        docs, scores = top_k(*ranker.score(term_ids), depth)
        columns["qid"].extend([topic.number] * len(docs))
        columns["doc"].extend(index.doc_ids.take(docs).to_pylist())
        columns["rank"].extend(range(1, len(docs) + 1))
        columns["score"].extend(scores.tolist())
    return pa.table(columns, schema=RANKING_SCHEMA)


def warn_no_results(qid: str) -> None:
    log.warning("topic %s: no query term occurs in the index, so the topic gets no results", qid)
