"""A token table's own term codes: the analyzer's term ids renumbered by first occurrence in the table.

The analyzer numbers a term when it first meets it in the process, so its ids depend on what the process analysed
before (topics, another shard, another table): a table written in those ids was other bytes after a resumed run.
Renumbered in table order, the codes and the terms beside them depend on the table's rows alone.
"""

from __future__ import annotations

import numpy as np
from numba import njit


class TableCodes:
    """Renumbers batch after batch of analyzer ids; `terms` lists the analyzer ids in the table's numbering."""

    def __init__(self) -> None:
        self._local = np.full(0, -1, dtype=np.int64)  # per analyzer id, its code in the table, -1 while unseen
        self._listed = np.empty(0, dtype=np.int64)
        self._count = 0

    def renumber(self, ids: np.ndarray) -> np.ndarray:
        """The table's codes for a batch's analyzer ids (int32, a new array)."""
        needed = int(ids.max()) + 1 if len(ids) else 0
        if needed > len(self._local):  # the analyzer learnt terms since: room for every id up to the largest
            self._local = np.concatenate([self._local, np.full(needed - len(self._local), -1, dtype=np.int64)])
            listed = np.empty(needed, dtype=np.int64)
            listed[: self._count] = self._listed[: self._count]
            self._listed = listed
        codes = np.empty(len(ids), dtype=np.int32)
        self._count = _first_occurrence(ids, self._local, self._listed, self._count, codes)
        return codes

    @property
    def terms(self) -> np.ndarray:
        """The analyzer ids of the table's codes 0, 1, …"""
        return self._listed[: self._count]


@njit(cache=True, nogil=True)
def _first_occurrence(ids, local, listed, count, codes):  # pragma: no cover
    """Each id's code into `codes`, numbering ids not seen before from `count` on; returns the new count."""
    for i in range(len(ids)):
        term = ids[i]
        code = local[term]
        if code < 0:
            code = count
            local[term] = code
            listed[count] = term
            count += 1
        codes[i] = code
    return count
