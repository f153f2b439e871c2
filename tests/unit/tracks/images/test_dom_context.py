"""The text near an image's node: alt, caption, heading and block text for an image, page metadata for a head
tag, browser XPaths through lxml's misnesting, and nothing (never an error) for a bad or missing path."""

from __future__ import annotations

import lxml.html
import pytest

from argrank.tracks.images.dom_context import WINDOW, context_text, find_nodes

ARTICLE = """<html><head><title>Page title</title><script>var hidden = 1;</script></head><body>
<h1>Votes at sixteen</h1>
<div class="main">
  <h2>Turnout   since 1970</h2>
  <p>Intro paragraph.</p>
  <figure>
    <div class="frame"><img alt=" A line graph  of turnout " title="Turnout graph" src="g.png"></div>
    <figcaption>Figure 1: <b>turnout</b> by age</figcaption>
  </figure>
  <h2>Later heading</h2>
</div>
</body></html>"""
IMG = "/HTML[1]/BODY[1]/DIV[1]/FIGURE[1]/DIV[1]/IMG[1]"


def parse(html: str) -> lxml.html.HtmlElement:
    return lxml.html.document_fromstring(html)


def test_image_node_gives_alt_title_caption_heading_and_block_text():
    assert context_text(parse(ARTICLE), [IMG]).split("\n") == [
        "A line graph of turnout",
        "Turnout graph",
        "Figure 1: turnout by age",
        "Turnout since 1970",  # the nearest heading before the image, not the h1 nor the one after it
    ]  # the block text (the figure's) is the caption again, so it is dropped as a duplicate


def test_tree_or_root_and_lowercase_paths_give_the_same():
    root = parse(ARTICLE)
    assert context_text(root.getroottree(), [IMG.lower()]) == context_text(root, [IMG]) != ""


def test_smallest_block_with_words_is_used_and_script_and_style_are_skipped():
    html = (
        "<html><body><div><p>Outer words here.</p><script>no()</script><style>p{}</style>"
        "<div><span><img src='x.png'></span> \u00a0 </div>Tail words.</div></body></html>"
    )
    text = context_text(parse(html), ["/html[1]/body[1]/div[1]/div[1]/span[1]/img[1]"])
    assert text == "Outer words here. Tail words."


def test_block_text_is_a_window_around_the_image_cut_at_words():
    before = " ".join(f"b{i:04d}" for i in range(400))
    after = " ".join(f"a{i:04d}" for i in range(400))
    html = f"<html><body><p>{before} <img alt='pic'> {after}</p></body></html>"
    _, block = context_text(parse(html), ["/html[1]/body[1]/p[1]/img[1]"]).split("\n")
    head, tail = block.split(" a0000 ")
    assert block.startswith("b") and head.endswith("b0399") and tail.startswith("a0001")
    assert 2 * WINDOW - 12 <= len(block) <= 2 * WINDOW + 1  # about WINDOW characters each side
    assert "b0320" in block and "b0310" not in block and "a0080" in block and "a0090" not in block
    assert all(len(word) == 5 for word in block.split())  # no word cut in half


def test_meta_node_gives_the_page_metadata_in_order_without_repeats():
    html = """<html><head><title> The  Title </title>
    <meta name="description" content="Plain description">
    <meta property="og:image" content="https://example.org/i.png">
    <meta property="og:title" content="The Title">
    <meta name="twitter:description" content="Tweet description">
    <meta property="OG:Description" content="Open Graph description">
    <meta name="keywords" content="not, this">
    </head><body><p>Body text is not metadata.</p></body></html>"""
    assert context_text(parse(html), ["/HTML[1]/HEAD[1]/META[2]"]).split("\n") == [
        "The Title",
        "Open Graph description",
        "Tweet description",
        "Plain description",
    ]


def test_img_nested_by_lxml_in_a_source_tag_is_found_by_its_browser_path():
    html = (
        "<html><body><figure><picture><source srcset='a.webp'><img alt='Inside picture'></picture>"
        "<figcaption>The caption</figcaption></figure><p><wbr><span>x</span><span>y</span></p></body></html>"
    )
    root = parse(html)
    assert root.xpath("/html[1]/body[1]/figure[1]/picture[1]/img[1]") == []  # why the walk exists
    assert context_text(root, ["/HTML[1]/BODY[1]/FIGURE[1]/PICTURE[1]/IMG[1]"]).split("\n") == [
        "Inside picture",
        "The caption",
    ]
    (second,) = find_nodes(root, "/html[1]/body[1]/p[1]/span[2]")
    assert second.text == "y"


def test_other_xpath_expressions_go_to_lxml_and_only_elements_count():
    root = parse(ARTICLE)
    assert context_text(root, ["//IMG[@SRC='g.png']"]) == context_text(root, [IMG])
    assert find_nodes(root, "//img/@alt") == [] and find_nodes(root, "count(//img)") == []


@pytest.mark.parametrize(
    "xpath",
    ["", "   ", "///", "foo(", "/HTML[1]/BODY[1]/DIV[9]/IMG[1]", "/BODY[1]", "/HTML[1]/BODY[1]/H1[1]/IMG[1]"],
)
def test_bad_or_missing_xpaths_add_nothing(xpath):
    root = parse(ARTICLE)
    assert context_text(root, [xpath]) == ""
    assert context_text(root, [xpath, IMG]) == context_text(root, [IMG])


def test_several_nodes_share_one_list_without_repeats():
    html = (
        "<html><head><title>T</title><meta property='og:image' content='x'></head><body>"
        "<p>Shared words <img alt='same'></p><p>Shared words <img alt='same'></p></body></html>"
    )
    xpaths = ["/HTML[1]/BODY[1]/P[1]/IMG[1]", "/HTML[1]/BODY[1]/P[2]/IMG[1]", "/HTML[1]/HEAD[1]/META[1]"]
    assert context_text(parse(html), xpaths).split("\n") == ["same", "Shared words", "T"]


def test_comments_hide_their_text_but_not_what_follows():
    html = "<html><body><h3>Head<!-- secret --> line</h3><p>A <!-- hidden -->B<img></p></body></html>"
    assert context_text(parse(html), ["/html[1]/body[1]/p[1]/img[1]"]) == "Head line\nA B"
