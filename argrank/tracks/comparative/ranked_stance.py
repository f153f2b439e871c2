"""Stance for a ranking: each ranked passage classified toward its topic's two objects.

Only the ranked passages are classified (at most depth × topics), and their texts are fetched by streaming
the document table with an id filter, so the whole collection never sits in memory.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Callable

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from argrank.formats.topics import topic_order
from argrank.tracks.comparative.stance_labels import LABELS

log = logging.getLogger(__name__)

# predict(texts, firsts, seconds) -> labels: the stance model, kept abstract so this module needs no sklearn.
Predict = Callable[[list[str], list[str], list[str]], list[str]]


def texts_by_id(table_path: str | Path, ids: set[str], column: str, batch_size: int = 50_000) -> dict[str, str]:
    """The `column` text of every document in `ids`, read batch by batch."""
    wanted = pa.array(sorted(ids), pa.string())
    texts: dict[str, str] = {}
    for batch in pq.ParquetFile(table_path).iter_batches(batch_size=batch_size, columns=["id", column]):
        hits = batch.filter(pc.is_in(batch.column("id"), value_set=wanted))
        texts.update(zip(hits.column("id").to_pylist(), hits.column(column).to_pylist()))
    return texts


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
