"""The chunk memo's rows against a dict: one row per distinct chunk, numbered by first occurrence, over batches.

The memo keys a chunk by its hash, its length and its first sixteen bytes, and compares the rest in its bytes; the
strings here share long starts, differ past the sixteenth byte only, straddle the eight- and sixteen-byte words and
outnumber the table's first size, so every path of the lookup is taken.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from argrank.kernels.chunk_memo import ChunkMemo, _is_space, _spaces

_STARTS = ["", "a", "abcdefg", "abcdefgh", "abcdefghijklmno", "abcdefghijklmnop", "abcdefghijklmnopq", "é" * 9]
_chunks = st.builds(lambda start, tail: start + tail, st.sampled_from(_STARTS), st.text("xyé\x00", max_size=20))
_texts = st.lists(st.lists(_chunks, max_size=12).map(lambda words: " ".join(w for w in words if w)), max_size=30)


def test_eight_bytes_at_a_time_find_the_spaces_one_byte_does():
    """Every byte value at every place of a word, beside every other byte value: `_spaces` flags exactly the bytes
    `_is_space` (Arrow's ascii_split_whitespace) holds, whatever their neighbours."""
    values = np.arange(256, dtype=np.uint8)
    for place in range(8):
        for neighbour in range(256):
            words = np.full((256, 8), neighbour, dtype=np.uint8)
            words[:, place] = values
            flags = np.array([_spaces(w) for w in words.view("<u8").ravel()], dtype=np.uint64)
            got = (flags.view(np.uint8).reshape(256, 8) == 0x80)[:, place]
            assert got.tolist() == [bool(_is_space(v)) for v in range(256)]
            assert ((flags.view(np.uint8) & 0x7F) == 0).all()


def _expected(batches: list[list[str]]) -> tuple[list[list[int]], list[list[int]]]:
    rows: dict[str, int] = {}
    found, counts = [], []
    for texts in batches:
        batch_rows = [rows.setdefault(chunk, len(rows)) for text in texts for chunk in text.split()]
        found.append(batch_rows)
        counts.append([len(text.split()) for text in texts])
    return found, counts


def _learn_nothing(memo: ChunkMemo, new: pa.Array) -> None:
    zeros = np.zeros(len(new), dtype=np.int64)
    memo.learn(np.empty(0, dtype=np.int64), zeros, zeros.astype(np.int32), [0] * len(new))


@settings(max_examples=200, deadline=None)
@given(st.lists(_texts, min_size=1, max_size=4))
def test_rows_are_first_occurrences_across_batches(batches):
    memo = ChunkMemo()
    expected_rows, expected_counts = _expected(batches)
    learned: list[str] = []
    for texts, rows, counts in zip(batches, expected_rows, expected_counts):
        found, chunk_counts, new = memo.find(pa.array(texts, type=pa.large_string()))
        assert found.tolist() == rows
        assert chunk_counts.tolist() == counts
        learned += new.to_pylist()
        _learn_nothing(memo, new)
    assert learned == list(dict.fromkeys(c for texts in batches for text in texts for c in text.split()))


def test_a_batch_larger_than_the_table_and_a_block():
    """More distinct chunks than the first table's slots (it grows) and than a block of split chunks."""
    texts = [" ".join(f"abcdefghijklmnop{i:06d}{j}" for j in range(7)) for i in range(30_000)]
    expected_rows, expected_counts = _expected([texts, texts[::-1]])
    memo = ChunkMemo()
    for batch, rows, counts in zip([texts, texts[::-1]], expected_rows, expected_counts):
        found, chunk_counts, new = memo.find(pa.array(batch, type=pa.large_string()))
        assert found.tolist() == rows and chunk_counts.tolist() == counts
        _learn_nothing(memo, new)
    assert len(memo) == 210_000


_MASK, _PRIME = (1 << 64) - 1, 0x100000001B3


def _mixed(words: list[int]) -> int:
    """The memo's hash state after a chunk's first little-endian eight-byte words."""
    h = 0xCBF29CE484222325
    for word in words:
        h = ((h ^ word) * _PRIME) & _MASK
    return h


def _hash_words(words: list[int], length: int) -> int:
    """The memo's hash of a chunk whose length is a multiple of eight."""
    return ((((_mixed(words) * _PRIME) & _MASK) ^ length) * _PRIME) & _MASK


def _colliding_pair() -> tuple[bytes, bytes]:
    """Two 32-byte chunks with the same first sixteen bytes, length and hash, but other last sixteen bytes."""
    rng = np.random.default_rng(0)
    start = b"abcdefghijklmnop"
    words = [int.from_bytes(start[i : i + 8], "little") for i in (0, 8)]
    h = _mixed(words)
    spaces = {9, 10, 11, 12, 13, 32}
    while True:
        third, fourth, other_third = (int(rng.integers(0, 1 << 62)) | (0x41 << 56) for _ in range(3))
        other_fourth = (((h ^ third) * _PRIME) & _MASK) ^ fourth ^ (((h ^ other_third) * _PRIME) & _MASK)
        pieces = [w.to_bytes(8, "little") for w in (third, fourth, other_third, other_fourth)]
        if not any(b in spaces for piece in pieces for b in piece):
            one, two = start + pieces[0] + pieces[1], start + pieces[2] + pieces[3]
            assert _hash_words(words + [third, fourth], 32) == _hash_words(words + [other_third, other_fourth], 32)
            return one, two


def _binary_texts(texts: list[bytes]) -> pa.Array:
    """A large_string array of arbitrary bytes (the memo reads bytes; it never decodes them)."""
    offsets = np.concatenate([[0], np.cumsum([len(t) for t in texts])]).astype(np.int64)
    return pa.LargeStringArray.from_buffers(len(texts), pa.py_buffer(offsets), pa.py_buffer(b"".join(texts)))


def test_chunks_with_one_hash_are_told_apart_by_their_bytes():
    """A hash collision between chunks that share their first sixteen bytes: the bytes past them decide, whether
    the first of the two is new in the same batch or already in the memo."""
    one, two = _colliding_pair()
    memo = ChunkMemo()
    rows, _, new = memo.find(_binary_texts([one + b" " + two + b" " + one]))
    assert rows.tolist() == [0, 1, 0]
    _learn_nothing(memo, new)
    rows, _, new = memo.find(_binary_texts([two, one]))
    assert rows.tolist() == [1, 0] and len(new) == 0
