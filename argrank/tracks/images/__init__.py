"""Image retrieval for arguments: the crawled collection's ingest (pages, DOM context, searches, perceptual
hashes), image judgments, the image stance scorer, the choice of 10 PRO and 10 CON images, and their
precision measures."""

from argrank.tracks.images.track import TRACK

__all__ = ["TRACK"]
