"""Numeric numpy arrays as Arrow arrays, sharing their memory.

`pa.array(ndarray)` asks whether the array is one of numpy's masked arrays, and numpy loads numpy.ma to answer:
8 ms of a re-run after a change of k1, which converts a handful of arrays and uses no masked array anywhere.
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
