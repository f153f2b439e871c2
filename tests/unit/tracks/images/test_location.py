"""tracks/images/location.py: which folder is a collection, and its fingerprint by path, size and time."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from argrank.core.errors import InputError
from argrank.tracks.images.location import collection_digest, collection_root

EMBEDDED = Path(__file__).resolve().parents[4] / "data" / "images" / "collection"
NS = 1_600_000_000_000_000_000  # a fixed modification time, in nanoseconds


def _file(root: Path, relative: str, content: bytes = b"abc", mtime_ns: int = NS) -> Path:
    path = root / "images" / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    os.utime(path, ns=(mtime_ns, mtime_ns))
    return path


def test_a_folder_holding_images_is_the_collection_as_text_or_path(tmp_path):
    (tmp_path / "images").mkdir()
    assert collection_root(tmp_path) == tmp_path
    assert collection_root(str(tmp_path)) == tmp_path
    assert collection_root(EMBEDDED) == EMBEDDED


@pytest.mark.parametrize(
    ("make", "problem"),
    [
        (lambda root: root.mkdir(), "no images/ folder: not a Touché image collection"),
        (lambda root: (root.mkdir(), (root / "images").write_text("")), "no images/ folder"),  # a file named images
        (lambda root: None, "folder not found"),
        (lambda root: root.write_text(""), ""),  # a file where the folder should be (said "folder not found")
    ],
)
def test_anything_else_is_an_input_error_naming_the_location(tmp_path, make, problem):
    root = tmp_path / "collection"
    make(root)
    with pytest.raises(InputError) as caught:
        collection_root(root)
    assert caught.value.path == str(root)
    assert caught.value.problem.startswith(problem)


def test_the_fingerprint_does_not_depend_on_the_order_files_were_written(tmp_path):
    names = ["I0a/I0a01/image.webp", "I0a/I0a01/pages/P1/page-url.txt", "I0b/I0b02/image.webp"]
    for name in names:
        _file(tmp_path / "one", name)
    for name in reversed(names):
        _file(tmp_path / "two", name)
    assert collection_digest(tmp_path / "one") == collection_digest(tmp_path / "two")


def test_the_same_size_and_time_with_other_bytes_keep_the_fingerprint(tmp_path):
    """Documented: not by content, so a collection of 56,000 images is never read whole to check a cache."""
    path = _file(tmp_path, "I0a/I0a01/image.webp", b"abc")
    before = collection_digest(tmp_path)
    _file(tmp_path, "I0a/I0a01/image.webp", b"xyz")
    assert path.read_bytes() == b"xyz"
    assert collection_digest(tmp_path) == before


@pytest.mark.parametrize(
    "change",
    [
        lambda root: os.utime(root / "images/I0a/I0a01/image.webp", ns=(NS, NS + 1)),  # only the time
        lambda root: (root / "images/I0a/I0a01/image.webp").write_bytes(b"abcd"),  # the size
        lambda root: (root / "images/I0a/I0a01/image.webp").rename(root / "images/I0a/I0a01/other.webp"),  # a name
        lambda root: _file(root, "I0a/I0a01/pages/P1/text.txt"),  # a file more, deep down
        lambda root: _file(root, "stray.txt"),  # a file beside the shard folders
        lambda root: _file(root, "I0c/I0c01/image.webp"),  # a shard more
    ],
)
def test_a_changed_time_size_or_name_or_another_file_changes_the_fingerprint(tmp_path, change):
    _file(tmp_path, "I0a/I0a01/image.webp")
    _file(tmp_path, "I0b/I0b01/image.webp")
    before = collection_digest(tmp_path)
    change(tmp_path)
    assert collection_digest(tmp_path) != before


def test_the_same_file_in_another_shard_is_another_collection(tmp_path):
    _file(tmp_path / "one", "I0a/x/image.webp")
    _file(tmp_path / "two", "I0b/x/image.webp")
    assert collection_digest(tmp_path / "one") != collection_digest(tmp_path / "two")


def test_an_empty_collection_has_a_fingerprint_of_its_own(tmp_path):
    (tmp_path / "empty" / "images").mkdir(parents=True)
    _file(tmp_path / "full", "I0a/x/image.webp")
    empty = collection_digest(tmp_path / "empty")
    assert empty and empty == collection_digest(tmp_path / "empty")
    assert empty != collection_digest(tmp_path / "full")


def test_the_embedded_collections_fingerprint_is_stable():
    assert collection_digest(EMBEDDED) == collection_digest(str(EMBEDDED))
