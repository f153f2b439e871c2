"""Shard rankings merged: each shard's own top `depth` per topic, scored with the whole collection's statistics,
gives back exactly the ranking the unsharded index gives."""

from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from argrank.retrieval.search import RANKING_SCHEMA, warn_no_results


def merge_rankings(rankings: Iterable[pa.Table], topic_numbers: Sequence[str], depth: int) -> pa.Table:
    """The top `depth` per topic of the shards' rankings (each a shard's own top `depth`), as rank_topics
    writes it for the unsharded index: topics in the given order, by score, ties by document id ascending
    (the index's column order, which is pyarrow's string order); topics without results warned about."""
    table = pa.concat_tables([ranking.select(RANKING_SCHEMA.names) for ranking in rankings])
    position = {qid: i for i, qid in enumerate(topic_numbers)}
    topic = np.array([position[qid] for qid in table.column("qid").to_pylist()], dtype=np.int64)
    doc_order = pc.rank(table.column("doc").combine_chunks(), sort_keys="ascending", tiebreaker="dense")
    order = np.lexsort((doc_order.to_numpy(), -table.column("score").to_numpy(), topic))
    topic = topic[order]
    within = np.arange(len(order)) - np.searchsorted(topic, topic, side="left")
    kept = within < depth
    merged = table.take(pa.array(order[kept])).combine_chunks()
    merged = merged.set_column(2, "rank", pa.array(within[kept] + 1, type=pa.int32()))
    for qid in sorted(set(topic_numbers) - set(merged.column("qid").to_pylist()), key=position.__getitem__):
        warn_no_results(qid)
    return merged
