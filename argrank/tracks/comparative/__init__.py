"""Touché Task 2, comparative questions: the passages' ingest, the two objects of a question, the stance
labels, training sets and classifier, stance for a ranking, and stance macro-F1."""

from argrank.tracks.comparative.track import TRACK

__all__ = ["TRACK"]
