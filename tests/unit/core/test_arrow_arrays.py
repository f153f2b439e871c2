"""core/arrow_arrays.py: a column of one chunk is that chunk, not a copy; several are combined."""

from __future__ import annotations

import pyarrow as pa

from argrank.core.arrow_arrays import one_array


def test_one_array_keeps_a_single_chunk_where_it_lies_and_combines_several():
    chunk = pa.array(["a", "bb", "ccc"])
    single = one_array(pa.chunked_array([chunk]))
    assert single.buffers()[2].address == chunk.buffers()[2].address  # not a copy
    assert one_array(chunk) is chunk
    several = one_array(pa.chunked_array([chunk, pa.array(["d"])]))
    assert isinstance(several, pa.Array) and several.to_pylist() == ["a", "bb", "ccc", "d"]
    assert one_array(pa.chunked_array([], pa.string())).to_pylist() == []
