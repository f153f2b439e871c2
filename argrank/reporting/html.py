"""The report's page around its sections: its style and navigation. The sections are made of escaped text and
tables (formats.html), so a run tag or a topic title cannot break the page.
"""

from __future__ import annotations

from argrank.formats.html import text

CSS = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 76em; color: #1d2329; padding: 0 1em }
h1 { font-size: 1.6em } h2 { border-bottom: 2px solid #d0d7de; padding-bottom: .2em; margin-top: 2em }
h3 { margin-top: 1.5em } nav a { margin-right: 1em }
table { border-collapse: collapse; margin: .6em 0 1em } caption { text-align: left; color: #57606a; padding: .3em 0 }
th, td { border: 1px solid #d0d7de; padding: .25em .6em; text-align: right }
th:first-child, td:first-child { text-align: left } thead th { background: #f6f8fa }
td.better { background: #dafbe1 } td.worse { background: #ffebe9 }
td small { display: block; font-size: .78em; font-weight: normal; color: #57606a; white-space: nowrap }
td.baseline { color: #57606a } .note { color: #57606a } img.plot { max-width: 100%; display: block }
.thumbs { display: flex; flex-wrap: wrap; gap: .4em; margin: .3em 0 1em }
figure { margin: 0; width: 8.5em; font-size: .75em; text-align: center; overflow-wrap: anywhere }
figure img { width: 8em; height: 6em; object-fit: cover; border: 1px solid #d0d7de }
figure.onstance img { border: 3px solid #1a7f37 } figure.offtopic img { border: 3px solid #cf222e }
img.plot { margin: .8em 0 } details { border-top: 1px solid #d0d7de; padding: .3em 0 }
summary { cursor: pointer; font-weight: 600; font-size: 1.05em; padding: .2em 0 }
"""


def page(title: str, sections: dict[str, str], intro: str = "") -> str:
    """The whole document: title, a navigation bar over the sections (id → HTML) and the sections."""
    nav = " ".join(f'<a href="#{text(key)}">{text(key)}</a>' for key in sections)
    body = "".join(f'<section id="{text(key)}"><h2>{text(key)}</h2>{html}</section>' for key, html in sections.items())
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{text(title)}</title>'
        f"<style>{CSS}</style></head><body><h1>{text(title)}</h1>{intro}<nav>{nav}</nav>{body}</body></html>\n"
    )
