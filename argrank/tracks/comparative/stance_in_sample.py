"""Whether a stance model's labels are scored on judgments it was trained on.

Stance training sets name no topic or passage ids: an example is a question, its two objects and an answer's text
(stance_data), while a stance judgment is a topic number and a passage id. So a judged topic counts as trained on
where an example compares its two objects (in either order, as cross-validation groups them), and a judged passage
where an example's text is its text (whitespace aside). Either makes the run's stance F1 in-sample; the model's
cross-validated macro-F1, or `argrank stance-benchmark` on a held-out set, is the figure to read instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from argrank.evaluation.in_sample import InSample, topics_named
from argrank.formats.topics import topic_order
from argrank.tracks.comparative.stance_data import StanceExample, objects_key, pair_key

MEASURES = ("stance_f1",)


def stance_in_sample(
    examples: Sequence[StanceExample],
    judged: Mapping[str, Mapping[str, str]],
    objects: Mapping[str, tuple[str, str] | None],
    texts: Mapping[str, str],
) -> InSample | None:
    """Why stance F1 against `judged` (topic → passage → label) is in-sample for a model trained on `examples`, or
    None; `objects` are the topics' objects (topics file), `texts` the judged passages' texts."""
    pairs = {pair_key(example) for example in examples}
    trained_texts = {_normalised(example.text) for example in examples}
    topics = [
        topic
        for topic in topic_order(judged)
        if objects.get(topic) and objects_key(*objects[topic]) in pairs
    ]
    passages = sum(_normalised(texts.get(doc, "")) in trained_texts for docs in judged.values() for doc in docs)
    reasons = []
    if topics:
        reasons.append(f"the stance model was trained on the object pairs of judged topics {topics_named(topics)} "
                       f"({len(topics)} of {len(judged)})")  # fmt: skip
    if passages:
        reasons.append(f"its training texts include {passages} judged passages")
    if not reasons:
        return None
    return InSample("; ".join([*reasons, "its cross-validated macro-F1 is the held-out figure"]), MEASURES)


def _normalised(text: str) -> str:
    return " ".join(text.split())
