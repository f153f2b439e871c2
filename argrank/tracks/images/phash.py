"""Perceptual hashes: 64 bits per image, so near-duplicate images are a small Hamming distance apart.

The collection ships a hash per image (`image-phash.txt`, 64 characters 0/1, first character the highest bit);
ours (DCT of a 32×32 grey thumbnail, the 8×8 lowest frequencies against their median, after Zauner's
pHash) fills in where that file is missing and hashes the images we draw for the embedded collection. Both
are kept as unsigned 64-bit integers so distances are one vectorised XOR and popcount.
"""

from __future__ import annotations

import numpy as np
from PIL import Image
from scipy.fft import dctn

BITS = 64
_SIDE = 32  # thumbnail side
_KEEP = 8  # lowest frequencies kept per axis: 8 × 8 = 64 bits


def parse_phash(text: str) -> int:
    """The integer of a hash written as 64 characters 0/1; ValueError names what is wrong."""
    bits = text.strip()
    if len(bits) != BITS or set(bits) - {"0", "1"}:
        raise ValueError(f"expected {BITS} characters 0 or 1, found {bits[:80]!r}")
    return int(bits, 2)


def format_phash(value: int) -> str:
    """The hash as the collection writes it: 64 characters 0/1."""
    return format(value, f"0{BITS}b")


def perceptual_hash(image: Image.Image) -> int:
    """Our DCT hash of an image (any mode or size)."""
    grey = np.asarray(image.convert("L").resize((_SIDE, _SIDE), Image.Resampling.LANCZOS), dtype=np.float64)
    low = dctn(grey, type=2, norm="ortho")[:_KEEP, :_KEEP].ravel()
    bits = low > np.median(low)
    return int("".join("1" if bit else "0" for bit in bits), 2)


def hamming(hashes: np.ndarray, other: int) -> np.ndarray:
    """Bits in which each of `hashes` (uint64) differs from `other`."""
    return np.bitwise_count(np.bitwise_xor(np.asarray(hashes, dtype=np.uint64), np.uint64(other)))
