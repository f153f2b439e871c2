"""The peers' stages: other BM25 libraries given our token lists and analysed queries, timed as ours are.

Registered into `bench.harness.STAGES`; `python -m bench.stages NAME ...` runs them like our own stages.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from bench.agreement import TOP, agreement
from bench.harness import BestOf, again, alternating, best_of, package_version, phase_fields, stage, tree_bytes
from bench.inputs import (
    in_index_order, joined_texts, load_ids, load_tokens, python_token_ids, python_token_lists, read_queries,
)  # fmt: skip
from bench.measure import Phases
from bench.ours import loaded_loop


WARMUP_ROUNDS = 2  # rounds of ours and a peer's that do not count, before the counted ones (see side_by_side)


def side_by_side(params: dict, queries: list[dict], theirs: Callable[[], object],
                 phases: Phases) -> tuple[BestOf, BestOf, dict]:  # fmt: skip
    """Our loop (loaded in phase "load_ours") and a peer's `theirs` (phase "retrieve"), in this process, which has
    built nothing: WARMUP_ROUNDS rounds of each (our ranker keeps a term's tf factors from its second query on; a
    peer faults its index in), then params["repeats"] rounds that count, alternating. Returns ours, theirs and the
    warm-up rounds' CPU-seconds."""
    with phases.phase("load_ours"):
        ours = loaded_loop(params, queries)
    with phases.phase("retrieve"):
        warm_ours, warm_theirs = alternating(WARMUP_ROUNDS, ours, theirs)
        mine, runs = alternating(params["repeats"], ours, theirs)
    warmup = {"ours": warm_ours.all_cpu_seconds, "theirs": warm_theirs.all_cpu_seconds}
    return mine, runs, warmup


def searched_fields(mine: BestOf, runs: BestOf, warmup: dict, top: dict, params: dict) -> dict:
    """A search stage's figures: the peer's top-k repeats, ours timed beside them, the warm-up and the agreement."""
    return {
        **runs.fields("top_k"),
        "top_k_warmup_cpu_seconds": warmup["theirs"],
        # Our loop, timed in the same rounds: the figures each ratio sets against this peer's (bench/README.md).
        "ours_alongside": {**mine.fields("top_k"), "top_k_warmup_cpu_seconds": warmup["ours"]},
        "agreement": agreement(params["ours_top"], top),
    }


@stage
def bm25s(params: dict, phases: Phases) -> dict:
    """bm25s's index() on our token lists, with params['backend'] "numpy" or "numba", saved to params['index_out']
    for `bm25s_search`. Numba compiles its index builder on first use: that is timed apart ("compile_build")."""
    os.environ.setdefault("DISABLE_TQDM", "1")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import bm25s as peer

    backend = params["backend"]
    with phases.phase("load_tokens"):
        _, tokens = load_tokens(params["tokens"])
    with phases.phase("convert"):
        if params["form"] == "ids":
            corpus = peer.tokenization.Tokenized(*python_token_ids(tokens))
        else:
            corpus = python_token_lists(tokens)
        documents = len(tokens)
        del tokens
    retriever = peer.BM25(k1=params["k1"], b=params["b"], method=params["method"], backend=backend)
    compiled = backend == "numba"
    if compiled:
        # BM25(backend="numba") documents compiling its index builder and scorer itself (auto_compile), but 0.3.16
        # skips it unless NUMBA_DISABLE_JIT is set: asked for here, as its docs say it would be, warmed up.
        with phases.phase("compile_build"):
            retriever.compile(activate_numba=True, warmup=True)
    with phases.phase("build_index"):
        retriever.index(corpus, show_progress=False)
    del corpus
    retriever.save(params["index_out"], show_progress=False)
    p = phases.phases
    return {
        "version": peer.__version__,
        "backend": backend,
        "form": params["form"],
        "method": params["method"],
        "documents": documents,
        **phase_fields(phases, "convert", "convert"),
        **(phase_fields(phases, "compile_build", "compile_build") if compiled else {}),
        **phase_fields(phases, "build_index", "build"),
        "peak_rss_through_build_bytes": phases.peak_through("load_tokens", "convert", "build_index"),
        "build_rss_increase_bytes": p["build_index"]["peak_rss_bytes"] - p["build_index"]["rss_before_bytes"],
    }


@stage
def bm25s_search(params: dict, phases: Phases) -> dict:
    """bm25s's retrieve(k=depth) of the 50 topics, one thread, on the index `bm25s` saved, beside our loop
    (`side_by_side`). Numba compiles its retrieval kernel on the first call: timed apart ("compile_retrieve")."""
    os.environ.setdefault("DISABLE_TQDM", "1")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import bm25s as peer

    backend = params["backend"]
    with phases.phase("load_index"):
        retriever = peer.BM25.load(params["index_out"], mmap=False, show_progress=False)
        ids = load_ids(params["tokens"])
    queries = read_queries(params["queries"])
    query_tokens = [q["tokens"] for q in queries]
    depth = min(params["depth"], len(ids))

    def retrieve(tokens: list[list[str]]):
        # n_threads=0: numpy maps the queries in this thread; numba takes its serial kernel, not the parallel one.
        return retriever.retrieve(
            tokens, k=depth, backend_selection=backend, n_threads=0, show_progress=False, sorted=True
        )

    compiled = backend == "numba"
    if compiled:
        with phases.phase("compile_retrieve"):  # the retrieval kernel, compiled on its first call: one query
            retriever.activate_numba_scorer()
            retrieve(query_tokens[:1])
    mine, runs, warmup = side_by_side(params, queries, lambda: retrieve(query_tokens), phases)
    found, scores = runs.result
    doc_ids = ids.to_pylist()
    top = {
        q["number"]: [doc_ids[d] for d, s in zip(found[i, :TOP].tolist(), scores[i, :TOP].tolist()) if s > 0]
        for i, q in enumerate(queries)
    }  # bm25s fills k with documents that match no term (score 0): ours lists only matching ones
    return {
        **phase_fields(phases, "load_index", "load_index"),
        **(phase_fields(phases, "compile_retrieve", "compile_retrieve") if compiled else {}),
        **searched_fields(mine, runs, warmup, top, params),
    }


TANTIVY_HEAP_BYTES = 128_000_000  # IndexWriter's own default: what a user who sets only the threads gets


def tantivy_schema(peer):
    """One text field with term frequencies (BM25 needs no positions), split on whitespace only (our tokens are
    analysed already), and the document's row in our table, stored: its id, for the agreement."""
    builder = peer.SchemaBuilder()
    builder.add_text_field("tokens", tokenizer_name="whitespace", index_option="freq")
    builder.add_unsigned_field("position", stored=True)
    return builder.build()


@stage
def tantivy(params: dict, phases: Phases) -> dict:
    """tantivy's index of our token lists, built on disk in params['index_out'] by one indexing thread (and
    `build_repeats` − 1 more times elsewhere, for the build's best time), for `tantivy_search`."""
    import tantivy as peer

    with phases.phase("load_tokens"):
        _, tokens = load_tokens(params["tokens"])
    with phases.phase("convert"):
        texts = joined_texts(tokens)
        del tokens
    documents = len(texts)
    schema = tantivy_schema(peer)

    def build(folder: str):
        index = peer.Index(schema, path=folder)
        writer = index.writer(heap_size=TANTIVY_HEAP_BYTES, num_threads=1)
        for position, text in enumerate(texts):
            writer.add_document(peer.Document(tokens=text, position=position))
        writer.commit()
        writer.wait_merging_threads()

    def build_elsewhere() -> None:
        with tempfile.TemporaryDirectory(prefix="tantivy-", dir=params["work"]) as other:
            build(other)

    folder = Path(params["index_out"])
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    with phases.phase("build_index"):
        first = best_of(1, lambda: build(str(folder)))
    with phases.phase("build_again"):  # each in a fresh folder; the fastest of the repeats is its figure
        builds = again(first, params.get("build_repeats", 1), build_elsewhere)
    return {
        "version": package_version("tantivy"),
        "documents": documents,
        "heap_bytes": TANTIVY_HEAP_BYTES,
        "index_bytes": tree_bytes(folder),
        **phase_fields(phases, "convert", "convert"),
        **builds.fields("build"),
        "peak_rss_through_build_bytes": phases.peak_through("load_tokens", "convert", "build_index"),
    }


@stage
def tantivy_search(params: dict, phases: Phases) -> dict:
    """The 50 topics on the index `tantivy` built, beside our loop (`side_by_side`): per topic a BooleanQuery of
    SHOULD TermQuery clauses, one per query token, searched top-`depth` in one thread."""
    import tantivy as peer

    with phases.phase("load_index"):
        index = peer.Index.open(params["index_out"])
        index.reload()
        searcher = index.searcher()
        ids = load_ids(params["tokens"])
    schema = index.schema
    queries = read_queries(params["queries"])
    depth = min(params["depth"], len(ids))

    def query(tokens: list[str]):
        # A repeated token is a repeated clause, so it counts again, as it does in our ranker.
        clauses = [(peer.Occur.Should, peer.Query.term_query(schema, "tokens", t, "freq")) for t in tokens]
        return peer.Query.boolean_query(clauses)

    def run_topics():
        return {q["number"]: searcher.search(query(q["tokens"]), limit=depth, count=False).hits for q in queries}

    mine, runs, warmup = side_by_side(params, queries, run_topics, phases)
    top = {
        number: [ids[searcher.doc(address)["position"][0]].as_py() for _, address in hits[:TOP]]
        for number, hits in runs.result.items()
    }
    return {
        "segments": searcher.num_segments,
        **phase_fields(phases, "load_index", "load_index"),
        **searched_fields(mine, runs, warmup, top, params),
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
