"""kernels/machine_words.py: the eight-bytes-at-a-time helpers against byte-by-byte Python, on any bytes (zero
bytes, bytes of 0x80 and above, a word whose sum would carry), at any offset: the scans built on them trust these."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from argrank.kernels.machine_words import load_word, repeated, trailing_zeros, zero_bytes


@njit(cache=False)
def _load(array, index):
    return load_word(array, index)


@njit(cache=False)
def _trailing(word):
    return trailing_zeros(word)


@njit(cache=False)
def _zeros(word):
    return zero_bytes(word)


@settings(deadline=None)  # the first example compiles
@given(st.binary(min_size=8, max_size=40), st.data())
def test_a_loaded_word_is_its_eight_bytes_lowest_first(data, draw):
    at = draw.draw(st.integers(0, len(data) - 8))
    array = np.frombuffer(data, dtype=np.uint8)
    assert int(_load(array, at)) == int.from_bytes(data[at : at + 8], "little")


@settings(deadline=None)
@given(st.binary(min_size=8, max_size=8), st.integers(0, 255))
def test_zero_bytes_flags_exactly_the_bytes_equal_to_one_value(data, byte):
    word = np.uint64(int.from_bytes(data, "little"))
    flags = int(_zeros(word ^ repeated(byte)))
    expected = sum(0x80 << (8 * i) for i, b in enumerate(data) if b == byte)
    assert flags == expected


@settings(deadline=None)
@given(st.integers(0, 2**64 - 1))
def test_trailing_zeros_counts_the_zero_bits_below_the_lowest_set_one(value):
    expected = 64 if value == 0 else (value & -value).bit_length() - 1
    assert int(_trailing(np.uint64(value))) == expected


def test_repeated_puts_the_byte_in_every_position():
    assert int(repeated(0x22)) == 0x2222222222222222
    assert int(repeated(0xFF)) == 2**64 - 1
