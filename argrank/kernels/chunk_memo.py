"""The analyzer's memo of whitespace-delimited chunks, in flat arrays that compiled loops (numba) read.

A batch of texts becomes terms in two passes over its bytes: `scan` splits the texts where Arrow's
ascii_split_whitespace does, hashes each chunk and finds its memo row (a chunk not seen before gets the next row at
once, so a batch's repeats of it are found too), and `gather` concatenates the rows' terms per text and finds the
texts where two neighbouring chunks may take part in one spaCy special case (ChunkBorders). In Arrow the same takes
a split, a hash table of the memo per batch, a lookup per chunk and a take, each a pass of its own.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
from numba import njit

from argrank.kernels.machine_words import HIGH, load_word, repeated, trailing_zeros, zero_bytes
from argrank.kernels.prefetch import AHEAD, prefetch

FULL = -1  # what `scan` returns when the hash table is too full for the batch's new chunks
_EMPTY = -1  # a free slot of the hash table
# The hash mixes the chunk's bytes eight at a time (as one integer each) and then its length, FNV-1a-like, in uint64
# arithmetic (it wraps; see machine_words); the table holds hashes, rows, spans and words as int64, in one array.
_BLOCK = 1024  # chunks split ahead of their probes
_BLANKS, _NINES, _FOURTEENS = repeated(32), repeated(9), repeated(14)  # byte-wise constants for `_spaces`
_OFFSET_BASIS, _PRIME = np.uint64(0xCBF29CE484222325), np.uint64(0x100000001B3)
_HASH, _ROW_LENGTH, _WORD, _SECOND = 0, 1, 2, 3  # a slot's fields: 32 bytes, two to a cache line
# A row's record: its one term, or where its terms start in `terms`; how many; its border codes (ChunkBorders).
_TERMS, _COUNT, _TAIL, _HEAD = 0, 1, 2, 3


@njit(cache=True, nogil=True)
def _is_space(byte):  # pragma: no cover
    """ASCII whitespace as Arrow's ascii_split_whitespace has it: tab, line feed, vertical tab, form feed, return,
    space. No byte of a multi-byte UTF-8 character is below 128, so the text's bytes can be split as they are."""
    return byte == 32 or 9 <= byte <= 13


@njit(cache=True, nogil=True)
def _slot(h, mask):  # pragma: no cover
    return (h ^ (h >> 29)) & mask  # the multiply leaves its best bits high: fold them into the low ones


@njit(cache=True, nogil=True)
def _same(a, a_start, b, b_start, length):  # pragma: no cover
    for i in range(length):
        if a[a_start + i] != b[b_start + i]:
            return False
    return True


@njit(cache=True, nogil=True)
def _spaces(word):  # pragma: no cover
    """0x80 in each byte of an eight-byte word that `_is_space` holds, 0 in the others: byte-wise tests in
    integer arithmetic that never carries from one byte into the next."""
    blank = zero_bytes(word ^ _BLANKS)  # the byte is 32
    raised = word | HIGH  # each byte's low seven bits, plus 128, so the subtractions below borrow nothing
    control = ~(raised - _FOURTEENS) & (raised - _NINES) & ~word & HIGH  # an ASCII byte from 9 to 13
    return blank | control


@njit(cache=True, nogil=True)
def _chunk(data, position, end):  # pragma: no cover
    """The chunk that starts at or after `position` (spaces skipped) and before `end`: its start and end, hash,
    and first and second eight bytes as one integer each (zero where it is shorter).

    The chunk's bytes are read eight at a time, its end found by `_spaces` and a trailing-zero count, not by a loop
    that branches on every byte. Where fewer than eight bytes of `data` remain, a byte at a time."""
    while position < end and _is_space(data[position]):
        position += 1
    start = position
    h, word, first, second = _OFFSET_BASIS, np.uint64(0), np.uint64(0), np.uint64(0)  # word: the bytes not yet mixed
    tail = True
    while position + 8 <= len(data):
        eight = load_word(data, position)
        stops = _spaces(eight)
        if end - position < 8:  # bytes past the text's end stop the chunk as spaces do
            stops |= HIGH << np.uint64(8 * (end - position))
        if stops == 0:
            h = (h ^ eight) * _PRIME
            if position == start:
                first = eight
            elif position - start == 8:
                second = eight
            position += 8
            continue
        kept = trailing_zeros(stops) >> 3  # bytes of the chunk in this word
        word = eight & ((np.uint64(1) << np.uint64(8 * kept)) - np.uint64(1))
        position += kept
        tail = False
        break
    if tail:  # fewer than eight bytes of data left: no whole word remains to mix
        shift = 0
        while position < end and not _is_space(data[position]):
            word |= np.uint64(data[position]) << np.uint64(shift)
            shift += 8
            position += 1
    length = position - start
    if length < 8:
        first = word
    elif 8 < length < 16:
        second = word
    h = (((h ^ word) * _PRIME) ^ np.uint64(length)) * _PRIME
    return start, position, np.int64(h), np.int64(first), np.int64(second)  # as the table holds them


@njit(cache=True, nogil=True)
def scan(data, offsets, slots, known, memo_bytes, memo_offsets, rows, chunk_counts, new_spans):  # pragma: no cover
    """Split texts (`data` bytes, `offsets` per text) into their non-empty chunks and write each chunk's memo row
    to `rows`, each text's number of chunks to `chunk_counts`. A chunk none of the `known` rows holds gets the next
    row; its span of `data` goes to `new_spans`. Returns (chunks, new chunks), or (FULL, 0) when the table would be
    more than half full.

    A slot holds a chunk's hash, row and length, and first and second eight bytes as one integer each: a
    chunk of up to sixteen bytes (nearly every word) is found by reading its slot alone, a longer one by comparing
    its later bytes too, in the memo (`memo_bytes` at `memo_offsets`) or, a chunk new in this batch, in `data`.
    (With the first eight alone, each word of nine to sixteen bytes would be compared in the memo too, a read far
    from the slot.) On a large corpus the table outgrows the cache, so the chunks are split a block at a time and
    each slot is prefetched some chunks before it is probed."""
    mask = len(slots) - 1
    starts, ends, hashes = np.empty(_BLOCK, np.int64), np.empty(_BLOCK, np.int64), np.empty(_BLOCK, np.int64)
    firsts, seconds = np.empty(_BLOCK, np.int64), np.empty(_BLOCK, np.int64)
    n = new = 0
    text, count = 0, 0
    texts = len(offsets) - 1
    position = offsets[0] if texts > 0 else 0
    while text < texts:
        block = 0
        while block < _BLOCK and text < texts:
            start, position, h, first, second = _chunk(data, position, offsets[text + 1])
            if position == start:  # no chunk left in this text
                chunk_counts[text] = count
                text, count = text + 1, 0
                if text < texts:
                    position = offsets[text]
                continue
            starts[block], ends[block], hashes[block], firsts[block], seconds[block] = start, position, h, first, second
            block += 1
            count += 1
        for j in range(block):
            if j + AHEAD < block:
                prefetch(slots, _slot(hashes[j + AHEAD], mask) * 4)
            start, h, first, second = starts[j], hashes[j], firsts[j], seconds[j]
            length = ends[j] - start
            slot = _slot(h, mask)
            while True:
                packed = slots[slot, _ROW_LENGTH]
                if packed == _EMPTY:
                    if 2 * (known + new + 1) > len(slots):
                        return FULL, 0
                    row = known + new
                    slots[slot, _HASH], slots[slot, _ROW_LENGTH] = h, (row << 32) | length
                    slots[slot, _WORD], slots[slot, _SECOND] = first, second
                    new_spans[new, 0], new_spans[new, 1] = start, ends[j]
                    new += 1
                    break
                if (
                    slots[slot, _HASH] == h and slots[slot, _WORD] == first and slots[slot, _SECOND] == second
                    and (packed & 0xFFFFFFFF) == length
                ):  # fmt: skip
                    row = packed >> 32
                    if length <= 16:  # the two words are the whole chunk
                        break
                    if row < known:
                        if _same(memo_bytes, memo_offsets[row] + 16, data, start + 16, length - 16):
                            break
                    elif _same(data, new_spans[row - known, 0] + 16, data, start + 16, length - 16):
                        break
                slot = (slot + 1) & mask
            rows[n] = row
            n += 1
    return n, new


@njit(cache=True, nogil=True)
def rehash(old, size, slots):  # pragma: no cover
    """Move the first `size` rows' slots of the table `old` into the empty, larger table `slots`."""
    mask = len(slots) - 1
    for i in range(len(old)):
        packed = old[i, _ROW_LENGTH]
        if packed != _EMPTY and (packed >> 32) < size:
            slot = _slot(old[i, _HASH], mask)
            while slots[slot, _ROW_LENGTH] != _EMPTY:
                slot = (slot + 1) & mask
            slots[slot] = old[i]


@njit(cache=True, nogil=True)
def gather(rows, chunk_counts, info, terms, crossing):  # pragma: no cover
    """Each text's terms, concatenated, with its count of terms; and the texts in which two neighbouring chunks
    may take part in one special-case match (a chunk whose end starts one, followed by one that may continue it).
    A row's `info` is one record (ChunkMemo.learn): each chunk costs one read far away, not four, prefetched some
    chunks ahead as its terms are copied."""
    total = 0
    for i in range(len(rows)):
        total += info[rows[i], _COUNT]
    codes = np.empty(total, dtype=np.int32)
    lengths = np.zeros(len(chunk_counts), dtype=np.int64)
    crossed = np.zeros(len(chunk_counts), dtype=np.bool_)
    n = i = 0
    tail = 0
    for text in range(len(chunk_counts)):
        for k in range(chunk_counts[text]):
            if i + AHEAD < len(rows):
                prefetch(info, rows[i + AHEAD] * 4)
            record = info[rows[i]]
            count = record[_COUNT]
            if count == 1:
                codes[n] = record[_TERMS]
            else:
                for t in range(count):
                    codes[n + t] = terms[record[_TERMS] + t]
            n += count
            if k > 0 and tail != 0 and crossing[tail, record[_HEAD]]:
                crossed[text] = True
            tail = record[_TAIL]
            i += 1
        lengths[text] = n
    for text in range(len(lengths) - 1, 0, -1):
        lengths[text] -= lengths[text - 1]
    return codes, lengths, np.flatnonzero(crossed)


class ChunkMemo:
    """Every distinct chunk seen since the last `clear`, by row: its bytes, its slot in the hash table, and its
    record (terms and border codes)."""

    def __init__(self) -> None:
        self.clear()

    def clear(self) -> None:
        self.slots = _table(1 << 16)
        self.byte_offsets = np.zeros(1, dtype=np.int64)
        self.bytes = np.empty(0, dtype=np.uint8)
        self.terms = np.empty(0, dtype=np.int32)  # the terms of the rows that have more than one
        self.info = np.empty((0, 4), dtype=np.int32)

    def __len__(self) -> int:
        return len(self.byte_offsets) - 1

    def find(self, texts: pa.Array) -> tuple[np.ndarray, np.ndarray, pa.Array]:
        """Each non-empty chunk's row and each text's count of them, for a large_string array without nulls; the
        chunks not seen before are given the next rows (their texts returned, in row order), whose terms and border
        codes `learn` must add before the next call."""
        data, offsets = _buffers(texts)
        rows = np.empty(len(data) // 2 + len(texts), dtype=np.int64)  # no more chunks than that fit in the bytes
        chunk_counts = np.empty(len(texts), dtype=np.int64)
        while True:
            spans = np.empty((max(len(self.slots) // 2 - len(self), 0), 2), dtype=np.int64)
            chunks, new = scan(
                data, offsets, self.slots, len(self), self.bytes, self.byte_offsets, rows, chunk_counts, spans
            )
            if chunks != FULL:
                break
            larger = _table(2 * len(self.slots))  # the new rows' slots are left behind in the old table
            rehash(self.slots, len(self), larger)
            self.slots = larger
        spans = spans[:new]
        lengths = spans[:, 1] - spans[:, 0]
        ends = np.cumsum(lengths)
        total = int(ends[-1]) if new else 0
        added = data[np.arange(total) + np.repeat(spans[:, 0] - (ends - lengths), lengths)]  # the new chunks' bytes
        self.bytes = np.concatenate([self.bytes, added])
        self.byte_offsets = np.concatenate([self.byte_offsets, self.byte_offsets[-1] + ends])
        learned = pa.LargeStringArray.from_buffers(
            new, pa.py_buffer(np.concatenate([[0], ends]).astype(np.int64)), pa.py_buffer(added)
        )
        return rows[:chunks], chunk_counts, learned

    def learn(self, terms: np.ndarray, counts: np.ndarray, tails: np.ndarray, heads: list[int]) -> None:
        """The terms (concatenated, with each chunk's count) and border codes of the chunks `find` added."""
        counts = np.asarray(counts, dtype=np.int64)
        ends = np.cumsum(counts)
        record = np.empty((len(counts), 4), dtype=np.int32)
        several = counts != 1
        listed = np.where(several, counts, 0)  # the terms kept in `terms`: those of the rows with more than one
        record[:, _TERMS] = len(self.terms) + np.cumsum(listed) - listed
        record[~several, _TERMS] = terms[ends[~several] - 1]
        record[:, _COUNT], record[:, _TAIL], record[:, _HEAD] = counts, tails, heads
        self.terms = np.concatenate([self.terms, terms[np.repeat(several, counts)].astype(np.int32)])
        self.info = np.concatenate([self.info, record])

    def gather(self, rows: np.ndarray, chunk_counts: np.ndarray, crossing: np.ndarray):
        return gather(rows, chunk_counts, self.info, self.terms, crossing)


def _table(size: int) -> np.ndarray:
    """An empty hash table of `size` slots: a chunk's hash, row and length, first and second word each."""
    slots = np.empty((size, 4), dtype=np.int64)
    slots[:, _ROW_LENGTH] = _EMPTY
    return slots


def _buffers(texts: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """A large_string array's bytes and its texts' offsets into them, without copying."""
    _, offsets, data = texts.buffers()
    offsets = np.frombuffer(offsets, dtype=np.int64)[texts.offset : texts.offset + len(texts) + 1]
    return (np.frombuffer(data, dtype=np.uint8) if data is not None else np.empty(0, dtype=np.uint8)), offsets
