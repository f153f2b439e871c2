"""A re-ranker and a query rewriter as another distribution would ship them: registered under the
`argrank.rerankers` and `argrank.rewriters` entry-point groups (tests/integration/test_rerank_plugin.py installs
them), with their parameters' defaults and ranges declared."""

from argrank.core.params import Range


def by_length(candidates, weight=1.0):
    """Longer texts first where `weight` is positive, shorter first where it is negative."""
    return [weight * len(text) for text in candidates.column("text").to_pylist()]


by_length.defaults = {"weight": 1.0}
by_length.ranges = {"weight": Range(-10, 10)}


def first_terms(topics, count=1):
    """Each topic's query cut to its first `count` terms, with their weights."""
    return [dict(list(zip(terms, weights))[:count]) for terms, weights in
            zip(topics.column("terms").to_pylist(), topics.column("weights").to_pylist())]  # fmt: skip


first_terms.defaults = {"count": 1}
first_terms.ranges = {"count": Range(1, integer=True)}
