"""Whether an images run's on-stance precision is scored on topics its stance model was trained on.

The image stance model learns from `stance_training`'s judged (topic, image) pairs with their topics' titles
(stance.training_examples); it decides under which stance each image is listed, which is what on-stance precision
scores. Where a scored topic is among the training topics, its figure is in-sample: the model saw that topic's
judged images and its title.
"""

from __future__ import annotations

from collections.abc import Iterable

from argrank.evaluation.in_sample import InSample, topics_named
from argrank.formats.topics import topic_order

MEASURES = ("on_stance@10",)


def image_stance_in_sample(training_topics: Iterable[str], scored_topics: Iterable[str]) -> InSample | None:
    """Why on-stance precision over `scored_topics` is in-sample for a model trained on `training_topics`, or None."""
    scored = topic_order(scored_topics)
    trained = [topic for topic in scored if topic in set(training_topics)]
    if not trained:
        return None
    return InSample(
        f"the image stance model was trained on judged images of scored topics {topics_named(trained)} "
        f"({len(trained)} of {len(scored)}); its cross-validated macro-F1 is the held-out figure",
        MEASURES,
    )
