"""tracks/args/layout.py: an args.me corpus's files, every way a location is no corpus, and BEIR's zip."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from argrank.core.errors import InputError
from argrank.tracks.args.layout import SINGLE_FILE, SOURCE_FILES, corpus_files, is_beir_zip


def _files(folder: Path, *names: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        (folder / name).write_text('{"arguments": []}', encoding="utf-8")


def test_the_five_portal_files_come_in_the_fixed_order_whatever_order_they_were_written(tmp_path):
    _files(tmp_path, *reversed(SOURCE_FILES))
    assert SOURCE_FILES == (
        "debateorg.json",
        "debatepedia.json",
        "debatewise.json",
        "idebate.json",
        "parliamentary.json",
    )
    assert corpus_files(tmp_path) == [tmp_path / name for name in SOURCE_FILES]


def test_a_folder_given_as_text_gives_paths_and_other_files_beside_the_corpus_are_ignored(tmp_path):
    _files(tmp_path, SINGLE_FILE, "README.md", "other.json")
    assert corpus_files(str(tmp_path)) == [tmp_path / "args-me.json"]


@pytest.mark.parametrize("name", ["1.0.json", "my-args.json", "corpus"])
def test_a_file_is_its_own_corpus_by_any_name(tmp_path, name):
    _files(tmp_path, name)
    assert corpus_files(tmp_path / name) == [tmp_path / name]


@pytest.mark.parametrize(
    ("present", "missing"),
    [
        (["debateorg.json"], "debatepedia.json, debatewise.json, idebate.json, parliamentary.json"),
        (["parliamentary.json", "debateorg.json", "idebate.json", "debatewise.json"], "debatepedia.json"),
    ],
)
def test_an_incomplete_set_of_portal_files_names_the_missing_ones_in_order(tmp_path, present, missing):
    _files(tmp_path, *present, SINGLE_FILE)  # args-me.json beside a partial split is no way out
    with pytest.raises(InputError) as caught:
        corpus_files(tmp_path)
    assert str(caught.value) == f"{tmp_path}: incomplete args.me corpus: missing {missing}"


def test_a_folder_named_as_a_portal_file_is_not_that_file(tmp_path):
    _files(tmp_path, *SOURCE_FILES[1:])
    (tmp_path / SOURCE_FILES[0]).mkdir()
    with pytest.raises(InputError, match="missing debateorg.json$"):
        corpus_files(tmp_path)


def test_a_folder_without_either_layout_names_both(tmp_path):
    (tmp_path / SINGLE_FILE).mkdir()  # a folder by the single file's name is not it
    with pytest.raises(InputError) as caught:
        corpus_files(tmp_path)
    expected = f"no args.me corpus: neither {', '.join(SOURCE_FILES)} nor args-me.json"
    assert (caught.value.path, caught.value.problem) == (str(tmp_path), expected)


def test_a_location_that_does_not_exist_is_named(tmp_path):
    with pytest.raises(
        InputError, match=re.escape(f"{tmp_path / 'nowhere'}: no args.me corpus: no such folder or file")
    ):
        corpus_files(tmp_path / "nowhere")


def test_a_fifo_is_refused_as_such_before_anything_reads_it(tmp_path):
    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(InputError, match="a FIFO, not a regular file"):
        corpus_files(tmp_path / "pipe")


def test_a_link_to_nothing_is_said_to_be_one(tmp_path):
    (tmp_path / "link").symlink_to(tmp_path / "gone")
    with pytest.raises(InputError, match=re.escape(f"{tmp_path / 'link'}: cannot read: a link to nothing")):
        corpus_files(tmp_path / "link")


@pytest.mark.parametrize(
    ("path", "beir"),
    [
        ("beir/webis-touche2020/v2/source.zip", True),
        (Path("/cache/source.zip"), True),
        ("args-me.json", False),
        ("corpus/debateorg.json", False),
        ("zip", False),
        ("source.zip.json", False),
    ],
)
def test_only_a_zip_is_beirs_corpus(path, beir):
    assert is_beir_zip(path) is beir
