"""Our 50-topic top-k loop, as the rank stage times it and as each peer's stage times it beside the peer's own."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path


def term_lookup(index, ranker):
    """Query terms to ids as rank_topics does: the ranker's collection statistics where it has them, else the index."""
    return getattr(ranker, "term_ids", None) or index.term_ids


def top_k_loop(index, ranker, queries: list[dict], depth: int) -> dict[str, tuple]:
    """Our 50-topic loop from analysed query tokens: term ids, BM25 over posting lists, top-k (ties by doc id); the
    queries ranked together, as the rank stage ranks them (`Scorer.top_many`)."""
    lookup = term_lookup(index, ranker)
    asked = [(query["number"], term_ids) for query in queries if (term_ids := lookup(query["tokens"]))]
    tops = ranker.top_many([term_ids for _, term_ids in asked], depth)
    return {number: top for (number, _), top in zip(asked, tops)}


def loaded_loop(params: dict, queries: list[dict]) -> Callable[[], dict]:
    """`top_k_loop` on the index at params['index'] with BM25 of params['k1'] and params['b'], ready to time: the
    index loaded, the ranker made and its term map built, as in the rank stage before its timed repeats."""
    from argrank.index.store import load_index
    from argrank.retrieval.registry import make_ranker

    index = load_index(Path(params["index"]))
    ranker = make_ranker(index, "bm25", {"k1": params["k1"], "b": params["b"]})
    term_lookup(index, ranker)(queries[0]["tokens"] if queries else [])
    return lambda: top_k_loop(index, ranker, queries, params["depth"])
