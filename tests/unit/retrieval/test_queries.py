"""retrieval/queries.py: each topic's query terms are the analyzer's terms of the text the formulation takes from
it, one row per topic in the topics' order, under the schema the ranking stage reads."""

from __future__ import annotations

import re

import pyarrow as pa

from argrank.formats.topics import Topic
from argrank.retrieval.formulations import title, title_and_description
from argrank.retrieval.queries import QUERY_SCHEMA, analyze_topics

TOPICS = [
    Topic(number="40", title="Is Vaping SAFE? Vaping, again", description="Health effects of e-cigarettes."),
    Topic(number="3", title="Ban zoos"),
    Topic(number="12", title="?!", description="Only the description has words."),
]


class LowercaseWords:
    """An analyzer that keeps lowercased word characters and records each text it is given."""

    def __init__(self):
        self.texts: list[str] = []

    def analyze(self, text: str) -> list[str]:
        self.texts.append(text)
        return re.findall(r"\w+", text.lower())


def test_each_topic_is_analysed_from_its_formulations_text_in_topic_order():
    analyzer = LowercaseWords()
    table = analyze_topics(analyzer, TOPICS, title_and_description)
    assert table.schema.equals(QUERY_SCHEMA, check_metadata=True)
    assert table.column("qid").to_pylist() == ["40", "3", "12"]  # the file's order, not sorted
    assert analyzer.texts == [title_and_description(topic) for topic in TOPICS]
    assert table.column("terms").to_pylist() == [
        ["is", "vaping", "safe", "vaping", "again", "health", "effects", "of", "e", "cigarettes"],  # repeats kept
        ["ban", "zoos"],
        ["only", "the", "description", "has", "words"],
    ]


def test_a_text_without_terms_is_an_empty_list_not_a_null():
    table = analyze_topics(LowercaseWords(), TOPICS, title)
    assert table.column("terms").to_pylist()[2] == [] and table.column("terms").null_count == 0


def test_no_topics_give_an_empty_table_of_the_query_schema():
    analyzer = LowercaseWords()
    table = analyze_topics(analyzer, [], title)
    assert table.num_rows == 0 and table.schema.equals(QUERY_SCHEMA) and analyzer.texts == []
    assert table.column("terms").type == pa.list_(pa.string())
