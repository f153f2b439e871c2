"""Perceptual hashes: 64 bits per image, so near-duplicate images are a small Hamming distance apart.

The collection ships a hash per image (`image-phash.txt`, 64 characters 0/1, first character the highest bit):
the pHash C library's DCT hash (`ph_dct_imagehash`, https://www.phash.org/). `collection_phash` computes that
same hash, bit for bit on all 50 images of the real sample, so an image without the file gets the hash its
neighbours have and every distance compares like with like. No library offers it: imagehash's `phash` blurs,
scales and orders differently and agrees with the shipped hash on 0 of the 50. Hashes are kept as unsigned
64-bit integers so distances are one vectorised XOR and popcount.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

import argrank.lazylibs as lazylibs

if TYPE_CHECKING:  # the caller opens the image; importing Pillow cost every process of the graph 0.017 s
    from PIL import Image

BITS = 64
_SIDE = 32  # pHash samples a 32 × 32 grid
_BOX = 7  # after a 7 × 7 mean filter
_LOW = slice(1, 9)  # and keeps the 8 × 8 lowest frequencies after the constant one


def parse_phash(text: str) -> int:
    """The integer of a hash written as 64 characters 0/1; ValueError names what is wrong."""
    bits = text.strip()
    if len(bits) != BITS or set(bits) - {"0", "1"}:
        raise ValueError(f"expected {BITS} characters 0 or 1, found {bits[:80]!r}")
    return int(bits, 2)


def format_phash(value: int) -> str:
    """The hash as the collection writes it: 64 characters 0/1."""
    return format(value, f"0{BITS}b")


def collection_phash(image: Image.Image) -> int:
    """The hash `image-phash.txt` holds for `image` (any mode or size; alpha is ignored, as the collection did).

    As pHash computes it with CImg: the luma Y = (66 R + 129 G + 25 B + 128) / 256 + 16 cut to an integer, the
    sum over a 7 × 7 window (edges repeated), CImg's nearest-neighbour 32 × 32 grid (pixel ⌊i · size / 32⌋), an
    orthonormal 2-D DCT, coefficients [1:9, 1:9] row by row each compared with their median. The collection
    writes these 64 bits first to last but shifted by one: the first is lost and the last character is always 0.
    """
    pixels = np.asarray(image.convert("RGB"))
    height, width = pixels.shape[:2]
    rows, columns = _window_taps(height), _window_taps(width)
    red, green, blue = np.moveaxis(pixels[np.ix_(rows, columns)].astype(np.int64), -1, 0)
    luma = (66 * red + 129 * green + 25 * blue + 128) // 256 + 16
    grid = luma.reshape(_SIDE, _BOX, _SIDE, _BOX).sum(axis=(1, 3))
    fft = lazylibs.scipy("fft")

    low = fft.dctn(grid.astype(np.float64), type=2, norm="ortho")[_LOW, _LOW].ravel()
    bits = low > np.median(low)
    return int.from_bytes(np.packbits(np.append(bits[1:], False)).tobytes(), "big")


def hamming(hashes: np.ndarray, other: int) -> np.ndarray:
    """Bits in which each of `hashes` (uint64) differs from `other`."""
    return np.bitwise_count(np.bitwise_xor(np.asarray(hashes, dtype=np.uint64), np.uint64(other)))


def _window_taps(size: int) -> np.ndarray:
    """Pixel indices along one axis: for each grid point, the 7 pixels its window sums, clamped to the image."""
    centres = np.arange(_SIDE) * size // _SIDE
    return np.clip(centres[:, None] + np.arange(-(_BOX // 2), _BOX // 2 + 1), 0, size - 1).ravel()
