"""The YAML reader of runs files: PyYAML's safe loader, refusing what it would take silently or without bound.

A key given twice in one mapping: plain YAML keeps the last one, so a run's second `k1` or a second track section
would replace the first unnoticed. Aliases that expand past MAX_NODES: a few lines of anchors, each listing the
previous one ten times, stand for billions of values (a 'billion laughs'), and walking them to check and
fingerprint the settings ran out of memory; a runs file has some hundreds of values.
"""

from __future__ import annotations

from typing import Any

import yaml

MAX_NODES = 100_000  # values of the runs file with every alias expanded


class TooLarge(yaml.YAMLError):
    """The document's aliases expand beyond MAX_NODES values, or refer to themselves."""


class RunsFileLoader(yaml.SafeLoader):
    """yaml.SafeLoader with duplicate keys refused and the expansion of aliases bounded."""

    def construct_document(self, node: yaml.Node) -> Any:
        _check_expansion(node)
        return super().construct_document(node)

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen = set()
        for key_node, _ in node.value:
            if isinstance(key_node, yaml.ScalarNode) and key_node.tag != "tag:yaml.org,2002:merge":
                key = self.construct_object(key_node)
                if key in seen:
                    raise yaml.constructor.ConstructorError(
                        None, None, f"duplicate key {key!r} (the second would replace the first)", key_node.start_mark
                    )
                seen.add(key)
        return super().construct_mapping(node, deep)


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def _check_expansion(root: yaml.Node) -> None:
    """TooLarge unless `root` expanded (each alias a copy of its anchor's value) has at most MAX_NODES nodes.
    Each node is sized once (aliases share nodes), without recursion, so a deep document costs no stack."""
    sizes: dict[int, int] = {}
    open_nodes: set[int] = set()
    stack = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if id(node) in sizes:
            continue
        if children_done:
            open_nodes.discard(id(node))
            sizes[id(node)] = size = 1 + sum(sizes[id(child)] for child in _children(node))
            if size > MAX_NODES:
                raise TooLarge(f"its aliases expand to more than {MAX_NODES:,} values")
            continue
        if id(node) in open_nodes:
            raise TooLarge("an alias refers to a value that holds it")
        open_nodes.add(id(node))
        stack.append((node, True))
        for child in _children(node):
            if id(child) in open_nodes:
                raise TooLarge("an alias refers to a value that holds it")
            if id(child) not in sizes:
                stack.append((child, False))
