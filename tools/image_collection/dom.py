"""A tiny DOM for the collection's web pages: build a page as a tree of `E(tag, *children, **attrs)`, serialise it
as HTML, give the XPath of a node the way the real collection writes them (uppercase, an index on every step) and
extract the page's visible text the way a crawler does.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field

VOID = {"meta", "link", "img", "br", "input", "hr"}
SKIP_TEXT = {"script", "style", "head", "noscript", "template"}
INLINE = {"a", "span", "strong", "em", "b", "i", "img", "br", "small", "time", "button", "label"}
PARA = {"p", "h1", "h2", "h3", "h4", "figcaption", "blockquote", "li", "dd"}


@dataclass
class Node:
    tag: str
    attrs: list[tuple[str, str]] = field(default_factory=list)
    children: list = field(default_factory=list)
    parent: Node | None = None


def E(tag: str, *children, **attrs) -> Node:
    pairs = []
    for key, value in attrs.items():
        key = {"cls": "class", "http_equiv": "http-equiv"}.get(key, key.replace("_", "-"))
        pairs.append((key, value))
    node = Node(tag, pairs, [])
    for child in children:
        if child is None:
            continue
        if isinstance(child, (list, tuple)):
            for c in child:
                if c is not None:
                    node.children.append(c)
        else:
            node.children.append(child)
    for child in node.children:
        if isinstance(child, Node):
            child.parent = node
    return node


def serialise(node: Node, depth: int = 0) -> str:
    attrs = "".join(f' {k}="{html.escape(v, quote=True)}"' for k, v in node.attrs)
    if node.tag in VOID:
        return f"<{node.tag}{attrs}>"
    if node.tag in ("script", "style"):
        inner = "".join(node.children)
        return f"<{node.tag}{attrs}>{inner}</{node.tag}>"
    parts = []
    block = any(isinstance(c, Node) and c.tag not in INLINE for c in node.children)
    for child in node.children:
        if isinstance(child, str):
            parts.append(html.escape(child, quote=False))
        else:
            parts.append(serialise(child, depth + 1))
    sep = "\n" if block else ""
    return f"<{node.tag}{attrs}>{sep}{sep.join(parts)}{sep}</{node.tag}>"


def xpath_of(node: Node) -> str:
    steps = []
    while node is not None:
        parent = node.parent
        if parent is None:
            index = 1
        else:
            same = [c for c in parent.children if isinstance(c, Node) and c.tag == node.tag]
            index = next(i for i, c in enumerate(same, 1) if c is node)
        steps.append(f"{node.tag.upper()}[{index}]")
        node = parent
    return "/" + "/".join(reversed(steps))


def inline_text(node: Node) -> str:
    out = []
    for child in node.children:
        if isinstance(child, str):
            out.append(child)
        elif child.tag not in SKIP_TEXT:
            out.append(inline_text(child))
    return " ".join(" ".join(out).split())


def text_lines(node: Node, out: list[tuple[str, str]]) -> None:
    if node.tag in SKIP_TEXT:
        return
    if all(isinstance(c, str) or c.tag in INLINE for c in node.children):
        text = inline_text(node)
        if text:
            out.append((text, node.tag))
        return
    for child in node.children:
        if isinstance(child, str):
            if child.strip():
                out.append((child.strip(), node.tag))
        else:
            text_lines(child, out)


def page_text(body: Node) -> str:
    lines: list[str] = []
    collected: list[tuple[str, str]] = []
    text_lines(body, collected)
    for text, tag in collected:
        lines.append(text)
        if tag in PARA:
            lines.append("")
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n"
