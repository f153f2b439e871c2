"""tracks/images/phash.py: hashes as text, Hamming distances, and the embedded collection's hashes reproduced."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from argrank.tracks.images.phash import BITS, collection_phash, format_phash, hamming, parse_phash

IMAGES = Path(__file__).resolve().parents[4] / "data" / "images" / "collection" / "images"
FOLDERS = sorted(IMAGES.glob("I??/I*"))


def _shipped(folder: Path) -> int:
    return parse_phash((folder / "image-phash.txt").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("0" * 64, 0),
        ("0" * 63 + "1", 1),
        ("1" + "0" * 63, 2**63),
        ("1" * 64, 2**64 - 1),
        ("01" * 32, 0x5555555555555555),
    ],
)
def test_the_first_character_is_the_highest_bit_both_ways(text, value):
    assert parse_phash(text) == value
    assert format_phash(value) == text


def test_surrounding_white_space_such_as_the_files_newline_is_ignored():
    assert parse_phash("  " + "1" * 64 + "\n") == 2**64 - 1


@pytest.mark.parametrize("text", ["0" * 63, "0" * 65, "2" + "0" * 63, "0" * 32 + " " + "0" * 31, "", "x" * 100])
def test_anything_but_64_characters_0_or_1_is_a_value_error_quoting_it(text):
    with pytest.raises(ValueError, match=f"expected {BITS} characters 0 or 1, found {text.strip()[:80]!r}"):
        parse_phash(text)


def test_every_embedded_hash_reads_back_to_its_text():
    for folder in FOLDERS:
        text = (folder / "image-phash.txt").read_text(encoding="utf-8").strip()
        assert format_phash(parse_phash(text)) == text


def test_hamming_counts_the_differing_bits_by_hand():
    hashes = np.array([0, 1, 0b1011, 2**64 - 1], dtype=np.uint64)
    assert hamming(hashes, 0).tolist() == [0, 1, 3, 64]
    assert hamming(hashes, 2**64 - 1).tolist() == [64, 63, 61, 0]
    assert hamming([0b1100, 0b0011], 0b1010).tolist() == [2, 2]  # plain integers are taken as uint64


def test_the_embedded_collections_shipped_hashes_are_reproduced_to_the_bit():
    assert len(FOLDERS) > 50
    for folder in FOLDERS:
        with Image.open(folder / "image.webp") as image:
            assert collection_phash(image) == _shipped(folder), folder.name


def test_the_last_bit_is_always_zero_and_at_most_half_the_bits_are_set():
    """The collection's hashes are shifted by one (the first median bit is lost, the last written 0), and at most 32
    of the 64 coefficients lie above their median."""
    for folder in FOLDERS[:10]:
        with Image.open(folder / "image.webp") as image:
            value = collection_phash(image)
        assert value & 1 == 0
        assert 0 < value.bit_count() <= 32


@pytest.mark.parametrize("size", [(1, 1), (7, 3), (64, 48), (500, 20)])
def test_a_single_colour_has_no_frequency_above_the_median_so_hashes_to_zero(size):
    assert collection_phash(Image.new("RGB", size, (200, 30, 90))) == 0


def test_alpha_is_ignored_and_the_hash_does_not_depend_on_the_mode():
    with Image.open(FOLDERS[0] / "image.webp") as image:
        rgb = image.convert("RGB")
    transparent = rgb.convert("RGBA")
    transparent.putalpha(0)
    assert collection_phash(transparent) == collection_phash(rgb) == _shipped(FOLDERS[0])


def test_a_resized_copy_is_a_near_duplicate_and_a_mirrored_one_is_not():
    with Image.open(FOLDERS[0] / "image.webp") as image:
        original = image.convert("RGB")
    value = collection_phash(original)
    resized = collection_phash(original.resize((original.width * 2, original.height * 2)))
    mirrored = collection_phash(original.transpose(Image.Transpose.FLIP_LEFT_RIGHT))
    assert hamming([resized], value)[0] <= 4
    assert hamming([mirrored], value)[0] >= 16


def test_the_hash_is_deterministic():
    with Image.open(FOLDERS[1] / "image.webp") as image:
        assert collection_phash(image) == collection_phash(image.copy())
