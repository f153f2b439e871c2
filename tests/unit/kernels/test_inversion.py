"""kernels/inversion.py: the compiled inversion against a plain dictionary of postings, with numba's kernels and
the ones built ahead of time: terms numbered by first occurrence in the given document order, each term's
documents ascending, frequencies summed, and the narrow frequency type only where every document fits it."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from argrank.kernels.inversion import NARROW, invert


@st.composite
def documents(draw):
    """Token codes of a few documents (empty ones allowed), the number of distinct codes, and an order of them."""
    distinct = draw(st.integers(1, 12))
    docs = draw(st.lists(st.lists(st.integers(0, distinct - 1), max_size=15), min_size=1, max_size=10))
    order = draw(st.permutations(range(len(docs))))
    return docs, distinct, list(order)


def _reference(docs, order):
    """Per term (by first occurrence in `order`'s documents), its code and its (position, frequency) postings."""
    code_of, postings = [], {}
    for position, row in enumerate(order):
        for code, frequency in Counter(docs[row]).items():
            if code not in postings:
                code_of.append(code)
                postings[code] = []
            postings[code].append((position, frequency))
    # Counter keeps first-insertion order, so a document's new terms are numbered as its tokens meet them.
    return code_of, postings


def _arrays(docs):
    codes = np.array([code for row in docs for code in row], dtype=np.int32)
    offsets = np.cumsum([0, *map(len, docs)]).astype(np.int64)
    return codes, offsets


@pytest.mark.parametrize("built", ["numba", "prebuilt"])
@settings(max_examples=150, deadline=None)
@given(case=documents())
def test_postings_are_a_plain_inversion_in_the_given_order(built, case, request):
    docs, distinct, order = case
    kernels = request.getfixturevalue("prebuilt_kernels") if built == "prebuilt" else None
    codes, offsets = _arrays(docs)
    indptr, indices, data, code_of = invert(codes, offsets, np.array(order), distinct, kernels)
    expected_codes, expected = _reference(docs, order)
    assert code_of.tolist() == expected_codes
    assert indptr[0] == 0 and len(indptr) == len(expected_codes) + 1
    for term, code in enumerate(expected_codes):
        start, end = indptr[term], indptr[term + 1]
        assert list(zip(indices[start:end].tolist(), data[start:end].tolist())) == expected[code]
    assert indices.dtype == np.int32 and data.dtype == NARROW


def test_frequencies_widen_where_a_document_outgrows_the_narrow_type():
    longest = int(np.iinfo(NARROW).max) + 1
    docs = [[0] * longest, [1, 0]]
    codes, offsets = _arrays(docs)
    indptr, indices, data, code_of = invert(codes, offsets, np.arange(2), 2)
    assert data.dtype == np.int32
    assert code_of.tolist() == [0, 1]
    assert indices.tolist() == [0, 1, 1] and data.tolist() == [longest, 1, 1]  # no wrap at 65,536
    assert indptr.tolist() == [0, 2, 3]
