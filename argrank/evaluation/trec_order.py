"""The order trec_eval ranks a run's documents in, for the figures we compute ourselves.

trec_eval ignores the file's ranks: per topic it sorts by score descending and breaks ties by document id
descending. It keeps scores as C `float`, so two scores that differ only beyond single precision (Task 2 runs
have such pairs in their eighth or ninth significant digit) are a tie, and the document id decides. Our own
measures (the organisers' judged-only nDCG, stance F1 at a cut-off) use this order, so they rank exactly as the
measures computed by trec_eval itself through ir_measures.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

import numpy as np

from argrank.formats.runfile import RunLine


def ranked_documents(run: Iterable[RunLine]) -> dict[str, list[tuple[float, str]]]:
    """topic → its (score as a 32-bit float, document) pairs in trec_eval's order: score descending, then document
    id descending. ValueError names a topic that lists a document twice."""
    by_topic: dict[str, list[tuple[float, str]]] = defaultdict(list)
    for line in run:
        by_topic[line.qid].append((line.score, line.doc))
    ranked = {}
    for topic, scored in by_topic.items():
        if len({doc for _, doc in scored}) != len(scored):
            raise ValueError(f"topic {topic}: a document appears more than once in the run")
        single = np.asarray([score for score, _ in scored], dtype=np.float64).astype(np.float32).tolist()
        ranked[topic] = sorted(zip(single, (doc for _, doc in scored)), reverse=True)
    return ranked
