"""Plain-text tables for the terminal: the commands that print figures line their columns up the same way."""

from __future__ import annotations

from collections.abc import Sequence


def text_table(rows: Sequence[Sequence[str]], rule: bool = False) -> str:
    """`rows` (the first one the header) with the first column left-aligned, the others (figures) right-aligned,
    two spaces between columns, trailing spaces dropped; `rule`: a line of dashes under the header."""
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    lines = [rows[0], *([["-" * width for width in widths]] if rule else []), *rows[1:]]
    return "\n".join(
        "  ".join([row[0].ljust(widths[0]), *(cell.rjust(width) for cell, width in zip(row[1:], widths[1:]))]).rstrip()
        for row in lines
    )
