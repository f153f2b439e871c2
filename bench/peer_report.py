"""The report's peer section: our build, memory and top-1000 against each peer's (wall and CPU), how far each peer's
top 10 agrees with ours, and what each peer was fed (standard library only: the driver imports this)."""

from __future__ import annotations

from bench.formatting import mib, secs, table, times, wall_cpu

ROBERTSON = ("its \"robertson\" BM25 clips a negative idf at 0 where ours (rank-bm25's) floors it at ε·mean idf: "
             "scores differ slightly where a term is in more than half the documents")  # fmt: skip
SCORING = {
    "bm25s": ROBERTSON,
    "bm25s_numba": ROBERTSON,
    "tantivy": "Lucene's idf, log(1 + (N − df + 0.5)/(df + 0.5)): never negative, and above our log((N − df + 0.5)/"
    "(df + 0.5)) for every term; and each document's length encoded in one byte (lossy) for the length norm: its "
    "scores differ",
}


def _measured(peer: dict) -> bool:
    return bool(peer) and not peer.get("skipped")


def _comparison_rows(results: dict, labels: dict, ours_against) -> list[list[str]]:
    r, rows = results["ratios"], []
    for key, label in labels.items():
        peer = results["peers"].get(key) or {}
        if not _measured(peer):
            continue
        build, top = ours_against(results, key)
        docs = f"{peer['documents']:,} docs" if key != "rank_bm25" else f"subset of {peer['documents']:,} docs"
        digits = 1 if key == "rank_bm25" else 2
        rows += [
            [f"index build, {docs}", label, wall_cpu(build.get("build_seconds"), build.get("build_cpu_seconds")),
             wall_cpu(peer["build_seconds"], peer.get("build_cpu_seconds")),
             f"{times(r[f'index_build_speedup_vs_{key}'], digits)} faster "
             f"(CPU {times(r[f'index_build_cpu_speedup_vs_{key}'], digits)})"],
            [f"peak RSS through build, {docs}", label, mib(build.get("peak_rss_through_build_bytes")),
             mib(peer["peak_rss_through_build_bytes"]), f"{times(r[f'index_peak_rss_vs_{key}'])} of its"],
            [f"50 topics top-1000, {docs}", label, wall_cpu(top.get("top_k_seconds"), top.get("top_k_cpu_seconds")),
             wall_cpu(peer["top_k_seconds"], peer.get("top_k_cpu_seconds")),
             f"{times(r[f'top_k_speedup_vs_{key}'], digits)} faster (CPU {times(r[f'top_k_cpu_speedup_vs_{key}'], digits)})"],
        ]  # fmt: skip
    return rows


def _agreement_rows(peers: dict, labels: dict) -> list[list[str]]:
    rows = []
    for key, why in SCORING.items():
        agreement = (peers.get(key) or {}).get("agreement")
        if agreement:
            mean = agreement["mean_overlap_at_10"]
            rows.append([labels[key], f"{mean:.3f}" if mean is not None else "—",
                         f"{agreement['identical_top_10_topics']} of {agreement['topics']}", why])  # fmt: skip
    return rows


def _bm25s_note(bm: dict) -> str:
    form = ("its tokenizer's `Tokenized(ids, vocab)` (term ids as Python ints, one int object per term)"
            if bm["form"] == "ids" else "lists of str (one str object per term)")  # fmt: skip
    note = (
        f"bm25s {bm.get('version')}, {bm['backend']} backend: `BM25(k1, b, method=\"{bm['method']}\", "
        f"backend=\"{bm['backend']}\").index()` on {form}, built from our token table "
        f"({wall_cpu(bm['convert_seconds'], bm.get('convert_cpu_seconds'))} to convert, not in its build time; its "
        "fastest input, as it skips bm25s's own vocabulary pass, which our build time includes). Retrieval: "
        f"`retrieve(k=1000, backend_selection=\"{bm['backend']}\", n_threads=0)`, one thread."
    )
    if bm["backend"] == "numba":
        note += (
            " Numba's JIT compile, not in the build or retrieval times: `compile(activate_numba=True, warmup=True)` "
            f"(index builder and scorer) {wall_cpu(bm['compile_build_seconds'], bm['compile_build_cpu_seconds'])}, "
            "the retrieval kernel on its first call (one query) "
            f"{wall_cpu(bm['compile_retrieve_seconds'], bm['compile_retrieve_cpu_seconds'])}. Its peak RSS includes "
            "numba's compiler, which stays in the process."
        )
    return note


def _tantivy_note(tv: dict) -> str:
    return (
        f"tantivy {tv.get('version')}: one text field, whitespace tokenizer (no lowercasing or stemming: our tokens "
        "are analysed already), index_option \"freq\"; one document per argument, its tokens joined by single spaces "
        f"({wall_cpu(tv['convert_seconds'], tv.get('convert_cpu_seconds'))} to join, not in its build time), and its "
        "row as a stored integer. Build: `writer(heap_size="
        f"{tv['heap_bytes']:,}, num_threads=1)`, `add_document` per argument, `commit()`, `wait_merging_threads()`, "
        f"on disk in a temporary folder under the bench's work folder ({tv['segments']} segment(s), "
        f"{mib(tv.get('index_bytes'))}); its merges run on tantivy's merge threads, whose time the CPU figure "
        "includes. Top-1000: a BooleanQuery of SHOULD TermQuery clauses, one per query token (a repeated token "
        "counts again, as in ours), `searcher.search(query, limit=1000, count=False)`, one thread."
    )


def peers_markdown(results: dict, labels: dict, ours_against) -> list[str]:
    """The section; `labels` names each peer, `ours_against(results, peer)` gives our build and top-k figures."""
    peers = results.get("peers", {})
    if not peers:
        return []
    rank = (results.get("stages") or {}).get("rank", {})
    out = ["## Against the peers, on identical token lists", ""]
    out += table(["measure", "peer", "ours", "peer's", "ours vs peer"], _comparison_rows(results, labels, ours_against))
    agreement = _agreement_rows(peers, labels)
    if agreement:
        out += ["", "Top 10 per topic against ours (our full-index ranking): the mean share of documents both hold, "
                "and the topics whose top 10 is the same documents in the same order.", ""]  # fmt: skip
        out += table(["peer", "overlap@10, mean", "identical top 10", "where its scoring differs"], agreement)
    out.append("")
    notes = []
    for key, label in labels.items():
        peer = peers.get(key) or {}
        if peer.get("skipped"):
            notes.append(f"{label}: not measured ({peer['skipped']}).")
        elif peer and key.startswith("bm25s"):
            notes.append(_bm25s_note(peer))
        elif peer and key == "tantivy":
            notes.append(_tantivy_note(peer))
    notes.append(
        "Ours: `index_codes` on the token table's codes (`read_token_codes`, not counted); top-1000 is "
        "`ranker.term_ids` per topic, then `BM25.top_many` of the 50 topics (each one's scores above a bar, "
        "then `top_k` of each), from analysed query tokens, as `rank_topics` ranks them; the ranker (idf, "
        f"{secs(rank.get('make_ranker_seconds'))}) and term lookup ({secs(rank.get('term_lookup_seconds'))}) "
        "built before timing; `rank_topics` (query analysis and the doc-id table included) took "
        f"{secs(rank.get('rank_topics_seconds'))}."
    )  # fmt: skip
    rb = peers.get("rank_bm25") or {}
    if _measured(rb):
        verdict = "identical" if rb["identical"] else f"DIFFERENT for topics {', '.join(rb['topics_mismatched'])}"
        notes.append(
            f"rank-bm25 {rb.get('version')}: `BM25Okapi(k1, b, epsilon=0.25)` on the first {rb['documents']:,} "
            "documents in our index order (by id) — the whole corpus would take it too long; top-1000 is "
            "`get_scores` + a stable sort by score, then doc id. Our top-1000 on an index of the same documents: "
            f"**{verdict}** over {rb['topics_compared']} topics (documents matching no query term, which "
            f"rank-bm25 scores 0, left out), largest score difference {rb['max_score_difference']:.3g}."
        )  # fmt: skip
    notes.append(
        "Times are the wall clock with the process's CPU-seconds (user + system, all its threads) in brackets; "
        "repeated ones are the fastest repeat's, with that same repeat's CPU-seconds. Our top-1000 against a "
        "whole-corpus peer is the one timed beside it in the peer's search process (a child that loads both "
        "indexes and builds nothing), in rounds that alternate with its, after two rounds of each that do not count."
    )
    return out + [line for note in notes for line in (note, "")]
