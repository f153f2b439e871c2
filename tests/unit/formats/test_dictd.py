"""The dictd reader: short translations of each entry, markup and definitions left out, and a broken index named
with its line."""

from __future__ import annotations

import gzip

import pytest

from argrank.core.errors import InputError
from argrank.formats.dictd import entry_translations, read_dictd

from .dictd_files import base64_number, write_dictd


def test_entries_give_their_short_translations_in_order(tmp_path):
    index = write_dictd(
        tmp_path,
        "freedict-ita-deu",
        {
            "Pedaggio": "1. Maut <f>\n2. Straßengebühr, Wegezoll (veraltet)",
            "energia": "Energie <f>; Kraft",
            "strada": "Straße\nein befestigter Weg für Fahrzeuge aller Art in der Stadt",  # a definition: dropped
        },
    )
    assert read_dictd(index) == {
        "pedaggio": ["Maut", "Straßengebühr", "Wegezoll"],
        "energia": ["Energie", "Kraft"],
        "strada": ["Straße"],
    }


def test_an_uncompressed_entries_file_is_read_too(tmp_path):
    index = write_dictd(tmp_path, "freedict-fra-deu", {"énergie": "Energie"})
    dz = tmp_path / "freedict-fra-deu.dict.dz"
    (tmp_path / "freedict-fra-deu.dict").write_bytes(gzip.decompress(dz.read_bytes()))
    dz.unlink()
    assert read_dictd(index) == {"énergie": ["Energie"]}


def test_entry_translations_ignore_the_headword_line():
    assert entry_translations("Maut /maʊt/ <n, fem>\npéage") == ["péage"]


@pytest.mark.parametrize(
    "line, message",
    [
        ("energia\tB\n", "line 2: expected 'headword TAB offset TAB length'"),
        ("energia\tB!\tC\n", "line 2: expected 'headword TAB offset TAB length'"),
        (f"energia\tB\t{base64_number(10**6)}\n", "line 2: entry at 1 \\+ 1000000 bytes lies past the entries'"),
    ],
)
def test_a_broken_index_line_is_named(tmp_path, line, message):
    index = write_dictd(tmp_path, "freedict-ita-deu", {"strada": "Straße"})
    index.write_text(index.read_text().splitlines(keepends=True)[0] + line, encoding="utf-8")
    with pytest.raises(InputError, match=message) as error:
        read_dictd(index)
    assert str(index) in str(error.value)


def test_an_index_without_its_entries_is_refused(tmp_path):
    index = write_dictd(tmp_path, "freedict-ita-deu", {"strada": "Straße"})
    (tmp_path / "freedict-ita-deu.dict.dz").unlink()
    with pytest.raises(InputError, match="no entries file beside it"):
        read_dictd(index)
