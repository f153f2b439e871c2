"""Term strings to term ids, the one lookup an index and a collection's statistics share for query terms."""

from __future__ import annotations

from functools import cached_property
from typing import Iterable

import pyarrow as pa


class Vocabulary:
    """Terms numbered by their position in `terms`."""

    def __init__(self, terms: pa.Array):
        self.terms = terms

    @cached_property
    def _ids(self) -> dict[str, int]:
        return {term: i for i, term in enumerate(self.terms.to_pylist())}

    def ids(self, terms: Iterable[str]) -> list[int]:
        """Ids of the given terms in their order, repeats kept, terms not in the vocabulary dropped."""
        ids = self._ids
        return [ids[t] for t in terms if t in ids]
