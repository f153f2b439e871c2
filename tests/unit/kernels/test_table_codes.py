"""kernels/table_codes.py: batches of analyzer ids renumbered by first occurrence across the whole table, so that
the codes depend on the table's rows alone, not on what the analyzer met first."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from argrank.kernels.table_codes import TableCodes


@settings(deadline=None)  # the first example compiles the kernel
@given(st.lists(st.lists(st.integers(0, 300), max_size=20), max_size=6))
def test_codes_number_ids_by_first_occurrence_over_all_batches(batches):
    table, first_seen, codes = TableCodes(), {}, []
    for batch in batches:
        got = table.renumber(np.array(batch, dtype=np.int64))
        assert got.dtype == np.int32 and len(got) == len(batch)
        codes += got.tolist()
        for i in batch:
            first_seen.setdefault(i, len(first_seen))
    assert codes == [first_seen[i] for batch in batches for i in batch]
    assert table.terms.tolist() == list(first_seen)


def test_the_same_rows_get_the_same_codes_whatever_ids_the_analyzer_gave():
    # One table's terms, numbered by two analyzers that met other words first (ids shifted and reordered).
    words = ["tax", "cut", "tax", "rich", "cut"]
    ids_a = {"tax": 7, "cut": 2, "rich": 40}
    ids_b = {"tax": 0, "cut": 91, "rich": 3}
    for ids in (ids_a, ids_b):
        table = TableCodes()
        assert table.renumber(np.array([ids[w] for w in words[:2]])).tolist() == [0, 1]
        assert table.renumber(np.array([ids[w] for w in words[2:]])).tolist() == [0, 2, 1]
        assert [next(w for w, i in ids.items() if i == term) for term in table.terms.tolist()] == ["tax", "cut", "rich"]
