"""Run files: the lenient reader on what participants submit, its errors by line, and writing that reads back exactly."""

from __future__ import annotations

import re

import numpy as np
import pytest

from argrank.core.errors import InputError
from argrank.formats.runfile import RunLine, format_run, iter_run, read_run, watched, write_run


def test_reads_tabs_spaces_ranks_from_zero_and_skips_blank_lines(tmp_path):
    path = tmp_path / "run.txt"
    path.write_text("51\tQ0\tS1-A1\t0\t7.5\tmyrun\n51 Q0  S1-A2 1 -3e-2 myrun\r\n\n52 Q0 S1-A1 0 2 myrun\n", encoding="utf-8")
    assert read_run(path) == [
        RunLine("51", "Q0", "S1-A1", 0, 7.5, "myrun"),
        RunLine("51", "Q0", "S1-A2", 1, -0.03, "myrun"),
        RunLine("52", "Q0", "S1-A1", 0, 2.0, "myrun"),
    ]


@pytest.mark.parametrize(
    ("content", "line", "problem"),
    [
        (b"1 Q0 a 1 2.0 t\n1 Q0 b 2 1.0\n", 2, "expected 6 fields (qid Q0 doc rank score tag), found 5"),
        (b'1 Q0 a 1 2.0 "my run\n', 1, "expected 6 fields (qid Q0 doc rank score tag), found 7"),
        (b"1 Q0 a 1 2.0 my run\n", 1, "expected 6 fields (qid Q0 doc rank score tag), found 7"),
        (b'1 Q0 a 1 2.0 "my" "run"\n', 1, "found 7"),
        (b'1 Q0 a 1 "2.0 my run"\n', 1, "found 7"),
        (b"1 Q0 a 1 2.0 t\n1 Q0 b 2.0 1.0 t\n", 2, "rank '2.0' is not an integer"),
        (b"1 Q0 a 1 2.0 t\n1 Q0 b two 1.0 t\n", 2, "rank 'two' is not an integer"),
        (b"1 Q0 a 1 2.0 t\n1 Q0 b 2 high t\n", 2, "score 'high' is not a finite number"),
        (b"1 Q0 a 1 2.0 t\n1 Q0 b 2 NaN t\n", 2, "score 'NaN' is not a finite number"),
        (b"1 Q0 a 1 inf t\n", 1, "score 'inf' is not a finite number"),
        (b"1 Q0 a 1 3 t\n2 Q0 a 1 3 t\n1 Q0 b 2 2 t\n1 Q0 a 3 1 t\n", 4, "document a appears twice in topic 1 (first on line 1)"),
        (b"1 Q0 a 1 3 t\n1 Q0 b 2 2 \xe9t\n", 2, "not valid UTF-8 (byte 0xe9)"),
        (b"1 Q0 a 1 3 t\n\n1 Q0 b\x0b2 2 t\n", 3, "white space U+000B"),
    ],
)
def test_bad_lines_name_file_and_line(tmp_path, content, line, problem):
    path = tmp_path / "bad.txt"
    path.write_bytes(content)
    with pytest.raises(InputError, match=re.escape(f"{path}: line {line}: ") + ".*" + re.escape(problem)):
        read_run(path)


def test_a_quoted_tag_with_spaces_is_recovered(tmp_path):
    path = tmp_path / "run.txt"
    path.write_text('1 FIRST a 1 2.0 "my  fine\trun"\n1 NO b 2 1.0 t\n1 Q0 c 3 0.5 "one"\n', encoding="utf-8")
    assert [(line.q0, line.tag) for line in read_run(path)] == [("FIRST", "my fine run"), ("NO", "t"), ("Q0", '"one"')]


def test_empty_file_is_an_error(tmp_path):
    path = tmp_path / "empty.txt"
    path.write_bytes(b"\n")
    with pytest.raises(InputError, match=re.escape(f"{path}: empty file")):
        read_run(path)


def test_format_uses_single_spaces_and_scores_that_read_back_exactly(tmp_path):
    scores = [0.1 + 0.2, 1e-300, 12345678.123456789, np.float64(2) / 3, 7, -0.0]
    lines = [RunLine("3", "Q0", f"d{i}", i + 1, score, "tag") for i, score in enumerate(scores)]
    text = format_run(lines)
    assert text.splitlines()[0] == "3 Q0 d0 1 0.30000000000000004 tag"
    assert text.splitlines()[3] == "3 Q0 d3 4 0.6666666666666666 tag"
    assert format_run(lines) == text
    path = tmp_path / "out" / "run.txt"
    write_run(path, lines)
    assert path.read_text(encoding="utf-8") == text
    assert [line.score for line in read_run(path)] == [float(score) for score in scores]
    assert not [p for p in path.parent.iterdir() if p != path]  # no temporary left behind


@pytest.mark.parametrize(
    "line",
    [RunLine("1", "Q0", "a b", 1, 1.0, "t"), RunLine("1", "Q0", "a", 1, 1.0, ""), RunLine("1", "Q0", "a", 1, float("nan"), "t")],
)
def test_format_refuses_what_cannot_be_read_back(line):
    with pytest.raises(ValueError, match="cannot write"):
        format_run([line])


def test_real_tab_separated_run_reads_like_its_space_separated_copy(shared_data, tmp_path):
    original = shared_data / "touche-task1" / "runs-2021-elrond" / "ElrondKRun.txt"
    lines = read_run(original)
    assert len(lines) == 50_000
    assert lines[0] == RunLine("51", "Q0", "S428a8bea-A6fcf1b51", 0, 7.574048, "ElrondKRun")
    spaced = tmp_path / "spaced.txt"
    spaced.write_text(original.read_text(encoding="utf-8").replace("\t", " "), encoding="utf-8")
    assert read_run(spaced) == lines


def test_real_katana_run_with_its_quoted_tag_is_recovered(shared_data):
    lines = read_run(shared_data / "touche-task2" / "runs-2022" / "Katana-run1.txt")
    assert len(lines) == 5000
    assert lines[0] == RunLine("2", "NEUTRAL", "clueweb12-0207wb-45-15666___12", 1, 1.0, "Colbert fine tune on touche data")
    assert {line.tag for line in lines} == {"Colbert fine tune on touche data"}


def test_watched_shows_each_line_to_every_watcher_before_the_reader_gets_it(tmp_path):
    path = tmp_path / "run.txt"
    path.write_text("1 Q0 a 1 3.0 t\n1 Q0 b 2 2.0 t\n2 Q0 c 1 1.0 t\n")
    first, second, order = [], [], []
    for line in watched(iter_run(path), first.append, lambda line: second.append(line.doc)):
        order.append((len(first), len(second), line.doc))
    assert order == [(1, 1, "a"), (2, 2, "b"), (3, 3, "c")]
    assert first == read_run(path) and second == ["a", "b", "c"]
