"""InputError: one line naming the file, the place in it and the problem, with unprintable characters escaped."""

from __future__ import annotations

from pathlib import Path

import pytest

from argrank.core.errors import InputError, printable


def test_the_message_names_file_place_and_problem():
    error = InputError(Path("data/topics.xml"), "line 3", "no <title>")
    assert str(error) == "data/topics.xml: line 3: no <title>"
    assert (error.path, error.where, error.problem) == ("data/topics.xml", "line 3", "no <title>")


def test_without_a_place_the_message_is_file_and_problem():
    assert str(InputError("runs.yaml", "", "empty file")) == "runs.yaml: empty file"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("plain – ü ok", "plain – ü ok"),
        ("two\nlines", "two\\nlines"),
        ("\x1b[31mred", "\\x1b[31mred"),
        ("tab\there", "tab\\there"),
        ("\x85next", "\\x85next"),
        ("a\u2028b", "a\\u2028b"),
        ("\u202ereversed", "\\u202ereversed"),
    ],
)
def test_characters_a_terminal_acts_on_are_escaped(text, shown):
    assert printable(text) == shown


def test_a_name_with_a_newline_still_gives_one_line_and_keeps_the_raw_parts():
    error = InputError("evil\nname.txt", "key\x1b", "bad")
    assert str(error) == "evil\\nname.txt: key\\x1b: bad" and "\n" not in str(error)
    assert error.path == "evil\nname.txt"
