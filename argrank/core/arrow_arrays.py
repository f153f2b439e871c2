"""Arrow arrays made without needless work: from a numeric numpy array, and from a table's column.

`pa.array(ndarray)` asks whether the array is one of numpy's masked arrays, and numpy loads numpy.ma to answer:
8 ms of a re-run after a change of k1, which converts a handful of arrays and uses no masked array anywhere.
`ChunkedArray.combine_chunks()` copies even a column of one chunk: the bench index's 387,740 document ids, mapped
from their file, took 4 ms to copy in every process that ranks.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa


def arrow_array(values: np.ndarray) -> pa.Array:
    """A 1-d array of integers or floats as an Arrow array of the same type, without nulls; the Arrow array keeps
    the numpy array's memory alive."""
    values = np.ascontiguousarray(values)
    if values.ndim != 1 or values.dtype.kind not in "iuf" or not values.dtype.isnative:
        raise TypeError(f"expected a 1-d array of native integers or floats, got {values.ndim}-d {values.dtype}")
    return pa.Array.from_buffers(pa.from_numpy_dtype(values.dtype), len(values), [None, pa.py_buffer(values)])


def one_array(column: pa.ChunkedArray | pa.Array) -> pa.Array:
    """The column as one array: its only chunk as it is (in a mapped file, still there), several combined."""
    if isinstance(column, pa.Array):
        return column
    return column.chunk(0) if column.num_chunks == 1 else column.combine_chunks()
