"""Quality-aware re-ranking: a run's top `depth` per topic re-scored by its retrieval score and predicted quality.

Per topic, over the top `depth`, each document scores (1 − weight) × z(retrieval score) + weight × z(expected
quality), both standardised over those documents (so the weight is unit-free), less `nonargument_penalty` ×
P(not an argument), where a text shorter than `min_words` words counts as surely none (Touché's analyses found
such texts almost never relevant). The top is re-ordered by that score (ties keep the retrieval order) and stays
above the rest, whose order and scores are unchanged; the run's scores are rewritten to agree with its ranks, as
trec_eval orders by score.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa

from argrank.quality.settings import DEFAULTS, RANGES

if TYPE_CHECKING:
    from argrank.quality.model import QualityPredictions

@dataclass(frozen=True)
class Quality:
    """What the re-ranking knows of each document: expected quality, P(argument) and words, by document id."""

    expected: Mapping[str, float]
    argument: Mapping[str, float]
    words: Mapping[str, float]

    @classmethod
    def of(cls, ids: Sequence[str], predicted: QualityPredictions) -> Quality:
        """The model's predictions for the documents `ids`, in that order."""
        return cls(*(dict(zip(ids, values.tolist())) for values in (predicted.quality, predicted.argument,
                                                                    predicted.words)))  # fmt: skip


def rerank(ranking: pa.Table, quality: Quality, settings: Mapping[str, float]) -> pa.Table:
    """`ranking` (qid, doc, rank, score; each topic's rows in rank order) with each topic's top re-ranked."""
    settings = {**DEFAULTS, **settings}
    columns = ranking.to_pydict()
    qids, docs = columns["qid"], columns["doc"]
    scores = np.asarray(columns["score"], dtype=np.float64)
    out_docs: list[str] = []
    out_scores: list[float] = []
    start = 0
    while start < len(qids):
        end = start
        while end < len(qids) and qids[end] == qids[start]:
            end += 1
        order, new_scores = rerank_topic(docs[start:end], scores[start:end], quality, settings)
        out_docs += [docs[start + i] for i in order]
        out_scores += new_scores.tolist()
        start = end
    ranks = _ranks(qids)
    return pa.table({"qid": qids, "doc": out_docs, "rank": ranks, "score": out_scores}, schema=ranking.schema)


def rerank_topic(
    docs: list[str], scores: np.ndarray, quality: Quality, settings: Mapping[str, float]
) -> tuple[np.ndarray, np.ndarray]:
    """One topic's new order (positions into `docs`, which are in rank order) and the scores in that order."""
    top = min(int(settings["depth"]), len(docs))
    combined = combined_scores(docs[:top], scores[:top], quality, settings)
    order = np.lexsort((np.arange(top), -combined))  # ties: the retrieval order
    rest = scores[top:]
    floor = rest.max() + 1.0 if len(rest) else 0.0
    head_scores = floor + combined[order] - combined.min(initial=0.0)
    return np.concatenate([order, np.arange(top, len(docs))]), np.concatenate([head_scores, rest])


def combined_scores(docs: Sequence[str], scores: np.ndarray, quality: Quality,
                    settings: Mapping[str, float]) -> np.ndarray:  # fmt: skip
    """One topic's top documents (`docs`, with their retrieval `scores`) scored as the module docstring says."""
    expected = np.array([quality.expected[doc] for doc in docs])
    argument = np.array([quality.argument[doc] for doc in docs])
    short = np.array([quality.words[doc] < settings["min_words"] for doc in docs], dtype=bool)
    weight = settings["weight"]
    combined = (1 - weight) * _standardised(scores) + weight * _standardised(expected)
    combined -= settings["nonargument_penalty"] * np.where(short, 1.0, 1.0 - argument)
    return combined


def step_scores(candidates: pa.Table, quality: Quality, settings: Mapping[str, float]) -> np.ndarray:
    """The re-ranking as a step of a run (`rerank: [{use: quality, ...}]`, retrieval.steps' contract): one score
    per row of `candidates` (each topic's top, rows of a topic together), each topic's scored by combined_scores."""
    settings = {**DEFAULTS, **settings}
    topics, docs = candidates.column("topic").to_pylist(), candidates.column("doc").to_pylist()
    retrieval = np.asarray(candidates.column("score").to_pylist(), dtype=np.float64)
    out = np.zeros(len(docs))
    start = 0
    while start < len(topics):
        end = start
        while end < len(topics) and topics[end] == topics[start]:
            end += 1
        out[start:end] = combined_scores(docs[start:end], retrieval[start:end], quality, settings)
        start = end
    return out


def step_signature(candidates: pa.Table, weight: float = DEFAULTS["weight"],
                   nonargument_penalty: float = DEFAULTS["nonargument_penalty"],
                   min_words: int = DEFAULTS["min_words"]) -> None:  # fmt: skip
    """The parameters a run's `{use: quality}` step takes (its depth is the step's own), for the runs-file checks."""


step_signature.defaults = {name: DEFAULTS[name] for name in ("weight", "nonargument_penalty", "min_words")}
step_signature.ranges = {name: RANGES[name] for name in step_signature.defaults}


def _standardised(values: np.ndarray) -> np.ndarray:
    spread = values.std()
    return (values - values.mean()) / spread if spread > 0 else np.zeros(len(values))


def _ranks(qids: list[str]) -> list[int]:
    """1, 2, … within each run of equal qids."""
    ranks, previous, rank = [], None, 0
    for qid in qids:
        rank = rank + 1 if qid == previous else 1
        ranks.append(rank)
        previous = qid
    return ranks
