"""The peers' stages: other BM25 libraries given our token lists and analysed queries, timed as ours are.

Registered into `bench.harness.STAGES`; `python -m bench.stages NAME ...` runs them like our own stages.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from bench.harness import best_of, package_version, phase_fields, stage
from bench.inputs import (
    in_index_order,
    load_tokens,
    python_token_ids,
    python_token_lists,
    read_queries,
)
from bench.measure import Phases


@stage
def bm25s(params: dict, phases: Phases) -> dict:
    """bm25s (numpy backend) on our token lists: index() and 50-topic retrieve(k=depth)."""
    os.environ.setdefault("DISABLE_TQDM", "1")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import bm25s as peer

    with phases.phase("load_tokens"):
        _, tokens = load_tokens(params["tokens"])
    with phases.phase("convert"):
        if params["form"] == "ids":
            corpus = peer.tokenization.Tokenized(*python_token_ids(tokens))
        else:
            corpus = python_token_lists(tokens)
        documents = len(tokens)
        del tokens
    retriever = peer.BM25(k1=params["k1"], b=params["b"], method=params["method"], backend="numpy")
    with phases.phase("build_index"):
        retriever.index(corpus, show_progress=False)
    del corpus
    queries = read_queries(params["queries"])
    query_tokens = [q["tokens"] for q in queries]
    depth = min(params["depth"], documents)

    def retrieve():
        return retriever.retrieve(
            query_tokens, k=depth, backend_selection="numpy", n_threads=0, show_progress=False, sorted=True
        )

    with phases.phase("retrieve"):
        runs = best_of(params["repeats"], retrieve)
    p = phases.phases
    return {
        "version": peer.__version__,
        "form": params["form"],
        "method": params["method"],
        "documents": documents,
        **phase_fields(phases, "convert", "convert"),
        **phase_fields(phases, "build_index", "build"),
        "peak_rss_through_build_bytes": phases.peak_through("load_tokens", "convert", "build_index"),
        "build_rss_increase_bytes": p["build_index"]["peak_rss_bytes"] - p["build_index"]["rss_before_bytes"],
        **runs.fields("top_k"),
    }


@stage
def rank_bm25(params: dict, phases: Phases) -> dict:
    """rank-bm25's BM25Okapi on the subset: build, get_scores + top-k per topic, and our rankings checked against it."""
    import numpy as np
    import rank_bm25

    with phases.phase("load_tokens"):
        ids, tokens = in_index_order(params["tokens"], limit=params["subset"])
        doc_ids = ids.to_pylist()
    with phases.phase("convert"):
        corpus = python_token_lists(tokens)
        del tokens
    with phases.phase("build_index"):
        model = rank_bm25.BM25Okapi(corpus, k1=params["k1"], b=params["b"], epsilon=0.25)
    del corpus
    queries = read_queries(params["queries"])
    depth = min(params["depth"], len(doc_ids))
    order_key = np.arange(len(doc_ids))

    def run_topics():
        results = {}
        for query in queries:
            scores = model.get_scores(query["tokens"])
            top = np.lexsort((order_key, -scores))[:depth]  # score descending, ties by doc id (= position)
            results[query["number"]] = (top, scores[top])
        return results

    with phases.phase("retrieve"):
        runs = best_of(params["repeats"], run_topics)
    results = runs.result

    # Identity check: our top-k against rank-bm25's, where rank-bm25 lists only documents matching a query term
    # (the others score exactly 0 there and are not candidates in ours).
    ours = json.loads(Path(params["ours_rankings"]).read_text(encoding="utf-8"))
    mismatched, max_difference, compared = [], 0.0, 0
    for query in queries:
        number = query["number"]
        top, scores = results[number]
        terms = set(query["tokens"])
        theirs = [
            (doc_ids[d], s)
            for d, s in zip(top.tolist(), scores.tolist())
            if not terms.isdisjoint(model.doc_freqs[d])  # d holds a query term
        ]
        mine = [(doc, score) for doc, score in ours.get(number, [])]
        compared += 1
        if [d for d, _ in theirs] != [d for d, _ in mine]:
            mismatched.append(number)
        else:
            for (_, a), (_, b) in zip(theirs, mine):
                max_difference = max(max_difference, abs(a - b))
    return {
        "version": package_version("rank-bm25"),
        "documents": len(doc_ids),
        **phase_fields(phases, "convert", "convert"),
        **phase_fields(phases, "build_index", "build"),
        "peak_rss_through_build_bytes": phases.peak_through("load_tokens", "convert", "build_index"),
        **runs.fields("top_k"),
        "identical": not mismatched,
        "topics_compared": compared,
        "topics_mismatched": mismatched,
        "max_score_difference": max_difference,
    }
