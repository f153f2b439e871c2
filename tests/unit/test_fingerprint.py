"""File digests: remembered on disk across processes, recomputed when a file changes."""

from __future__ import annotations

import os

import pytest

import argrank.core.fingerprint as fingerprint


@pytest.fixture()
def store(tmp_path):
    fingerprint.remember_digests_in(tmp_path / "digests")
    fingerprint._file_digests.clear()
    yield tmp_path / "digests"
    fingerprint.remember_digests_in(None)
    fingerprint._file_digests.clear()


def test_a_new_process_reads_the_stored_digest_instead_of_the_file(tmp_path, store, monkeypatch):
    corpus = tmp_path / "corpus.json"
    corpus.write_text('{"arguments": []}')
    first = fingerprint.file_digest(corpus)
    assert len(list(store.iterdir())) == 1
    fingerprint._file_digests.clear()  # what a new process starts with

    def unread(path):
        raise AssertionError(f"{path} was read again")

    monkeypatch.setattr(fingerprint, "_hash_file", unread)
    assert fingerprint.file_digest(corpus) == first


def test_a_changed_file_is_hashed_again(tmp_path, store):
    corpus = tmp_path / "corpus.json"
    corpus.write_text("one")
    first = fingerprint.file_digest(corpus)
    stat = corpus.stat()
    corpus.write_text("two")  # same size
    os.utime(corpus, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000))
    fingerprint._file_digests.clear()
    assert fingerprint.file_digest(corpus) != first
    assert len(list(store.iterdir())) == 2


@pytest.mark.parametrize("damage", ["not utf-8", "not a digest", "folder"])
def test_a_damaged_digest_record_is_hashed_again_with_a_warning_and_kept_anew(tmp_path, store, caplog, damage):
    corpus = tmp_path / "corpus.json"
    corpus.write_text('{"arguments": []}')
    right = fingerprint.file_digest(corpus)
    (record,) = store.iterdir()
    record.unlink()
    if damage == "folder":
        record.mkdir()
    else:
        record.write_bytes(b"\xff\xfe" if damage == "not utf-8" else b"0" * 31)
    fingerprint._file_digests.clear()
    assert fingerprint.file_digest(corpus) == right
    assert [r.getMessage() for r in caplog.records] == [
        f"damaged digest record {record}: the file it stands for is hashed again"
    ]
    fingerprint._file_digests.clear()
    assert fingerprint.file_digest(corpus) == right and record.read_text() == right  # healed
