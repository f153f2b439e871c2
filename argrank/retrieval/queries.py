"""Queries from topics: the text a query formulation (retrieval.formulations) takes from a topic, analysed as the
documents were.

Kept as a stage of its own (AnalyzeTopics), so a ranking needs no analyzer and a changed ranking parameter
loads no lemma table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import pyarrow as pa

if TYPE_CHECKING:
    from argrank.formats.topics import Topic
    from argrank.text.analyzer import Analyzer
    from argrank.text.multilingual import MultilingualAnalyzer


QUERY_SCHEMA = pa.schema([("qid", pa.string()), ("terms", pa.list_(pa.string()))])


def analyze_topics(
    analyzer: Analyzer | MultilingualAnalyzer, topics: Sequence[Topic], text: Callable[[Topic], str]
) -> pa.Table:
    """Each topic's query terms (qid, terms) from the text `text` takes from it, analysed as the documents were."""
    return pa.table(
        {"qid": [topic.number for topic in topics], "terms": [analyzer.analyze(text(topic)) for topic in topics]},
        schema=QUERY_SCHEMA,
    )
