"""The depth bound of streamed JSON: brackets in strings and escaped quotes do not count, whatever the reads'
sizes, and the byte that opens one level too many is the one named."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from argrank.kernels.json_depth import DepthGuard, TooDeep

VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\\\ab\\n'),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(alphabet='[]{}"\\\\a'), inner, max_size=3),
    max_leaves=30,
)


def depth(value) -> int:
    if isinstance(value, list):
        return 1 + max(map(depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(depth, value.values()), default=0)
    return 0


class Trickle(io.BytesIO):
    """Reads of at most `size` bytes, so escapes and strings cross read boundaries."""

    def __init__(self, data: bytes, size: int):
        super().__init__(data)
        self.size = size

    def read(self, size: int = -1) -> bytes:
        return super().read(self.size)


def read_all(guard: DepthGuard) -> bytes:
    chunks = []
    while chunk := guard.read(1 << 16):
        chunks.append(chunk)
    return b"".join(chunks)


@settings(deadline=None)  # the first example loads the compiled loop
@given(VALUES, st.integers(1, 9))
def test_the_bound_is_the_values_depth(value, size):
    data = json.dumps(value).encode()
    assert read_all(DepthGuard(Trickle(data, size), limit=depth(value))) == data
    if depth(value) > 0:
        with pytest.raises(TooDeep):
            read_all(DepthGuard(Trickle(data, size), limit=depth(value) - 1))


def test_the_offset_is_the_bracket_that_opened_one_level_too_many():
    data = b'{"a": "[[[\\"{{", "b": [[[1]]]}'
    with pytest.raises(TooDeep) as error:
        read_all(DepthGuard(Trickle(data, 2), limit=3))
    assert error.value.offset == data.index(b"[[1") + 1


# Long strings, read in pieces of any size: the scan takes a string's bytes eight at a time, so quotes, backslashes
# and brackets fall at every position of a word and on either side of a read's end.
LONG_VALUES = st.recursive(
    st.text(alphabet='[]{}"\\\\ab\\né', max_size=40),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(alphabet='"\\\\a[', max_size=20), inner, max_size=3),
    max_leaves=20,
)


@settings(deadline=None, max_examples=300)
@given(LONG_VALUES, st.sampled_from([1, 3, 7, 8, 9, 15, 16, 17, 64, 1 << 16]))
def test_the_bound_holds_across_words_and_reads(value, size):
    data = json.dumps(value, ensure_ascii=False).encode()
    assert read_all(DepthGuard(Trickle(data, size), limit=depth(value))) == data
    if depth(value) > 0:
        with pytest.raises(TooDeep) as error:
            read_all(DepthGuard(Trickle(data, size), limit=depth(value) - 1))
        assert error.value.offset == _first_too_deep(data, depth(value))


def _first_too_deep(data: bytes, level: int) -> int:
    """Where `data` first opens `level` levels, by a byte-at-a-time reading of JSON's strings and escapes."""
    depth, in_string, escaped = 0, False, False
    for offset, byte in enumerate(data):
        if escaped:
            escaped = False
        elif in_string:
            escaped, in_string = byte == 92, byte != 34
        elif byte == 34:
            in_string = True
        elif byte in b"[{":
            depth += 1
            if depth == level:
                return offset
        elif byte in b"]}":
            depth -= 1
    raise AssertionError("never that deep")
