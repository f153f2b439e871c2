"""Term strings to term ids, the one lookup an index and a collection's statistics share for query terms."""

from __future__ import annotations

from functools import cached_property
from typing import Iterable

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from argrank.core.arrow_arrays import one_array


class Vocabulary:
    """Terms numbered by their position in `terms`."""

    def __init__(self, terms: pa.Array):
        self.terms = terms

    @cached_property
    def _ids(self) -> dict[str, int]:
        # zip with a range, not a comprehension over enumerate: the map holds every term of the index, and the zip
        # builds it without a Python loop.
        return dict(zip(self.terms.to_pylist(), range(len(self.terms))))

    def ids(self, terms: Iterable[str]) -> list[int]:
        """Ids of the given terms in their order, repeats kept, terms not in the vocabulary dropped."""
        ids = self._ids
        return [ids[t] for t in terms if t in ids]

    def ids_of_lists(self, lists: pa.Array | pa.ChunkedArray) -> list[list[int]]:
        """`ids` of each list of a list<string> column (a null list has none), all looked up at once in Arrow
        instead of through the term map `ids` builds: a new process ranking a run's queries need not build a map
        of every term of the index first."""
        lists = one_array(lists)
        found = pc.fill_null(pc.index_in(pc.list_flatten(lists), value_set=self.terms), -1).to_numpy()
        lengths = pc.list_value_length(lists)  # int32, or int64 for large lists
        ends = np.cumsum(pc.coalesce(lengths, pa.scalar(0, lengths.type)).to_numpy())
        return [[int(i) for i in part if i >= 0] for part in np.split(found, ends[:-1])] if len(lists) else []
