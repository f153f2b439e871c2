"""bench.harness.held_bytes: what a stage's objects hold, by attribute, largest first."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from bench.harness import held_bytes


@dataclass
class Postings:
    indices: np.ndarray
    data: np.ndarray


class Ranker:
    def __init__(self):
        self.postings = Postings(np.zeros(10, np.int32), np.zeros(10, np.uint16))
        self._scores = np.zeros(100)
        self.terms = pa.array(["a", "bb"])
        self.k1 = 1.2


def test_arrays_are_named_by_attribute_one_level_down_largest_first():
    held = held_bytes(Ranker())
    assert list(held) == ["scores", "postings.indices", "postings.data", "terms"]
    assert held["scores"] == 800 and held["postings.indices"] == 40 and held["postings.data"] == 20
    assert held["terms"] == pa.array(["a", "bb"]).nbytes
