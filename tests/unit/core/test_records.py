"""Text records streamed in blocks: line numbers across block borders, and each problem named in line order."""

from __future__ import annotations

import codecs

import pytest

from argrank.core import records
from argrank.core.errors import InputError
from argrank.core.records import read_records, read_utf8
from argrank.formats.qrels import read_qrels
from argrank.formats.runfile import read_run
from argrank.tracks.comparative.stance_qrels import read_stance_qrels

LINES = ["1 Q0 a 1 3 t", "", "1\tQ0  b 2 2 t\r", "  ", "2 Q0 ä-long-document-id-past-a-block 1 1 t", "2 Q0 c 2 0 t"]


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch):
    """Blocks of 8 bytes: most lines cross a border, and one is longer than a block."""
    monkeypatch.setattr(records, "_BLOCK", 8)


def test_records_across_block_borders_are_the_whole_files(tmp_path):
    path = tmp_path / "run.txt"
    path.write_bytes(codecs.BOM_UTF8 + "\n".join(LINES).encode())
    expected = [(number, line.split()) for number, line in enumerate(LINES, start=1) if line.split()]
    assert list(read_records(path)) == expected
    assert read_utf8(path) == "\n".join(LINES)


@pytest.mark.parametrize(
    ("bad", "problem"),
    [(b"\xff", "not valid UTF-8 (byte 0xff)"), ("\u00a0".encode(), "white space U+00A0"),
     (b"\x00", "an invisible or control character U+0000"), ("\u200b".encode(), "an invisible or control character U+200B"),
     ("\u2028".encode(), "white space U+2028")],  # fmt: skip
)
def test_a_bad_line_is_named_after_the_lines_before_it_were_read(tmp_path, bad, problem):
    """Streaming: a reader that finds a problem on line 1 says so without reading on."""
    path = tmp_path / "run.txt"
    path.write_bytes("\n".join(LINES).encode() + b"\n3 Q0 d" + bad + b" 1 1 t\n4 Q0 e 1 1 t\n")
    read = []
    with pytest.raises(InputError) as raised:
        read.extend(read_records(path))
    assert raised.value.where == "line 7" and raised.value.problem.startswith(problem)
    assert [number for number, _ in read] == [1, 3, 5, 6]


def test_a_file_of_blank_lines_is_empty(tmp_path):
    path = tmp_path / "run.txt"
    path.write_text(" \n\t\n" * 5)
    with pytest.raises(InputError, match="empty file: no lines to read"):
        list(read_records(path))


@pytest.mark.parametrize("reader", ["run", "qrels", "stance qrels"])
def test_a_nul_inside_an_id_is_refused_by_every_record_reader(tmp_path, reader):
    """It was read silently: an id that looks like another and is not."""
    read, line = {"run": (read_run, "1 Q0 do\x00c 1 2.0 t"), "qrels": (read_qrels, "1 0 do\x00c 2"),
                  "stance qrels": (read_stance_qrels, "1 0 do\x00c FIRST")}[reader]  # fmt: skip
    path = tmp_path / "file.txt"
    path.write_text(f"{line}\n", encoding="utf-8")
    with pytest.raises(InputError, match="line 1: an invisible or control character U\\+0000"):
        read(path)
