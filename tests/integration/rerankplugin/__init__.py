"""A re-ranker as another distribution would ship it: registered under the `argrank.rerankers` entry-point group
(tests/integration/test_rerank_plugin.py installs it), with its parameters' defaults and ranges declared."""

from argrank.core.params import Range


def by_length(candidates, weight=1.0):
    """Longer texts first where `weight` is positive, shorter first where it is negative."""
    return [weight * len(text) for text in candidates.column("text").to_pylist()]


by_length.defaults = {"weight": 1.0}
by_length.ranges = {"weight": Range(-10, 10)}
