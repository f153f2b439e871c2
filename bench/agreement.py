"""How far a peer's top 10 per topic agrees with ours: the peers score BM25 a little differently (idf floor, length
encoding), so equal speed on unequal rankings would mean little without it."""

from __future__ import annotations

import json
from pathlib import Path

TOP = 10


def agreement(ours_path: str, theirs: dict[str, list[str]]) -> dict:
    """Against our top 10 per topic (the rank stage's file, {topic: [doc ids]}), the peer's: per topic the share of
    documents both lists hold (1 where both are empty), its mean, and how many topics have the same list in the
    same order."""
    ours = json.loads(Path(ours_path).read_text(encoding="utf-8"))
    overlaps, identical = [], 0
    for number, mine in ours.items():
        peer = theirs.get(number, [])[:TOP]
        longer = max(len(mine), len(peer))
        overlaps.append(len(set(mine) & set(peer)) / longer if longer else 1.0)
        identical += mine == peer
    return {
        "topics": len(ours),
        "mean_overlap_at_10": sum(overlaps) / len(overlaps) if overlaps else None,
        "identical_top_10_topics": identical,
    }
