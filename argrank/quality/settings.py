"""The quality re-ranking's settings, their defaults and ranges: what a runs file's `quality` may say (read without
importing the re-ranking's numpy and Arrow code)."""

from __future__ import annotations

from argrank.core.params import Range

DEFAULTS = {"weight": 0.5, "depth": 100, "nonargument_penalty": 0.0, "min_words": 0}
RANGES = {
    "weight": Range(0, 1),  # 0: the retrieval order, 1: quality alone within the top
    "depth": Range(1, integer=True),
    "nonargument_penalty": Range(),
    "min_words": Range(integer=True),
}
