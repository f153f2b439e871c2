"""Task 3 image judgments: the three aspects per image, the training file's stances, the real qrels' figures."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from argrank.core.errors import InputError
from argrank.tracks.images.qrels import ASPECTS, STANCES, read_image_qrels, read_image_training

QRELS = "touche-task3-001-050-relevance.qrels"


def test_reads_each_aspect_of_each_image_with_tabs_blank_lines_and_agreeing_repeats(tmp_path):
    path = tmp_path / "q.qrels"
    path.write_text("1 ONTOPIC a 1\n1\tPRO\ta\t1\n\n1 CON a 0\n12 ONTOPIC b 0\n1 PRO a 1\n", encoding="utf-8")
    assert read_image_qrels(path) == {"1": {"a": {"ONTOPIC": 1, "PRO": 1, "CON": 0}}, "12": {"b": {"ONTOPIC": 0}}}


def test_training_judgments_are_keyed_by_topic_and_image(tmp_path):
    path = tmp_path / "training-qrels.txt"
    path.write_text("3 PRO a 1\n3 CON a 0\n4 CON a 1\n", encoding="utf-8")
    assert read_image_training(path) == {("3", "a"): {"PRO": 1, "CON": 0}, ("4", "a"): {"CON": 1}}


@pytest.mark.parametrize(
    ("reader", "content", "line", "problem"),
    [
        (read_image_qrels, "1 ONTOPIC a 1\n1 STANCE a 1\n", 2, "aspect 'STANCE' is not one of ONTOPIC, PRO, CON"),
        (read_image_qrels, "1 pro a 1\n", 1, "aspect 'pro' is not one of ONTOPIC, PRO, CON"),
        (read_image_qrels, "1 0 a 1\n", 1, "aspect '0' is not one of"),
        (read_image_qrels, "1 PRO a 1\n1 CON a 2\n", 2, "label '2' is not 0 or 1"),
        (read_image_qrels, "1 PRO a 1.0\n", 1, "label '1.0' is not 0 or 1"),
        (read_image_qrels, "1 PRO a -1\n", 1, "label '-1' is not 0 or 1"),
        (read_image_qrels, "1 PRO a 1\n1 CON a 0\n1 PRO a 0\n", 3, "image a of topic 1 is labelled 0 for PRO here but 1"),
        (read_image_qrels, "1 PRO a 1\n1 PRO b\n", 2, "expected 4 fields (topic aspect image label), found 3"),
        (read_image_training, "1 PRO a 1\n1 ONTOPIC a 1\n", 2, "stance 'ONTOPIC' is not one of PRO, CON"),
        (read_image_training, "1 PRO a 3\n", 1, "rating '3' is not 0 or 1"),
        (read_image_training, "1 CON a 1\n1 CON a 0\n", 2, "image a of topic 1 is labelled 0 for CON here but 1 on"),
        (read_image_training, "1 CON a\n", 1, "expected 4 fields (topic stance image rating), found 3"),
    ],
)
def test_bad_lines_name_file_and_line(tmp_path, reader, content, line, problem):
    path = tmp_path / "bad.txt"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=re.escape(f"{path}: line {line}: {problem}")):
        reader(path)


def test_unknown_topic_is_named_with_its_line(tmp_path):
    path = tmp_path / "q.qrels"
    path.write_text("2 ONTOPIC a 1\n51 ONTOPIC a 1\n", encoding="utf-8")
    with pytest.raises(InputError, match=re.escape(f"{path}: line 2: unknown topic 51")):
        read_image_qrels(path, known_topics=[str(n) for n in range(1, 51)])


def test_real_2022_qrels_judge_every_image_on_all_three_aspects(shared_data):
    qrels = read_image_qrels(shared_data / "image-retrieval" / QRELS, [str(n) for n in range(1, 51)])
    assert sorted(qrels, key=int) == [str(n) for n in range(1, 51)]
    judged = [labels for images in qrels.values() for labels in images.values()]
    assert len(judged) == 6607 and all(set(labels) == set(ASPECTS) for labels in judged)  # 6607 × 3 = 19,821 lines
    per_aspect = {aspect: Counter(labels[aspect] for labels in judged) for aspect in ASPECTS}
    assert per_aspect == {"ONTOPIC": {1: 4422, 0: 2185}, "PRO": {1: 3244, 0: 3363}, "CON": {1: 1070, 0: 5537}}
    # In the real file an off-topic image never has a stance; the evaluator's ONTOPIC=1 condition still matters
    # for other judgments (see test_image_evaluation).
    assert not any(labels["ONTOPIC"] == 0 and any(labels[s] for s in STANCES) for labels in judged)
    assert (len(qrels["34"]), len(qrels["48"])) == (137, 136)
