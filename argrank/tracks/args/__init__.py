"""Touché Task 1, argument retrieval for controversial questions: the args.me corpus's streaming ingest and the
ir_datasets ids it reads from ir_datasets' cache. Its ranking, runs and nDCG@5 evaluation are the shared stages'."""

from argrank.tracks.args.track import TRACK

__all__ = ["TRACK"]
