"""Task 3 scores: hand-computed topics, the cut at 10 per stance, and a run built from the real qrels."""

from __future__ import annotations

import pytest

from argrank.evaluation.results import JUDGED_TOPICS, RUN_TOPICS
from argrank.formats.runfile import RunLine
from argrank.tracks.images.evaluation import PER_STANCE, evaluate_images
from argrank.tracks.images.qrels import read_image_qrels

MEASURES = ["on_topic@10", "argumentative@10", "on_stance@10", "judged@10"]


def judged(on_topic: int | None, pro: int, con: int) -> dict[str, int]:
    """One image's aspects; `on_topic` None leaves ONTOPIC unjudged."""
    labels = {"PRO": pro, "CON": con}
    return labels if on_topic is None else {"ONTOPIC": on_topic, **labels}


QRELS = {
    "1": {
        # Listed under PRO: 7 on-topic (p01–p07); argumentative p01, p02, p03, p04, p06 = 5; on-stance (PRO=1 and
        # on-topic) p01, p02, p03, p06 = 4; p08 is PRO=1 but off-topic, so neither; p10 is unjudged; 9 judged.
        "p01": judged(1, 1, 0),
        "p02": judged(1, 1, 0),
        "p03": judged(1, 1, 1),
        "p04": judged(1, 0, 1),
        "p05": judged(1, 0, 0),
        "p06": judged(1, 1, 0),
        "p07": judged(1, 0, 0),
        "p08": judged(0, 1, 0),
        "p09": judged(0, 0, 0),
        "p11": judged(1, 1, 1),  # ties with p10 at the cut; p10 wins by id, so p11 never counts
        # Listed under CON: on-topic c1, c2; argumentative c1, c2; on-stance only c1 (c2 is PRO); c3 is off-topic
        # with CON=1; c4 has no ONTOPIC judgment, so it is unjudged and not on-topic; 3 judged.
        "c1": judged(1, 0, 1),
        "c2": judged(1, 1, 0),
        "c3": judged(0, 0, 1),
        "c4": judged(None, 0, 1),
    },
    "2": {"x": judged(1, 1, 0)},  # not in the run: scores 0
}

# Topic 1 over 20 slots (14 images retrieved, fewer than 20): on-topic 7 + 2 = 9 → 0.45; argumentative 5 + 2 = 7
# → 0.35; on-stance 4 + 1 = 5 → 0.25; judged 9 + 3 = 12 → 0.6.
TOPIC_1 = {"on_topic@10": 0.45, "argumentative@10": 0.35, "on_stance@10": 0.25, "judged@10": 0.6}


def run_of(*rows: tuple[str, str, str, float]) -> list[RunLine]:
    """Run lines with ranks backwards: evaluation must order by score only."""
    return [RunLine(qid, stance, doc, len(rows) - i, score, "t") for i, (qid, stance, doc, score) in enumerate(rows)]


RUN = run_of(
    *[("1", "PRO", f"p{n:02}", 20.0 - n) for n in range(10, 0, -1)],  # file order backwards: p10 first
    ("1", "PRO", "p11", 10.0),  # same score as p10; ties go by image id, so p11 is 11th and cut
    ("1", "CON", "c4", 1.0),
    ("1", "CON", "c1", 4.0),
    ("1", "CON", "c3", 2.0),
    ("1", "CON", "c2", 3.0),
    ("3", "PRO", "z", 1.0),  # topic without judgments: ignored
)


def test_hand_computed_topic_cut_at_ten_per_stance_over_twenty_slots():
    result = evaluate_images(RUN, QRELS)
    assert result.per_topic["1"] == pytest.approx(TOPIC_1, abs=1e-15)


def test_means_are_over_the_judged_topics_the_run_has_as_the_organisers_evaluator_averages():
    result = evaluate_images(RUN, QRELS)
    assert result.depth == PER_STANCE == 10 and result.topics == 1 and result.measures == MEASURES
    assert list(result.to_json()) == ["depth", "topics", "average", "measures", "missing_topics", *MEASURES, "per_topic"]
    assert result.average == RUN_TOPICS and list(result.per_topic) == ["1"]
    assert result.means == pytest.approx(TOPIC_1, abs=1e-15)


def test_over_every_judged_topic_on_request_a_topic_the_run_lacks_scores_zero():
    result = evaluate_images(RUN, QRELS, JUDGED_TOPICS)
    assert result.topics == 2 and list(result.per_topic) == ["1", "2"] and result.average == JUDGED_TOPICS
    assert result.per_topic["2"] == dict.fromkeys(MEASURES, 0.0)
    assert result.means == pytest.approx({n: v / 2 for n, v in TOPIC_1.items()}, abs=1e-15)


def test_off_topic_images_with_a_stance_count_for_nothing_but_judged():
    qrels = {"5": {"a": judged(0, 1, 1), "b": judged(0, 0, 1)}}
    result = evaluate_images(run_of(("5", "PRO", "a", 2.0), ("5", "CON", "b", 1.0)), qrels)
    assert result.per_topic["5"] == {**dict.fromkeys(MEASURES, 0.0), "judged@10": 0.1}  # 2 judged of 20 slots


def test_an_image_judged_for_the_other_stance_is_argumentative_but_not_on_stance():
    qrels = {"5": {"a": judged(1, 0, 1)}}
    result = evaluate_images(run_of(("5", "PRO", "a", 1.0)), qrels)
    # 1 of 20 slots: on-topic and argumentative 0.05; it was listed as PRO but judged CON only, so on-stance 0.
    assert result.per_topic["5"] == {**dict.fromkeys(MEASURES, 0.05), "on_stance@10": 0.0}


@pytest.mark.parametrize(
    ("run", "message"),
    [
        (run_of(("1", "PRO", "a", 1.0), ("1", "Q0", "b", 0.5)), "topic 1, image b: column 2 is 'Q0', expected PRO or"),
        (run_of(("1", "PRO", "a", 1.0), ("1", "CON", "a", 0.5)), "topic 1: image a appears more than once"),
    ],
)
def test_bad_runs_raise_value_error(run, message):
    with pytest.raises(ValueError, match=message):
        evaluate_images(run, QRELS)


def test_no_judged_topics_is_an_error():
    with pytest.raises(ValueError, match="no judged topics"):
        evaluate_images(RUN, {})


def real_run(qrels: dict[str, dict[str, dict[str, int]]]) -> list[RunLine]:
    """For topics 34 and 48: the first 10 judged images by id listed PRO, the next 10 CON, scores falling."""
    lines = []
    for topic in ("34", "48"):
        images = sorted(qrels[topic])[:20]
        for n, image in enumerate(images):
            stance, rank = ("PRO", n + 1) if n < PER_STANCE else ("CON", n + 1 - PER_STANCE)
            lines.append(RunLine(topic, stance, image, rank, 20.0 - n, "real"))
    return lines


def test_run_built_from_the_real_qrels(shared_data):
    qrels = read_image_qrels(shared_data / "image-retrieval" / "touche-task3-001-050-relevance.qrels")
    result = evaluate_images(real_run(qrels), qrels)
    # Counted by hand from the file's ONTOPIC PRO CON labels of these images:
    # 34 PRO: 6 on-topic, of which 3 have PRO=1 (I0538…, I0cab… 1 1 1, I0eb3…): argumentative 3, on-stance 3.
    # 34 CON: 5 on-topic; I1416… (1 0 1), I1844… and I1cde… (1 1 0) argumentative; on-stance only I1416….
    #   Topic 34: 11, 6, 4 of 20.
    # 48 PRO: 8 on-topic, all PRO=1: 8, 8, 8. 48 CON: 7 on-topic, all PRO=1, CON=0: 7, 7, 0. Topic 48: 15, 15, 8 of 20.
    assert result.per_topic["34"] == pytest.approx(
        {"on_topic@10": 0.55, "argumentative@10": 0.30, "on_stance@10": 0.20, "judged@10": 1.0}, abs=1e-15
    )
    assert result.per_topic["48"] == pytest.approx(
        {"on_topic@10": 0.75, "argumentative@10": 0.75, "on_stance@10": 0.40, "judged@10": 1.0}, abs=1e-15
    )
    # Means over the two topics the run has, as the organisers' evaluator takes them; or over all 50 judged ones.
    assert result.topics == 2
    assert [result.means[name] for name in MEASURES] == pytest.approx([1.30 / 2, 1.05 / 2, 0.60 / 2, 1.0], abs=1e-15)
    over_all = evaluate_images(real_run(qrels), qrels, JUDGED_TOPICS)
    assert over_all.topics == 50
    means = [over_all.means[name] for name in MEASURES]
    assert means == pytest.approx([1.30 / 50, 1.05 / 50, 0.60 / 50, 2 / 50], abs=1e-15)
