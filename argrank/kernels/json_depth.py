"""A bound on how deeply a streamed JSON file nests, checked as its bytes are read.

ijson builds a nested value with work and memory that grow with the square of its depth: one args.me argument of
a few hundred kilobytes, with a field nested deep enough, can exhaust the machine's memory. The files we stream
nest a few levels, so a reader that counts brackets outside strings refuses a file past MAX_DEPTH before the parser
sees the bytes.
Counting costs a compiled pass over the bytes; inside strings, most of the file, it takes eight bytes at a time.
"""

from __future__ import annotations

from typing import BinaryIO

import numpy as np
from numba import njit

from argrank.kernels.machine_words import load_word, repeated, zero_bytes

MAX_DEPTH = 100  # arrays and objects inside one another; args.me's arguments nest 4 deep


_QUOTES, _BACKSLASHES = repeated(ord('"')), repeated(ord("\\"))


class TooDeep(Exception):
    """Raised by DepthGuard.read when the file nests deeper than its limit; `offset` is the byte that did."""

    def __init__(self, offset: int, limit: int):
        super().__init__(f"JSON nested deeper than {limit} levels (at byte offset {offset})")
        self.offset = offset


class DepthGuard:
    """A binary file's `read`, raising TooDeep where the bytes open more than `limit` levels. The bytes before that
    bracket are still returned, so a parser yields every value that ends before it (and messages count them)."""

    def __init__(self, handle: BinaryIO, limit: int = MAX_DEPTH):
        self.handle = handle
        self.limit = limit
        self._state = np.zeros(3, dtype=np.int64)  # depth, inside a string, bytes to skip (an escaped one)
        self._offset = 0
        self._too_deep: TooDeep | None = None

    def read(self, size: int = -1) -> bytes:
        if self._too_deep is not None:
            raise self._too_deep
        data = self.handle.read(size)
        at = _deepest(np.frombuffer(data, dtype=np.uint8), self._state, self.limit)
        if at >= 0:
            self._too_deep = TooDeep(self._offset + at, self.limit)
            if at == 0:
                raise self._too_deep
            data = data[:at]
        self._offset += len(data)
        return data

    def tell(self) -> int:
        return self.handle.tell()


@njit(cache=True, nogil=True)
def _deepest(data, state, limit):  # pragma: no cover
    """Follow the nesting through `data`, carrying `state` from the previous bytes; the position of the bracket
    that opens level limit + 1, or -1. Brackets inside strings do not count; an escaped byte is skipped."""
    depth, in_string, i = state[0], state[1], state[2]
    n = len(data)
    while i < n:
        if in_string:  # skip eight bytes at a time while none of them is a quote or a backslash
            while i + 8 <= n:
                word = load_word(data, i)
                if zero_bytes(word ^ _QUOTES) | zero_bytes(word ^ _BACKSLASHES):
                    break
                i += 8
            if i >= n:
                break
        c = data[i]
        if in_string:
            if c == 92:  # backslash: the next byte is escaped, maybe in the next read
                i += 1
            elif c == 34:
                in_string = 0
        elif c == 34:
            in_string = 1
        elif c == 91 or c == 123:
            depth += 1
            if depth > limit:
                return i
        elif c == 93 or c == 125:
            depth -= 1
        i += 1
    state[0], state[1], state[2] = depth, in_string, i - n
    return -1
