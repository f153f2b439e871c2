"""HTML building blocks: every value escaped, so a run tag or a topic title cannot break the report's page."""

from __future__ import annotations

from argrank.formats.html import table, text


def test_text_escapes_markup_and_both_quotes_of_any_value():
    assert text("<b>a & 'b'</b>") == "&lt;b&gt;a &amp; &#x27;b&#x27;&lt;/b&gt;"
    assert text('x="1"') == "x=&quot;1&quot;"
    assert text(0.5) == "0.5" and text(None) == "None"


def test_a_table_escapes_its_caption_header_and_cells():
    html = table(["run", "<nDCG>"], [["a&b", "0.5"], ["<script>", "1"]], caption="Runs <all>")
    assert html == (
        "<table><caption>Runs &lt;all&gt;</caption><thead><tr><th>run</th><th>&lt;nDCG&gt;</th></tr></thead>"
        "<tbody><tr><td>a&amp;b</td><td>0.5</td></tr><tr><td>&lt;script&gt;</td><td>1</td></tr></tbody></table>"
    )


def test_a_table_without_caption_or_rows():
    assert table(["a"], []) == "<table><thead><tr><th>a</th></tr></thead><tbody></tbody></table>"


def test_raw_rows_are_taken_as_html_and_the_header_still_escaped():
    html = table(["<x>"], [['<td class="best">0.9</td>']], raw=True)
    assert (
        html
        == '<table><thead><tr><th>&lt;x&gt;</th></tr></thead><tbody><tr><td class="best">0.9</td></tr></tbody></table>'
    )
