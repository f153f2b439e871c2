"""tracks/comparative/stance_qrels.py: stance judgments read, bad labels named by line, the embedded ones."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from argrank.core.errors import InputError
from argrank.formats.qrels import read_qrels
from argrank.formats.topics import read_topics
from argrank.tracks.comparative.stance_labels import LABELS
from argrank.tracks.comparative.stance_qrels import read_stance_qrels

EMBEDDED = Path(__file__).resolve().parents[4] / "data" / "comparative"


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "stance.qrels"
    path.write_text(text, encoding="utf-8")
    return path


def test_each_label_is_kept_per_topic_and_document_with_ids_as_written(tmp_path):
    path = _write(tmp_path, "07 0 d1 FIRST\n07 0 d2 SECOND\n7 0 d1 NEUTRAL\n12 1 d3 NO\n")
    assert read_stance_qrels(path) == {
        "07": {"d1": "FIRST", "d2": "SECOND"},
        "7": {"d1": "NEUTRAL"},
        "12": {"d3": "NO"},
    }


def test_a_judgment_repeated_with_the_same_label_counts_once(tmp_path):
    path = _write(tmp_path, "1 0 a FIRST\n1 0 b NO\n1 0 a FIRST\n")
    assert read_stance_qrels(path) == {"1": {"a": "FIRST", "b": "NO"}}


def test_the_topics_known_are_accepted_and_none_judged_is_not_required(tmp_path):
    path = _write(tmp_path, "2 0 a NO\n")
    assert read_stance_qrels(path, known_topics=iter(["1", "2", "3"])) == {"2": {"a": "NO"}}


@pytest.mark.parametrize("label", ["NONE", "Neutral", "no", "BETTER", "1", "-"])
def test_any_other_label_is_named_with_its_line(tmp_path, label):
    path = _write(tmp_path, f"1 0 a FIRST\n1 0 b SECOND\n1 0 c {label}\n")
    expected = f"{path}: line 3: stance label {label!r} is not one of FIRST, SECOND, NEUTRAL, NO"
    with pytest.raises(InputError, match=re.escape(expected)):
        read_stance_qrels(path)


def test_a_repeat_with_another_label_names_both_lines(tmp_path):
    path = _write(tmp_path, "3 0 a NEUTRAL\n3 0 b NO\n3 0 a NO\n")
    with pytest.raises(InputError) as caught:
        read_stance_qrels(path)
    assert caught.value.where == "line 3"
    assert caught.value.problem == "document a of topic 3 is labelled NO here but NEUTRAL on line 1"


def test_the_embedded_judgments_cover_every_topic_with_all_four_labels_and_the_relevance_judged_documents():
    topics = [topic.number for topic in read_topics(EMBEDDED / "topics.xml")]
    stance = read_stance_qrels(EMBEDDED / "qrels-stance.qrels", topics)
    assert sorted(stance, key=int) == topics
    assert set(Counter(label for judged in stance.values() for label in judged.values())) == set(LABELS)
    relevance = read_qrels(EMBEDDED / "qrels-relevance.qrels", topics)
    assert {topic: set(judged) for topic, judged in stance.items()} == {
        topic: set(judged) for topic, judged in relevance.items()
    }


def test_reading_twice_gives_the_same_judgments_in_file_order(tmp_path):
    path = _write(tmp_path, "2 0 z NO\n1 0 b FIRST\n2 0 a SECOND\n")
    first, second = read_stance_qrels(path), read_stance_qrels(path)
    assert first == second
    assert list(first) == ["2", "1"] and list(first["2"]) == ["z", "a"]
