"""Perspective argument retrieval: the release's corpus, queries and predictions, the multilingual document
table, cross-lingual ranking, the three scenarios' re-ranking, and the released evaluator's relevance and
diversity measures."""

from argrank.tracks.perspective.track import TRACK

__all__ = ["TRACK"]
