"""Stance for a ranking: each ranked passage classified toward its topic's two objects.

Only the ranked passages are classified (at most depth × topics); their texts come from core.document_texts.
"""

from __future__ import annotations

import logging
from typing import Callable

import pyarrow as pa

from argrank.formats.topics import topic_order
from argrank.tracks.comparative.stance_labels import LABELS

log = logging.getLogger(__name__)

# predict(texts, firsts, seconds) -> labels: the stance model, kept abstract so this module needs no sklearn.
Predict = Callable[[list[str], list[str], list[str]], list[str]]


def classify_ranking(
    ranking: pa.Table, texts: dict[str, str], objects: dict[str, tuple[str, str] | None], predict: Predict
) -> pa.Table:
    """`ranking` with a `stance` column; a topic whose objects are unknown gets NO for all its passages."""
    rows = ranking.select(["qid", "doc"]).to_pylist()
    stance = ["NO"] * len(rows)
    todo = [i for i, row in enumerate(rows) if objects.get(row["qid"])]
    without = topic_order({row["qid"] for row in rows if not objects.get(row["qid"])})
    if without:
        log.warning("topics %s name no objects to compare, so their passages get stance NO", ", ".join(without))
    if todo:
        pairs = [objects[rows[i]["qid"]] for i in todo]
        labels = predict([texts[rows[i]["doc"]] for i in todo], [p[0] for p in pairs], [p[1] for p in pairs])
        for i, label in zip(todo, labels):
            stance[i] = label
    if not set(stance) <= set(LABELS):
        raise ValueError(f"the stance model predicted labels outside {LABELS}: {sorted(set(stance) - set(LABELS))}")
    return ranking.append_column("stance", pa.array(stance, pa.string()))
