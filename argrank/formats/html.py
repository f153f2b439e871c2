"""Small HTML building blocks, escaped text and tables: the report's page (reporting.html) and the sections a
track adds to it are made of them.

Strings, not a template engine: the report is a handful of tables and images, and every value that reaches the
page goes through `text`, so a run tag or a topic title cannot break it.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape


def text(value: object) -> str:
    """Any value as escaped HTML text."""
    return escape(str(value), quote=True)


def table(header: list[str], rows: Iterable[list[str]], caption: str = "", raw: bool = False) -> str:
    """A table; cells are escaped unless `raw` (then each is already HTML, e.g. `<td class=…>…</td>`)."""
    head = "".join(f"<th>{text(cell)}</th>" for cell in header)
    body = "".join(
        "<tr>" + ("".join(row) if raw else "".join(f"<td>{text(cell)}</td>" for cell in row)) + "</tr>" for row in rows
    )
    title = f"<caption>{text(caption)}</caption>" if caption else ""
    return f"<table>{title}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
