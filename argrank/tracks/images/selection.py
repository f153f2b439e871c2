"""From a topic's candidate images to its run: 10 for PRO and 10 for CON, never one image twice, never two
near-duplicates.

Relevance joins two signals: the text ranking's score, scaled to the topic's best, and — weighted by
`found_weight` — whether a web search for this very topic found the image, discounted by that search's rank
(1 / log2(1 + rank)), as the collection was crawled from such searches. Images a search for the topic found
are candidates even where the text ranking missed them. Each side's score is relevance times the stance
model's probability for that side; the best (image, side) pairs are taken greedily, so an image goes to the
side it fits best unless that side is full, and every list comes out in non-increasing score order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Mapping

import numpy as np
import pyarrow as pa

from argrank.tracks.images.phash import hamming
from argrank.tracks.images.stance import CON, PRO

PER_STANCE = 10  # the task's 10 PRO and 10 CON images per topic
SELECTION_SCHEMA = pa.schema(
    [("qid", pa.string()), ("stance", pa.string()), ("doc", pa.string()), ("rank", pa.int32()), ("score", pa.float64())]
)


@dataclass(frozen=True)
class Candidates:
    """One topic's candidate images with their text score (0 where only a search found them)."""

    qid: str
    docs: list[str]
    text_scores: np.ndarray


def found_strength(rank: int) -> float:
    """How much finding an image at this search rank says: 1 at rank 1, decaying like DCG's discount."""
    return float(1.0 / np.log2(1 + max(rank, 1)))


def candidates(
    ranking: Iterable[tuple[str, str, float]], found: Mapping[str, Mapping[str, int]], topics: Iterable[str]
) -> list[Candidates]:
    """Per topic (in `topics` order): its ranked images (qid, doc, score rows), then images only a search found."""
    ranked: dict[str, dict[str, float]] = {topic: {} for topic in topics}
    for qid, doc, score in ranking:
        ranked[qid][doc] = score
    result = []
    for topic, scores in ranked.items():
        extra = sorted(set(found.get(topic, {})) - set(scores))
        docs = [*scores, *extra]
        result.append(Candidates(topic, docs, np.array([*scores.values(), *[0.0] * len(extra)], dtype=np.float64)))
    return result


def relevance(topic: Candidates, found: Mapping[str, int], found_weight: float) -> np.ndarray:
    """Text score over the topic's best (so 1 at most), plus found_weight × found_strength of the best search rank."""
    best = topic.text_scores.max(initial=0.0)
    text = topic.text_scores / best if best > 0 else np.zeros_like(topic.text_scores)
    searched = np.array([found_strength(found[doc]) if doc in found else 0.0 for doc in topic.docs])
    return text + found_weight * searched


def select(
    docs: list[str],
    relevance_: np.ndarray,
    pro: np.ndarray,
    hashes: np.ndarray,
    near_duplicate_bits: int,
    per_stance: int = PER_STANCE,
) -> list[tuple[str, str, float]]:
    """(stance, doc, score) picks of one topic, each side in non-increasing score order.

    Pairs go best first (ties: document id, then PRO before CON); a pair is skipped when its side is full, its image
    is taken, or a taken image's hash is fewer than `near_duplicate_bits` bits away (0 switches that check off).
    """
    sides = {PRO: relevance_ * pro, CON: relevance_ * (1.0 - pro)}
    pairs = sorted(
        ((float(sides[side][i]), doc, side) for i, doc in enumerate(docs) for side in (PRO, CON)),
        key=lambda pair: (-pair[0], pair[1], pair[2] != PRO),
    )
    position = {doc: i for i, doc in enumerate(docs)}
    taken: list[int] = []
    counts = {PRO: 0, CON: 0}
    picks = []
    for score, doc, side in pairs:
        i = position[doc]
        if counts[side] == per_stance or i in taken:
            continue
        if near_duplicate_bits and taken and hamming(hashes[taken], int(hashes[i])).min() < near_duplicate_bits:
            continue
        taken.append(i)
        counts[side] += 1
        picks.append((side, doc, score))
        if len(taken) == 2 * per_stance:
            break
    return picks


def select_images(
    topics: list[Candidates],
    found: Mapping[str, Mapping[str, int]],
    hashes: Mapping[str, int],
    pro_probability: Callable[[str, list[str]], np.ndarray],
    found_weight: float,
    near_duplicate_bits: int,
    per_stance: int = PER_STANCE,
) -> pa.Table:
    """The run as a table (SELECTION_SCHEMA): per topic its PRO list, then its CON list, ranks from 1.

    `pro_probability(topic, docs)` gives P(PRO) per candidate; `hashes` maps every candidate to its hash.
    """
    columns: dict[str, list] = {name: [] for name in SELECTION_SCHEMA.names}
    for topic in topics:
        if not topic.docs:
            continue
        picks = select(
            topic.docs,
            relevance(topic, found.get(topic.qid, {}), found_weight),
            pro_probability(topic.qid, topic.docs),
            np.array([hashes[doc] for doc in topic.docs], dtype=np.uint64),
            near_duplicate_bits,
            per_stance,
        )
        for side in (PRO, CON):
            chosen = [(doc, score) for stance, doc, score in picks if stance == side]
            columns["qid"] += [topic.qid] * len(chosen)
            columns["stance"] += [side] * len(chosen)
            columns["doc"] += [doc for doc, _ in chosen]
            columns["rank"] += list(range(1, len(chosen) + 1))
            columns["score"] += [score for _, score in chosen]
    return pa.table(columns, schema=SELECTION_SCHEMA)


def searches_by_topic(ids: Iterable[str], rankings: Iterable[list[dict]], topics: Iterable[str]) -> dict[str, dict[str, int]]:
    """topic → image → the best rank at which a search for that topic found the image, for the given topics only."""
    wanted = set(topics)
    found: dict[str, dict[str, int]] = {}
    for doc, searches in zip(ids, rankings, strict=True):
        for search in searches or ():
            if search["topic"] in wanted:
                best = found.setdefault(search["topic"], {})
                best[doc] = min(best.get(doc, search["rank"]), search["rank"])
    return found
