"""File digests: remembered on disk across processes, recomputed when a file changes."""

from __future__ import annotations

import os

import pytest
import xxhash

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

    monkeypatch.setattr(fingerprint, "content_digest", unread)
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


@pytest.mark.parametrize(("damage", "problem"), [("not utf-8", "not a readable file"),
                                               ("not a digest", "not a digest and its checksum"),
                                               ("folder", "not a readable file"),
                                               ("one digit", "its checksum does not match")])  # fmt: skip
def test_a_damaged_digest_record_is_hashed_again_with_a_warning_and_kept_anew(tmp_path, store, caplog, damage,
                                                                               problem):  # fmt: skip
    """A flipped hex digit once passed as a digest: five published manifests changed their signature unsaid."""
    corpus = tmp_path / "corpus.json"
    corpus.write_text('{"arguments": []}')
    right = fingerprint.file_digest(corpus)
    (record,) = store.iterdir()
    kept = record.read_text()
    assert kept.startswith(right + " ") and len(kept) == 32 + 1 + 16
    record.unlink()
    if damage == "folder":
        record.mkdir()
    elif damage == "one digit":
        record.write_text(("1" if kept[5] != "1" else "2").join([kept[:5], kept[6:]]))
    else:
        record.write_bytes(b"\xff\xfe" if damage == "not utf-8" else b"0" * 31)
    fingerprint._file_digests.clear()
    assert fingerprint.file_digest(corpus) == right
    assert [r.getMessage() for r in caplog.records] == [
        f"damaged digest record {record} ({problem}): the file it stands for is hashed again"
    ]
    fingerprint._file_digests.clear()
    assert fingerprint.file_digest(corpus) == right and record.read_text() == kept  # healed


def test_a_record_of_the_earlier_form_is_hashed_again_quietly_and_verify_finds_damage(tmp_path, store, caplog):
    corpus = tmp_path / "corpus.json"
    corpus.write_text('{"arguments": []}')
    right = fingerprint.file_digest(corpus)
    (record,) = store.iterdir()
    kept = record.read_text()
    record.write_text(right)  # as records were written before their checksum
    fingerprint._file_digests.clear()
    assert fingerprint.file_digest(corpus) == right and not caplog.records and record.read_text() == kept
    assert fingerprint.remove_damaged_records(store) == []
    record.write_text(kept.replace(kept[0], "f" if kept[0] != "f" else "e", 1))
    (found,) = fingerprint.remove_damaged_records(store)
    assert found == f"{record}: its checksum does not match: removed, its file to be hashed again"
    assert not record.exists() and fingerprint.remove_damaged_records(tmp_path / "none") == []


def test_the_digest_is_the_files_xxh3_128_whatever_the_chunks(tmp_path, store):
    corpus = tmp_path / "corpus.json"
    data = os.urandom(fingerprint._CHUNK * 2 + 17)  # three reads, the last one short
    corpus.write_bytes(data)
    assert fingerprint.file_digest(corpus) == xxhash.xxh3_128_hexdigest(data)


def test_a_digest_kept_by_another_hash_is_not_read_as_this_ones(tmp_path, store):
    """A record an older version kept (SHA-256, under the key without the algorithm) is left unread."""
    corpus = tmp_path / "corpus.json"
    corpus.write_text('{"arguments": []}')
    stat = corpus.stat()
    store.mkdir()
    old_key = fingerprint.digest(str(corpus.resolve()), stat.st_size, stat.st_mtime_ns)
    (store / old_key).write_text("0" * 32, encoding="utf-8")
    assert fingerprint.file_digest(corpus) == xxhash.xxh3_128_hexdigest(corpus.read_bytes())
