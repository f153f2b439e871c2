"""Qrels reading: the real files' figures, and every kind of bad line named by file and line."""

from __future__ import annotations

import logging
import re
from collections import Counter

import pytest

from argrank.core.errors import InputError
from argrank.formats import qrels as qrels_module
from argrank.formats.qrels import judged_topics, read_qrels
from argrank.formats.topics import read_topics
from argrank.tracks.comparative.stance_qrels import read_stance_qrels


def test_reads_integer_negative_and_float_labels_tabs_spaces_and_blank_lines(tmp_path):
    path = tmp_path / "q.qrels"
    path.write_text("51 0 a 2\n\n51\t0\tb\t-2\n  \n7 0 c 4.0\n51 0 a 2\n", encoding="utf-8")
    assert read_qrels(path) == {"51": {"a": 2.0, "b": -2.0}, "7": {"c": 4.0}}


def test_known_topics_accepts_the_listed_ones(tmp_path):
    path = tmp_path / "q.qrels"
    path.write_text("1 0 a 1\n2 0 b 0\n", encoding="utf-8")
    assert set(read_qrels(path, known_topics=["1", "2", "3"])) == {"1", "2"}


@pytest.mark.parametrize(
    ("reader", "content", "line", "problem"),
    [
        (read_qrels, b"1 0 a 1\n1 0 b\n", 2, "expected 4 fields (topic iteration doc label), found 3"),
        (read_qrels, b"1 0 a 1 extra\n", 1, "expected 4 fields"),
        (read_qrels, b"1 0 a 1\n1 0 b 1\n1 0 c high\n", 3, "label 'high' is not a finite number"),
        (read_qrels, b"1 0 a nan\n", 1, "label 'nan' is not a finite number"),
        (read_qrels, b"1 0 a 1_0\n", 1, "label '1_0' is not a finite number"),
        (read_qrels, b"1 0 a 2\n1 0 b 1\n1 0 a 1\n", 3, "document a of topic 1 is labelled 1 here but 2 on line 1"),
        (read_qrels, b"1 0 a 2.0\n1 0 a 2\n1 0 a 1\n", 3, "document a of topic 1 is labelled 1 here but 2.0 on line 1"),
        (read_qrels, b"1 0 a 1\n1 0 b 0\xff\n", 2, "not valid UTF-8"),
        (read_qrels, b"1 0 a 1\n1 0\xc2\xa0b 0\n", 2, "white space U+00A0"),
        (
            read_stance_qrels,
            b"1 0 a FIRST\n1 0 b first\n",
            2,
            "stance label 'first' is not one of FIRST, SECOND, NEUTRAL, NO",
        ),
        (read_stance_qrels, b"1 0 a FIRST\n1 0 b 2\n", 2, "stance label '2' is not one of"),
        (read_stance_qrels, b"1 0 a Q0\n", 1, "stance label 'Q0' is not one of"),
        (
            read_stance_qrels,
            b"1 0 a FIRST\n1 0 b NO\n1 0 a SECOND\n",
            3,
            "document a of topic 1 is labelled SECOND here but FIRST on line 1",
        ),
        (read_stance_qrels, b"1 0 a FIRST\n1 0 b\n", 2, "expected 4 fields (topic iteration doc label), found 3"),
    ],
)
def test_bad_lines_name_file_and_line(tmp_path, reader, content, line, problem):
    path = tmp_path / "bad.qrels"
    path.write_bytes(content)
    with pytest.raises(InputError, match=re.escape(f"{path}: line {line}: ") + ".*" + re.escape(problem)):
        reader(path)


def test_unknown_topic_is_named_with_its_line(tmp_path):
    path = tmp_path / "q.qrels"
    path.write_text("24 0 a 1\n25 0 b 1\n", encoding="utf-8")
    with pytest.raises(InputError, match=re.escape(f"{path}: line 2: unknown topic 25")):
        read_qrels(path, known_topics=[str(n) for n in range(1, 51) if n != 25])


@pytest.mark.parametrize("content", [b"", b"\n \n\t\n"])
def test_empty_file_is_an_error(tmp_path, content):
    path = tmp_path / "empty.qrels"
    path.write_bytes(content)
    with pytest.raises(InputError, match=re.escape(f"{path}: empty file")):
        read_qrels(path)


def test_real_2021_qrels(shared_data):
    task1 = shared_data / "touche-task1"
    known = [topic.number for topic in read_topics(task1 / "topics-task-1-2021.xml")]
    qrels = read_qrels(task1 / "touche2021-task1-51-100-relevance.qrels", known)
    assert sorted(qrels, key=int) == [str(n) for n in range(51, 101)]
    labels = Counter(label for judged in qrels.values() for label in judged.values())
    assert labels == {-2.0: 351, 0.0: 1542, 1.0: 736, 2.0: 1082}


def test_real_2020_qrels_corrected_and_float_labelled(shared_data):
    task1 = shared_data / "touche-task1"
    known = [topic.number for topic in read_topics(task1 / "topics-task-1-2020.xml")]
    corrected = read_qrels(
        task1 / "touche2020-task1-relevance-args-me-corpus-version-2020-04-01-corrected.qrels", known
    )
    assert len(corrected) == 49 and "25" not in corrected
    labels = Counter(label for judged in corrected.values() for label in judged.values())
    assert labels == {-2.0: 751, 0.0: 615, 1.0: 296, 2.0: 636}
    original = read_qrels(task1 / "topics-task-1-2020-relevance-args.qrels", known)
    assert {label for judged in original.values() for label in judged.values()} >= {-2.0, 1.0, 5.0}


def test_stance_qrels_keep_their_labels(tmp_path):
    path = tmp_path / "stance.qrels"
    path.write_text("12 0 a FIRST\n12\t0\tb\tSECOND\n\n3 0 a NEUTRAL\n3 0 b NO\n12 0 a FIRST\n", encoding="utf-8")
    assert read_stance_qrels(path) == {"12": {"a": "FIRST", "b": "SECOND"}, "3": {"a": "NEUTRAL", "b": "NO"}}


def test_stance_qrels_unknown_topic_is_named_with_its_line(tmp_path):
    path = tmp_path / "stance.qrels"
    path.write_text("2 0 a NO\n1 0 b NO\n", encoding="utf-8")
    with pytest.raises(InputError, match=re.escape(f"{path}: line 2: unknown topic 1")):
        read_stance_qrels(path, known_topics=["2", "3"])


def test_real_2022_stance_qrels(shared_data):
    task2 = shared_data / "touche-task2"
    topics = [topic.number for topic in read_topics(task2 / "topics-task2-2022.xml")]
    qrels = read_stance_qrels(task2 / "touche-task2-2022-stance.qrels", topics)
    assert sorted(qrels) == sorted(topics) and len(qrels) == 50
    labels = Counter(label for judged in qrels.values() for label in judged.values())
    assert labels == {"FIRST": 393, "SECOND": 284, "NEUTRAL": 418, "NO": 1012}
    relevance = read_qrels(task2 / "touche-task2-2022-relevance.qrels", topics)
    assert {topic: set(judged) for topic, judged in relevance.items()} == {
        topic: set(judged) for topic, judged in qrels.items()
    }


def test_judged_topics_keeps_the_topics_of_the_run_and_rejects_qrels_of_other_topics():
    qrels = {"1": {"a": 1.0}, "2": {"b": 0.0}}
    assert judged_topics(qrels, ["2", "3"], "q.qrels") == {"2": {"b": 0.0}}
    with pytest.raises(InputError, match=re.escape("q.qrels: none of its 2 judged topics is in the topics file")):
        judged_topics(qrels, ["9"], "q.qrels")


def test_judged_topics_warns_naming_the_qrels_file_and_the_topics_it_leaves_out(caplog):
    qrels = {str(topic): {"a": 1.0} for topic in range(1, 9)}
    with caplog.at_level(logging.WARNING, logger="argrank.formats.qrels"):
        assert list(judged_topics(qrels, ["2"], "q.qrels")) == ["2"]
    message = "q.qrels: 7 of its 8 judged topics are not in the topics file and are not scored: 1, 3, 4, 5, 6, …"
    assert [(r.levelno, r.getMessage()) for r in caplog.records] == [(logging.WARNING, message)]


def test_judgments_of_more_topics_than_a_topics_file_holds_are_refused_at_the_first_too_many(tmp_path, monkeypatch):
    """Qrels of a million topics took 49 s and 1.74 GB before anything was said: refused at the topic past the
    bound, naming its line."""
    monkeypatch.setattr(qrels_module, "MAX_TOPICS", 3)
    path = tmp_path / "q.qrels"
    path.write_text("".join(f"{topic} 0 d{topic} 1\n" for topic in (1, 1, 2, 3, 3, 4, 5)), encoding="utf-8")
    with pytest.raises(InputError, match=r"q.qrels: line 6: more than 3 judged topics"):
        read_qrels(path)
    path.write_text("".join(f"{topic} 0 d{topic} 1\n" for topic in (1, 2, 3)), encoding="utf-8")
    assert sorted(read_qrels(path)) == ["1", "2", "3"]
