"""The text a web page gives about one of its images, found from the image's node in the page's DOM.

An image's own pixels say little a text retriever can use; what the page says around it (alt text, caption,
the heading above it, the paragraph it sits in) does, and for an image the page only names in its head
(og:image, twitter:image) the page's title and description are the best text there is. The collection locates
the node by browser XPaths (`/HTML[1]/BODY[1]/DIV[2]/IMG[1]`); lxml's HTML parser does not know that
`<source>`, `<track>`, `<wbr>`, `<embed>` and `<keygen>` are empty and nests what follows inside them, so
positional paths are walked the way the browser numbered its children rather than handed to lxml's XPath.
"""

from __future__ import annotations

import re
from itertools import islice
from typing import Iterable, Iterator

from lxml import etree

HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
BLOCKS = frozenset({"p", "figure", "li", "td", "blockquote", "section", "article", "div"})
SKIPPED = frozenset({"script", "style", "template"})  # text no reader sees
WINDOW = 500  # characters of block text kept on each side of the image: 1,000 at most
META_KEYS = ("og:title", "og:description", "twitter:title", "twitter:description", "description")

# Void elements libxml2 2.14 treats as containers: a browser would make their "children" their next siblings.
_MISNESTED = frozenset({"embed", "keygen", "source", "track", "wbr"})
_STEP = re.compile(r"/([a-z][a-z0-9_-]*)\[([1-9][0-9]*)\]")
_POSITIONAL = re.compile(rf"(?:{_STEP.pattern})+")
_IS_HEADING = " or ".join(f"self::{tag}" for tag in sorted(HEADINGS))
_NEAREST_HEADING = etree.XPath(f"(ancestor::*[{_IS_HEADING}] | preceding::*[{_IS_HEADING}])[last()]")  # document order


def context_text(dom: etree._ElementTree | etree._Element, xpaths: list[str]) -> str:
    """The describing text of the nodes at `xpaths` (case-insensitive), distinct parts in order, one per line.

    An XPath that is malformed or finds nothing adds nothing.
    """
    root = dom.getroot() if isinstance(dom, etree._ElementTree) else dom
    parts: list[str] = []
    for xpath in xpaths:
        for node in find_nodes(root, xpath):
            parts.extend(_page_metadata(root) if _in_head(node) else _image_context(node))
    return "\n".join(_distinct(parts))


def find_nodes(root: etree._Element, xpath: str) -> list[etree._Element]:
    """The elements an XPath names; a positional path is walked as a browser counts children, any other
    expression goes to lxml; a malformed one finds nothing."""
    path = xpath.strip().lower()
    if _POSITIONAL.fullmatch(path):
        node = _walk(root, [(tag, int(index)) for tag, index in _STEP.findall(path)])
        return [] if node is None else [node]
    try:
        found = root.getroottree().xpath(path)
    except etree.XPathError:
        return []
    return [item for item in found if isinstance(item, etree._Element)] if isinstance(found, list) else []


def _walk(root: etree._Element, steps: list[tuple[str, int]]) -> etree._Element | None:
    """Follow `tag[index]` steps from the document; the first step names the root element."""
    node: etree._Element | None = None
    children: Iterable[etree._Element] = [root]
    for tag, index in steps:
        node = next(islice((child for child in children if child.tag == tag), index - 1, None), None)
        if node is None:
            return None
        children = _browser_children(node)
    return node


def _browser_children(node: etree._Element) -> Iterator[etree._Element]:
    """A node's child elements as the browser had them: elements wrongly nested in a void element move up."""
    for child in node:
        if isinstance(child.tag, str):
            yield child
            if child.tag in _MISNESTED:
                yield from _browser_children(child)


def _in_head(node: etree._Element) -> bool:
    return node.tag == "meta" or any(ancestor.tag == "head" for ancestor in node.iterancestors())


def _page_metadata(root: etree._Element) -> list[str]:
    """The page's <title>, then its og:/twitter: title and description and its description meta tags."""
    title = root.find(".//title")
    parts = [_text(title)] if title is not None else []
    contents: dict[str, list[str]] = {key: [] for key in META_KEYS}
    for meta in root.iter("meta"):
        key = (meta.get("property") or meta.get("name") or "").strip().lower()
        if key in contents:
            contents[key].append(_normalise(meta.get("content") or ""))
    return parts + [content for key in META_KEYS for content in contents[key]]


def _image_context(node: etree._Element) -> list[str]:
    """Alt and title, the enclosing figure's caption, the nearest heading before, and the block text around it."""
    parts = [_normalise(node.get("alt") or ""), _normalise(node.get("title") or "")]
    figure = next(node.iterancestors("figure"), None)
    caption = figure.find(".//figcaption") if figure is not None else None
    if caption is not None:
        parts.append(_text(caption))
    headings = _NEAREST_HEADING(node)
    if headings:
        parts.append(_text(headings[0]))
    parts.append(_block_text(node))
    return parts


def _block_text(node: etree._Element) -> str:
    """The text around `node` (up to WINDOW characters each side) in the smallest enclosing block with words."""
    for block in node.iterancestors(*BLOCKS):
        before, after = _text_around(block, node)
        text = _normalise(_tail_words(before) + " " + _head_words(after))
        if any(character.isalnum() for character in text):
            return text
    return ""


def _text_around(block: etree._Element, node: etree._Element) -> tuple[str, str]:
    """The visible text of `block` before and after `node`; reading stops once enough follows the node."""
    before: list[str] = []
    after: list[str] = []
    current, length = before, 0
    for piece in _visible_text(block, node):
        if piece is None:  # the node itself: what comes next is after it
            current, length = after, 0
        elif current is after and length > WINDOW:
            break
        else:
            current.append(piece)
            length += len(piece)
    return " ".join(before), " ".join(after)


def _visible_text(block: etree._Element, mark: etree._Element | None = None) -> Iterator[str | None]:
    """Text pieces of `block` in document order, without script, style and comment text; None where `mark` starts."""
    pending: list[etree._Element | str] = [block]  # elements still to open, and tails due after their elements
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            yield item
            continue
        if item is mark:
            yield None
        if not isinstance(item.tag, str) or item.tag in SKIPPED:
            continue
        if item.text:
            yield item.text
        for child in reversed(item):
            if child.tail:
                pending.append(child.tail)
            pending.append(child)


def _tail_words(text: str) -> str:
    """The last WINDOW characters of `text`, not starting mid-word."""
    text = _normalise(text)
    if len(text) <= WINDOW:
        return text
    cut = text[-WINDOW:]
    return cut.split(" ", 1)[1] if text[-WINDOW - 1] != " " and " " in cut else cut


def _head_words(text: str) -> str:
    """The first WINDOW characters of `text`, not ending mid-word."""
    text = _normalise(text)
    if len(text) <= WINDOW:
        return text
    cut = text[:WINDOW]
    return cut.rsplit(" ", 1)[0] if text[WINDOW] != " " and " " in cut else cut


def _text(element: etree._Element) -> str:
    return _normalise(" ".join(piece for piece in _visible_text(element) if piece))


def _normalise(text: str) -> str:
    return " ".join(text.split())


def _distinct(parts: Iterable[str]) -> list[str]:
    """Non-empty parts, each once, in first-seen order."""
    return list(dict.fromkeys(part for part in parts if part))
