"""Inputs that are not regular files: a FIFO (which blocks the reader until a writer comes), a device that never
ends, a folder, a link to nothing. Every reader refuses each in one line before opening it."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from argrank.config import load_experiment
from argrank.core.errors import InputError
from argrank.core.fingerprint import file_digest
from argrank.core.input_file import bounded_lines
from argrank.core.model_file import load_model
from argrank.formats.beir import read_corpus
from argrank.formats.qrels import read_qrels
from argrank.formats.runfile import read_run
from argrank.formats.topics import read_topics
from argrank.tracks.args.argsme import ingest_argsme
from argrank.tracks.comparative.passages import ingest_passages
from argrank.tracks.perspective.data import read_queries

KINDS = ("fifo", "device", "folder", "link")
READERS = {
    "runs file": load_experiment,
    "fingerprint": file_digest,
    "qrels": read_qrels,
    "run": read_run,
    "topics": read_topics,
    "topics.jsonl": read_topics,
    "args.me": lambda path: ingest_argsme([path], Path(os.devnull).parent / "never-written.parquet"),
    "passages": lambda path: ingest_passages(path, Path(os.devnull).parent / "never-written.parquet"),
    "perspective queries": read_queries,
    "beir": lambda path: list(read_corpus(path)),
    "model": lambda path: load_model(path, []),
}


def special(tmp_path: Path, kind: str) -> tuple[Path, str]:
    """A path of `kind` and the problem expected for it."""
    if kind == "fifo":
        os.mkfifo(tmp_path / "fifo.jsonl")
        return tmp_path / "fifo.jsonl", "a FIFO, not a regular file"
    if kind == "device":
        return Path("/dev/zero"), "a device, not a regular file"
    if kind == "folder":
        (tmp_path / "folder.jsonl").mkdir()
        return tmp_path / "folder.jsonl", "a folder, where a file is expected"
    (tmp_path / "link.jsonl").symlink_to(tmp_path / "gone.jsonl")
    return tmp_path / "link.jsonl", "cannot read: a link to nothing"


@pytest.mark.parametrize(
    ("reader", "kind"),
    # /dev/zero has no .jsonl suffix: the XML topics reader takes it
    [(reader, kind) for reader in sorted(READERS) for kind in KINDS if (reader, kind) != ("topics.jsonl", "device")],
)
def test_every_reader_refuses_what_is_not_a_regular_file(tmp_path, reader, kind):
    path, problem = special(tmp_path, kind)
    with pytest.raises(InputError) as error:
        READERS[reader](path)
    assert error.value.path == str(path) and error.value.problem.startswith(problem)


def test_lines_are_bounded_and_one_of_exactly_the_bound_passes():
    assert list(bounded_lines(io.BytesIO(b"ab\ncd"), "f", limit=3)) == [(1, b"ab\n"), (2, b"cd")]
    assert list(bounded_lines(io.BytesIO(b"abc\nd"), "f", limit=3)) == [(1, b"abc\n"), (2, b"d")]
    with pytest.raises(InputError, match=r"^f: line 2: longer than 3 bytes"):
        list(bounded_lines(io.BytesIO(b"ab\nabcd\n"), "f", limit=3))
