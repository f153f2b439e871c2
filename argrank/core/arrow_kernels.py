"""Arrow's compute kernels called by name, without importing pyarrow.compute.

pyarrow.compute, when imported, wraps each of Arrow's ~290 kernels in a Python function with a generated
signature and docstring: some 30 ms of CPU in every process that imports it, and the re-run after a change of k1
does all its own work in a few hundred. The kernels, and the options classes they take, are in pyarrow._compute,
which pyarrow.compute re-exports as they are; its wrappers call them through `call_function`, as `kernel` does.
Arrow's array methods that compute (`take`, `filter`, `cast`, `fill_null`, ...) import pyarrow.compute on first
use, so the stages a re-run goes through (ranking a run, writing and checking it) call kernels here only.
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa

try:
    from pyarrow._compute import CastOptions, RankOptions, SetLookupOptions, SortOptions, call_function
except ImportError:  # should pyarrow move them: the same objects, at the public module's price
    from pyarrow.compute import CastOptions, RankOptions, SetLookupOptions, SortOptions, call_function

__all__ = [
    "CastOptions", "RankOptions", "SetLookupOptions", "SortOptions", "call_function",
    "cast", "index_in", "kernel", "take",
]  # fmt: skip


def kernel(name: str, *args: Any, options: Any = None) -> Any:
    """Arrow's kernel `name` applied to `args` (arrays, chunked arrays, scalars), with `options` or its defaults."""
    return call_function(name, list(args), options)


def take(values: pa.Array | pa.Table, indices: pa.Array) -> Any:
    """`values.take(indices)`: the rows at `indices`, in their order."""
    return call_function("take", [values, indices])


def cast(values: pa.Array, to: pa.DataType) -> pa.Array:
    """`values.cast(to)`, checked: a value that does not fit is an error, not truncated."""
    return call_function("cast", [values], CastOptions.safe(to))


def index_in(values: pa.Array, value_set: pa.Array, missing: int) -> pa.Array:
    """Each value's position in `value_set`, `missing` where it is not there (int32)."""
    found = call_function("index_in", [values], SetLookupOptions(value_set))
    return call_function("coalesce", [found, pa.scalar(missing, found.type)])
