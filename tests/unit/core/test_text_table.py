"""Terminal tables: first column left-aligned, figures right-aligned, two spaces apart, no trailing spaces."""

from __future__ import annotations

from argrank.core.text_table import text_table


def test_columns_line_up_by_their_widest_cell():
    rows = [["run", "nDCG@5", "P@10"], ["bm25", "0.5123", "0.4"], ["dirichlet-long", "0.48", "0.3900"]]
    assert text_table(rows).splitlines() == [
        "run             nDCG@5    P@10",
        "bm25            0.5123     0.4",
        "dirichlet-long    0.48  0.3900",
    ]


def test_a_rule_of_dashes_goes_under_the_header():
    assert text_table([["a", "bb"], ["ccc", "d"]], rule=True).splitlines() == ["a    bb", "---  --", "ccc   d"]


def test_trailing_spaces_are_dropped_from_a_short_last_cell():
    assert text_table([["name"], ["x"]]) == "name\nx"
    assert text_table([["name", ""], ["x", ""]]) == "name\nx"
