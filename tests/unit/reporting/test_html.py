"""reporting/html.py: the report page's title, style, intro, navigation and sections, names escaped."""

from __future__ import annotations

from html.parser import HTMLParser

from argrank.formats.html import table
from argrank.reporting.html import CSS, page

_VOID = frozenset({"meta", "img", "br"})  # elements without an end tag


class _Structure(HTMLParser):
    """The tags of a document in order, the text of every element and each element's attributes, and a check that
    every element is closed in order."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.tags: list[str] = []
        self.texts: list[str] = []
        self.attributes: list[dict[str, str | None]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attributes.append(dict(attrs))
        if tag not in _VOID:
            self.open.append(tag)

    def handle_endtag(self, tag):
        assert self.open and self.open[-1] == tag, f"</{tag}> closes {self.open[-1:]}"
        self.open.pop()

    def handle_data(self, data):
        self.texts.append(data)


def _parsed(html: str) -> _Structure:
    parser = _Structure()
    parser.feed(html)
    parser.close()
    assert parser.open == [], f"unclosed: {parser.open}"
    return parser


def test_page_has_title_style_intro_navigation_and_each_section_in_order():
    html = page("Report <1>", {"args": "<p>first</p>", "images & more": "<p>second</p>"}, intro="<p>intro</p>")
    assert html.startswith(
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Report &lt;1&gt;</title>'
    )
    assert html.endswith("</body></html>\n")
    assert f"<style>{CSS}</style>" in html
    assert "<h1>Report &lt;1&gt;</h1><p>intro</p><nav>" in html
    assert '<nav><a href="#args">args</a> <a href="#images &amp; more">images &amp; more</a></nav>' in html
    assert html.index('<section id="args">') < html.index('<section id="images &amp; more">')
    assert '<section id="args"><h2>args</h2><p>first</p></section>' in html


def test_every_navigation_link_leads_to_its_section():
    sections = {"args": "<p>a</p>", "comparative": "<p>b</p>", "a\"b'c": "<p>c</p>"}
    parsed = _parsed(page("r", sections))
    links = [attrs["href"] for tag, attrs in zip(parsed.tags, parsed.attributes) if tag == "a"]
    ids = [attrs["id"] for tag, attrs in zip(parsed.tags, parsed.attributes) if tag == "section"]
    assert links == [f"#{key}" for key in sections] and ids == list(sections)


def test_a_title_or_section_name_that_looks_like_markup_stays_text():
    parsed = _parsed(page("<script>x</script>", {"<b>run</b>": "<p>ok</p>"}))
    assert "script" not in parsed.tags and "b" not in parsed.tags
    assert "<script>x</script>" in parsed.texts and "<b>run</b>" in parsed.texts


def test_sections_and_intro_are_html_kept_as_given():
    body = table(["run", "nDCG@5"], [["bm25", "0.5000"]])
    parsed = _parsed(page("r", {"args": body}, intro='<p class="note">intro</p>'))
    assert parsed.tags.count("table") == 1 and "bm25" in parsed.texts
    assert {"class": "note"} in parsed.attributes


def test_a_page_without_sections_has_an_empty_navigation_and_is_well_formed():
    html = page("empty", {})
    assert "<nav></nav></body>" in html and "<section" not in html
    assert _parsed(html).tags[:4] == ["html", "head", "meta", "title"]


def test_the_same_sections_give_the_same_page():
    sections = {"b": "<p>2</p>", "a": "<p>1</p>"}
    assert page("r", sections) == page("r", dict(sections))
    assert page("r", sections) != page("r", {"a": "<p>1</p>", "b": "<p>2</p>"})  # sections keep the given order
