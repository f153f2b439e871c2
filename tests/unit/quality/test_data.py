"""Webis-ArgQuality-20-format files: the real corpus and the embedded sample read in full, and every malformed
input is one InputError naming the file and the line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from argrank.core.errors import InputError
from argrank.quality.data import queries_for, read_quality_set, read_quality_topics

REPO = Path(__file__).resolve().parents[3]
SAMPLE = REPO / "data" / "quality" / "argquality-sample.csv"
TOPICS = REPO / "data" / "quality" / "topics.csv"
HEADER = ("Topic ID,Argument ID,Discussion ID,Premise,Relevance,Is Argument?,Rhetorical Quality,Logical Quality,"
          "Dialectical Quality,Text Length,Stance,Combined Quality")  # fmt: skip


def write(tmp_path: Path, *lines: str, header: str = HEADER) -> Path:
    path = tmp_path / "quality.csv"
    path.write_text("\n".join([header, *lines]) + "\n", encoding="utf-8")
    return path


def row(topic="1", argument="1", discussion="7", premise="A premise.", relevance="0.5", flag="True", quality="0.25"):
    return f"{topic},{argument},{discussion},{premise},{relevance},{flag},0,0,0,2,True,{quality}"


def test_the_real_corpus_reads_whole(shared_data):
    examples = read_quality_set(shared_data / "touche-task1" / "webis-argquality20-full.csv")
    assert len(examples) == 1610 and len(set(examples.topics.tolist())) == 20
    assert (~examples.is_argument).sum() == 339
    assert np.all(examples.quality[~examples.is_argument] == -4) and np.all(examples.relevance[~examples.is_argument] == -4)
    assert len(set(examples.ids.tolist())) == 1610  # with the topic: 4 discussion/argument pairs repeat across topics
    queries = queries_for(examples, read_quality_topics(TOPICS), TOPICS)
    assert sorted(queries) == list(range(1, 21))


def test_the_embedded_sample_and_its_topics():
    examples = read_quality_set(SAMPLE)
    assert len(examples) == 96 and sorted(set(examples.topics.tolist())) == list(range(101, 107))
    assert (~examples.is_argument).sum() == 18
    for topic in range(101, 107):  # centred per topic, as the real corpus is
        arguments = (examples.topics == topic) & examples.is_argument
        assert abs(examples.quality[arguments].mean()) < 1e-5
    assert queries_for(examples, read_quality_topics(TOPICS), TOPICS)[103] == "Should plastic bags be banned?"


def test_a_quoted_premise_over_several_lines_and_the_line_after_it(tmp_path):
    path = write(tmp_path, row(premise='"First line,\nsecond line."'), row(argument="2", flag="maybe"))
    with pytest.raises(InputError, match=r"quality.csv: line 4: Is Argument\? 'maybe' is not True or False"):
        read_quality_set(path)
    examples = read_quality_set(write(tmp_path, row(premise='"First line,\nsecond line."'), row(argument="2")))
    assert examples.texts[0] == "First line,\nsecond line." and examples.ids.tolist() == ["1/7/1", "1/7/2"]


@pytest.mark.parametrize(
    "lines, header, message",
    [
        ([row()], "Topic ID,Argument ID,Premise", r"line 1: header lacks column\(s\) Discussion ID; Relevance"),
        ([row(quality="high")], HEADER, "line 2: Combined Quality 'high' is not a finite number"),
        ([row(relevance="nan")], HEADER, "line 2: Relevance 'nan' is not a finite number"),
        ([row(topic="x")], HEADER, "line 2: Topic ID 'x' is not an integer"),
        ([row(), row()], HEADER, "line 3: topic/discussion/argument 1/7/1 is also on line 2"),
        ([row(premise=" ")], HEADER, "line 2: empty premise"),
        ([row() + ",extra"], HEADER, "line 2: expected 12 comma-separated fields as in the header, found 13"),
        ([], HEADER, "no premises"),
        (['1,1,7,"open quote'], HEADER, "malformed CSV"),
    ],
)
def test_bad_input_is_named(tmp_path, lines, header, message):
    with pytest.raises(InputError, match=message):
        read_quality_set(write(tmp_path, *lines, header=header))


def test_topics_files(tmp_path):
    path = tmp_path / "topics.csv"
    path.write_text("Topic ID,Short Query\n1,minimum wage\n", encoding="utf-8")
    assert read_quality_topics(path) == {1: "minimum wage"}
    path.write_text("Topic ID,Long Query,Short Query\n1,Should it rise?,wage\n", encoding="utf-8")
    assert read_quality_topics(path) == {1: "Should it rise?"}  # the long query first
    for text, message in [
        ("Topic ID,Name\n1,x\n", "header lacks column.*one of Long Query, Short Query, Query, Title"),
        ("Topic ID,Title\n1,a\n1,b\n", "line 3: topic 1 is given twice"),
        ("Topic ID,Title\n1, \n", "line 2: empty query"),
        ("", "empty file"),
    ]:
        path.write_text(text, encoding="utf-8")
        with pytest.raises(InputError, match=message):
            read_quality_topics(path)
    examples = read_quality_set(write(tmp_path, row(topic="3")))
    with pytest.raises(InputError, match="topics.csv: no query for topic.s. 3 of the premises"):
        queries_for(examples, {1: "x"}, path)
