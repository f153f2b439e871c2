"""Touché 2022 Task 3 scores: on-topic, argumentative and on-stance precision of 10 PRO and 10 CON images.

Per topic, the run's PRO and CON lists are each ordered by score descending, ties by image id, and cut at 10.
Over those images: on-topic counts ONTOPIC=1; argumentative counts ONTOPIC=1 and (PRO=1 or CON=1); on-stance
counts ONTOPIC=1 and a 1 for the stance the image is listed under. Each count is divided by 20 whatever the run
retrieved, as the organisers do; unjudged images count as not relevant. judged@10 is the fraction of the 20
slots holding an image with an ONTOPIC judgment. Means are over the judged topics the run has, as the organisers'
evaluator averages (or, on request, over every judged topic, 0 where the run lacks it); run topics without
judgments are ignored.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from argrank.evaluation.results import RUN_TOPICS, TopicScores
from argrank.formats.runfile import RunLine
from argrank.formats.topics import topic_order
from argrank.tracks.images.qrels import STANCES, ImageQrels

PER_STANCE = 10
MEASURES = ("on_topic@10", "argumentative@10", "on_stance@10", "judged@10")
# The organisers' 2022 evaluator (touche-code, clef22/image-retrieval-for-arguments/submission-evaluator.sh)
# divides by 20 × the number of topics in the run: a topic the run lacks is left out of the mean.
AVERAGE = RUN_TOPICS


class ImageScores(TopicScores):
    """The four precision measures of a topic's PRO and CON lists."""


def evaluate_images(run: Iterable[RunLine], qrels: ImageQrels, average: str = AVERAGE) -> ImageScores:
    """Mean and per-topic on_topic@10, argumentative@10, on_stance@10 and judged@10 over the judged topics the run
    has (or, with JUDGED_TOPICS, over every judged topic, 0 where the run lacks it).

    Raises ValueError for a line whose column 2 is not PRO or CON, or an image listed twice in a topic.
    """
    if not qrels:
        raise ValueError("no judged topics to evaluate against")
    lists = _stance_lists(run)
    per_topic = {topic: _topic_scores(lists.get(topic, {}), qrels[topic]) for topic in topic_order(qrels)}
    return ImageScores.of_topics(PER_STANCE, per_topic, MEASURES, average, run_topics=lists)


def _stance_lists(run: Iterable[RunLine]) -> dict[str, dict[str, list[str]]]:
    """topic → stance → its images, score descending then image id ascending, at most PER_STANCE of them."""
    scored: dict[str, dict[str, list[tuple[float, str]]]] = defaultdict(lambda: defaultdict(list))
    seen: set[tuple[str, str]] = set()
    for line in run:
        if line.q0 not in STANCES:
            raise ValueError(f"topic {line.qid}, image {line.doc}: column 2 is {line.q0!r}, expected PRO or CON")
        if (line.qid, line.doc) in seen:
            raise ValueError(f"topic {line.qid}: image {line.doc} appears more than once in the run")
        seen.add((line.qid, line.doc))
        scored[line.qid][line.q0].append((-float(line.score), line.doc))
    return {
        topic: {stance: [image for _, image in sorted(pairs)[:PER_STANCE]] for stance, pairs in by_stance.items()}
        for topic, by_stance in scored.items()
    }


def _topic_scores(lists: dict[str, list[str]], judged: dict[str, dict[str, int]]) -> dict[str, float]:
    """The four measures of one topic's PRO and CON lists; each count is over 2 × PER_STANCE slots."""
    counts = dict.fromkeys(MEASURES, 0)
    for stance, images in lists.items():
        for image in images:
            labels = judged.get(image, {})
            on_topic = labels.get("ONTOPIC") == 1
            counts["on_topic@10"] += on_topic
            counts["argumentative@10"] += on_topic and any(labels.get(s) == 1 for s in STANCES)
            counts["on_stance@10"] += on_topic and labels.get(stance) == 1
            counts["judged@10"] += "ONTOPIC" in labels
    return {name: count / (len(STANCES) * PER_STANCE) for name, count in counts.items()}
