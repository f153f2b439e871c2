"""Queries from topics: the text a query formulation takes from a topic, analysed as the documents were.

Kept as a stage of its own (AnalyzeTopics), so a ranking needs no analyzer and a changed ranking parameter
loads no lemma table.
"""

from __future__ import annotations

from typing import Sequence

import pyarrow as pa

from argrank.formats.topics import Topic
from argrank.text.analyzer import Analyzer
from argrank.text.multilingual import MultilingualAnalyzer
from argrank.tracks.comparative.objects import topic_objects

QUERIES = ("title", "title+description", "title+objects")

QUERY_SCHEMA = pa.schema([("qid", pa.string()), ("terms", pa.list_(pa.string()))])


def query_text(topic: Topic, query: str) -> str:
    """The text a topic is searched with; a missing description (titles-only topics) contributes nothing.

    `title+objects` (the comparative track's) adds a topic's two objects to its title, so each object weighs twice
    as much as the question's other words and a passage about only one of them ranks below one that compares both.
    """
    if query not in QUERIES:
        raise ValueError(f"unknown query formulation {query!r} (known: {', '.join(QUERIES)})")
    if query == "title+description":
        return f"{topic.title} {topic.description or ''}"
    if query == "title+objects":
        return " ".join((topic.title, *(topic_objects(topic) or ())))
    return topic.title


def analyze_topics(analyzer: Analyzer | MultilingualAnalyzer, topics: Sequence[Topic], query: str) -> pa.Table:
    """Each topic's query terms (qid, terms), analysed as the documents were."""
    return pa.table(
        {"qid": [topic.number for topic in topics], "terms": [analyzer.analyze(query_text(t, query)) for t in topics]},
        schema=QUERY_SCHEMA,
    )
