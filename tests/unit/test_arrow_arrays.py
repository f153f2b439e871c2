"""core/arrow_arrays.py: the Arrow array of a numeric numpy array is pa.array's, shares its memory, and refuses
what it cannot share; a column of one chunk is that chunk, not a copy."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from argrank.core.arrow_arrays import arrow_array, one_array

NUMERIC = st.sampled_from([np.int32, np.int64, np.uint16, np.uint8, np.float32, np.float64])


@given(arrays(NUMERIC, st.integers(0, 40)), st.integers(0, 3))
def test_the_array_is_pa_arrays_even_of_a_strided_view(values, step):
    view = values[:: step + 1]
    array, theirs = arrow_array(view), pa.array(view)
    assert array.type == theirs.type and array.null_count == theirs.null_count == 0
    assert array.to_numpy().tobytes() == theirs.to_numpy().tobytes()  # NaN too


def test_the_array_shares_the_numpy_arrays_memory():
    values = np.arange(5, dtype=np.int64)
    array = arrow_array(values)
    values[2] = 40
    assert array.to_pylist() == [0, 1, 40, 3, 4] and array.null_count == 0


@pytest.mark.parametrize(
    "values",
    [np.zeros((2, 2)), np.array([True, False]), np.array(["a"]), np.arange(3, dtype=">i4"), np.array([None])],
    ids=["2-d", "bool", "text", "big-endian", "objects"],
)
def test_what_cannot_be_shared_is_refused(values):
    with pytest.raises(TypeError, match="expected a 1-d array of native integers or floats"):
        arrow_array(values)


def test_one_array_keeps_a_single_chunk_where_it_lies_and_combines_several():
    chunk = pa.array(["a", "bb", "ccc"])
    single = one_array(pa.chunked_array([chunk]))
    assert single.buffers()[2].address == chunk.buffers()[2].address  # not a copy
    assert one_array(chunk) is chunk
    several = one_array(pa.chunked_array([chunk, pa.array(["d"])]))
    assert isinstance(several, pa.Array) and several.to_pylist() == ["a", "bb", "ccc", "d"]
    assert one_array(pa.chunked_array([], pa.string())).to_pylist() == []
