"""kernels/prefetch.py: the cache prefetch compiled loops call. It must be LLVM's prefetch of the element at the
flat index, asked for a write into every cache level, and never change what a loop computes or fault, whatever
the index: the accumulator and the chunk memo prefetch past their arrays' ends."""

from __future__ import annotations

import re

import numpy as np
import pytest
from numba import njit, typeof

from argrank.kernels.prefetch import AHEAD, prefetch


@njit(cache=False)
def _prefetch(array, index):
    return prefetch(array, index)


@njit(cache=False)
def _sum_prefetching(values, ahead):
    """The sum of `values` in order, each element prefetched `ahead` iterations before its read (and past the end)."""
    total = 0.0
    for i in range(len(values)):
        prefetch(values, i + ahead)
        total += values[i]
    return total


def _ir(array: np.ndarray) -> str:
    """The optimised LLVM IR of `_prefetch` compiled for `array`'s type and an int64 index."""
    _prefetch(array, 0)
    return _prefetch.inspect_llvm((typeof(array), typeof(0)))


@pytest.mark.parametrize(
    "array, element", [(np.zeros(8), "double"), (np.zeros((3, 4), dtype=np.int32), "i32")], ids=["float64", "int32 2-d"]
)
def test_it_is_llvms_write_prefetch_into_every_level_of_the_element_at_the_flat_index(array, element):
    """The intrinsic's arguments are (address, 1 = for a write, 3 = keep in every level, 1 = data), and the address
    is the data pointer moved `index` elements of the array's type on, whatever its dimensions."""
    ir = _ir(array)
    address = re.search(rf"%([\w.]+) = getelementptr (?:\w+ )*{element}, ptr %[\w.]+, i64 %arg\.index\b", ir)
    assert address is not None, ir
    call = rf"call void @llvm\.prefetch\.p0\w*\(ptr %{re.escape(address.group(1))}, i32 1, i32 3, i32 1\)"
    assert re.search(call, ir), ir


def test_a_loop_computes_the_same_with_its_prefetches():
    """Prefetching reads and writes nothing: the loop's sum is the plain one, bit for bit, and the array unchanged."""
    values = np.random.default_rng(3).normal(size=1_000)
    before = values.copy()
    expected = 0.0
    for value in values.tolist():
        expected += value
    for ahead in (0, AHEAD, 10 * len(values)):
        assert _sum_prefetching(values, ahead) == expected
    assert values.tobytes() == before.tobytes()


@pytest.mark.parametrize("index", [-(10**12), -1, 8, 10**15])
def test_an_index_outside_the_array_does_not_fault(index):
    """A prefetch is a hint: an address outside the array (or outside any mapping) is neither read nor an error."""
    array = np.arange(8.0)
    assert _prefetch(array, index) is None
    assert array.tolist() == [float(i) for i in range(8)]
