"""index/vocabulary.py: a run's queries looked up at once give each query's ids as the term map does."""

from __future__ import annotations

import pyarrow as pa
from hypothesis import given
from hypothesis import strategies as st

from argrank.index.vocabulary import Vocabulary

WORDS = st.sampled_from(["a", "b", "cc", "é", "", "a b", "zz"])


@given(st.lists(WORDS, unique=True), st.lists(st.none() | st.lists(WORDS, max_size=6), max_size=8),
       st.integers(0, 2), st.sampled_from([pa.list_(pa.string()), pa.large_list(pa.string())]))  # fmt: skip
def test_the_lists_lookup_is_the_term_maps(terms, queries, skip, list_type):
    vocabulary = Vocabulary(pa.array(terms, pa.string()))
    column = pa.array([["x"]] * skip + queries, list_type).slice(skip)  # a column inside its buffers
    expected = [vocabulary.ids(query or []) for query in queries]
    assert vocabulary.ids_of_lists(column) == expected
    chunked = pa.chunked_array([column[:1], column[1:]], column.type) if len(column) else column
    assert vocabulary.ids_of_lists(chunked) == expected
