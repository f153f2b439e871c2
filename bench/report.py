"""The benchmark's verdicts and its Markdown report (standard library only)."""

from __future__ import annotations

import os
import platform
import sys
from importlib.metadata import PackageNotFoundError, version

MIB = 2**20
GIB = 2**30
FULL_SIZE = 387_740  # args.me 2020-04-01: the size the FullSubmission targets are stated for
PERSPECTIVE_QUERIES = 1_611  # the perspective release's dev split: the size its ranking targets are stated for
PERSPECTIVE_DOCUMENTS = 26_335  # the release's corpus, which those queries are ranked over
PERSPECTIVE_SCENARIOS = ("baseline", "explicit", "implicit")
PERSPECTIVE_SECONDS = 60  # per scenario's ranking, evidence included
PERSPECTIVE_PEAK_BYTES = 4 * GIB

PACKAGES = ("numpy", "scipy", "pyarrow", "spacy", "spacy-lookups-data", "bm25s", "rank-bm25", "luigi")


# ------------------------------------------------------------------------------------------------- machine


def machine() -> dict:
    model = None
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            model = next((line.split(":", 1)[1].strip() for line in cpuinfo if line.startswith("model name")), None)
    except OSError:
        pass
    memory = None
    try:
        with open("/proc/meminfo", encoding="utf-8") as meminfo:
            memory = next((int(line.split()[1]) * 1024 for line in meminfo if line.startswith("MemTotal:")), None)
    except OSError:
        pass
    versions = {}
    for name in PACKAGES:
        try:
            versions[name] = version(name)
        except PackageNotFoundError:
            versions[name] = None
    return {
        "cpu_model": model or platform.processor() or "unknown",
        "cpu_count": os.cpu_count(),
        "cpus_usable": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "memory_bytes": memory,
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "packages": versions,
    }


# -------------------------------------------------------------------------------------------------- targets


def _get(results: dict, *path):
    node = results
    for key in path:
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    return node


def _ratio(numerator, denominator):
    if numerator is None or denominator is None or denominator <= 0:
        return None
    return numerator / denominator


def ratios(results: dict) -> dict:
    """Our figures against the peers' (each a factor: > 1 means we are faster / smaller where it says so)."""
    return {
        "index_build_speedup_vs_bm25s": _ratio(
            _get(results, "peers", "bm25s", "build_seconds"), _get(results, "stages", "index", "build_seconds")
        ),
        "index_peak_rss_vs_bm25s": _ratio(
            _get(results, "stages", "index", "peak_rss_through_build_bytes"),
            _get(results, "peers", "bm25s", "peak_rss_through_build_bytes"),
        ),
        "top_k_speedup_vs_bm25s": _ratio(
            _get(results, "peers", "bm25s", "top_k_seconds"), _get(results, "stages", "rank", "top_k_seconds")
        ),
        "top_k_speedup_vs_rank_bm25": _ratio(
            _get(results, "peers", "rank_bm25", "top_k_seconds"), _get(results, "peers", "ours_subset", "top_k_seconds")
        ),
        "index_build_speedup_vs_rank_bm25": _ratio(
            _get(results, "peers", "rank_bm25", "build_seconds"), _get(results, "peers", "ours_subset", "build_seconds")
        ),
        "index_peak_rss_vs_rank_bm25": _ratio(
            _get(results, "peers", "ours_subset", "peak_rss_through_build_bytes"),
            _get(results, "peers", "rank_bm25", "peak_rss_through_build_bytes"),
        ),
        "rerun_share_of_full_run": _ratio(
            _get(results, "full_run", "rerun_k1", "wall_seconds"), _get(results, "full_run", "full", "wall_seconds")
        ),
    }


def targets(results: dict) -> list[dict]:
    """The issue's targets, each with the measured figure and PASS, FAIL or NOT MEASURED."""
    r = results["ratios"]
    arguments = _get(results, "stages", "ingest", "arguments") or _get(results, "config", "arguments")
    small = arguments is not None and arguments < FULL_SIZE
    size_note = f"at {arguments:,} arguments, not the target's {FULL_SIZE:,}" if small else ""
    subset = _get(results, "peers", "rank_bm25", "documents")
    rows = []

    def add(name, measured, passed, shown, note=""):
        status = "NOT MEASURED" if measured is None else ("PASS" if passed(measured) else "FAIL")
        rows.append({"target": name, "measured": measured, "shown": shown if measured is not None else "—",
                     "status": status, "note": note})  # fmt: skip

    tps = _get(results, "stages", "tokenize", "tokens_per_second")
    estimate = _get(results, "stages", "tokenize", "spacy_tokens_per_second_estimate")
    add("tokenization ≥ 500,000 tokens/s in one process", tps, lambda v: v >= 500_000,
        f"{tps:,.0f} tokens/s" if tps else "",
        "index tokens tokenize_table kept (stop words and punctuation dropped) per second of it"
        + (f"; counting every spaCy token instead: ≈ {estimate:,.0f}/s (estimated from a sample)" if estimate else ""))  # fmt: skip
    v = r["index_build_speedup_vs_bm25s"]
    add("index build from token lists ≥ 5× faster than bm25s", v, lambda v: v >= 5, f"{v:.2f}×" if v else "")
    v = r["index_peak_rss_vs_bm25s"]
    add("index build peak RSS ≤ 0.6× bm25s's", v, lambda v: v <= 0.6, f"{v:.2f}×" if v else "",
        "process peak from start through the build, token lists loaded included, each in its library's input form")  # fmt: skip
    v = r["top_k_speedup_vs_bm25s"]
    add("50 topics top-1000 ≥ 3× faster than bm25s (numpy backend)", v, lambda v: v >= 3, f"{v:.2f}×" if v else "")
    v = r["top_k_speedup_vs_rank_bm25"]
    add("50 topics top-1000 ≥ 100× faster than rank-bm25", v, lambda v: v >= 100, f"{v:.1f}×" if v else "",
        f"on the first {subset:,} documents by id" if subset else "")  # fmt: skip
    identical = _get(results, "peers", "rank_bm25", "identical")
    add("top-1000 identical to rank-bm25's (same k1, b, ε; ties by doc id)", identical, lambda v: v is True,
        ("identical" if identical else "DIFFERENT: topics " + ", ".join(_get(results, "peers", "rank_bm25",
         "topics_mismatched") or [])) if identical is not None else "",
        f"on the first {subset:,} documents by id" if subset else "")  # fmt: skip
    wall = _get(results, "full_run", "full", "wall_seconds")
    add("FullSubmission args track ≤ 15 min wall", wall, lambda v: v <= 15 * 60,
        f"{wall / 60:.1f} min ({wall:,.0f} s)" if wall else "", size_note)  # fmt: skip
    peak = _get(results, "full_run", "full", "peak_rss_bytes")
    add("FullSubmission args track ≤ 6 GiB peak RSS", peak, lambda v: v <= 6 * GIB,
        f"{peak / GIB:.2f} GiB" if peak else "", size_note)  # fmt: skip
    v = r["rerun_share_of_full_run"]
    add("re-run after changing one ranking parameter ≤ 3% of the full run", v, lambda v: v <= 0.03,
        f"{v * 100:.1f}%" if v is not None else "", size_note)  # fmt: skip
    rows += perspective_targets(results)
    return rows


def perspective_targets(results: dict) -> list[dict]:
    """The perspective track's targets at release size: each scenario's ranking time and the process's peak RSS."""
    perspective = results.get("perspective") or {}
    why = perspective.get("skipped", "")
    rows = []

    def add(name, measured, passed, shown, note):
        status = "NOT MEASURED" if measured is None else ("PASS" if passed(measured) else "FAIL")
        rows.append({"target": name, "measured": measured, "shown": shown if measured is not None else "—",
                     "status": status, "note": why or note})  # fmt: skip

    for scenario in PERSPECTIVE_SCENARIOS:
        run = _get(perspective, "scenarios", scenario) or {}
        seconds, queries = run.get("seconds"), run.get("queries")
        documents = perspective.get("documents", 0)
        fewer = queries not in (None, PERSPECTIVE_QUERIES)
        size = f"at {queries:,} queries, not the target's {PERSPECTIVE_QUERIES:,}; " if fewer else ""
        corpus = f"not the release's {PERSPECTIVE_DOCUMENTS:,}; " if documents < PERSPECTIVE_DOCUMENTS else ""
        add(f"perspective {scenario}: {PERSPECTIVE_QUERIES:,} queries, top 1000 ≤ {PERSPECTIVE_SECONDS} s", seconds,
            lambda v: v <= PERSPECTIVE_SECONDS, f"{seconds:.1f} s" if seconds is not None else "",
            f"{size}{documents:,} arguments, {corpus}evidence {_s(run.get('evidence_seconds'))} included"
            if run else "")  # fmt: skip
    peak = perspective.get("peak_rss_bytes")
    add(f"perspective ranking process ≤ {PERSPECTIVE_PEAK_BYTES // GIB} GiB peak RSS", peak,
        lambda v: v <= PERSPECTIVE_PEAK_BYTES, f"{peak / GIB:.2f} GiB" if peak else "",
        "release loaded, ranker built and the three scenarios ranked in one process")  # fmt: skip
    return rows


# --------------------------------------------------------------------------------------------------- report


def _s(seconds) -> str:
    if seconds is None:
        return "—"
    if seconds >= 100:
        return f"{seconds:,.0f} s"
    if seconds >= 1:
        return f"{seconds:.2f} s"
    return f"{seconds * 1000:.1f} ms"


def _mib(value) -> str:
    return "—" if value is None else f"{value / MIB:,.0f} MiB"


def _x(value, digits=2) -> str:
    return "—" if value is None else f"{value:.{digits}f}×"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return lines


def perspective_markdown(perspective: dict) -> list[str]:
    """The perspective section: what was loaded and built, then a row per scenario."""
    out = ["## Perspective track at release size (one process)", ""]
    if perspective.get("skipped"):
        return out + [f"Not measured ({perspective['skipped']}).", ""]
    if not perspective.get("scenarios"):
        return []
    train = perspective["train_queries"]
    out += [
        (
            f"Release: {perspective['data']}: {perspective['documents']:,} arguments, {train['baseline']:,} baseline "
            f"and {train['perspective']:,} perspective training queries ({perspective['issues']} issues). Prepare "
            f"(`load_release`: ingest, tokenize, index) {_s(perspective['prepare_seconds'])}; training and ranker "
            f"{_s(perspective['ranker_seconds'])}; process peak RSS {_mib(perspective.get('peak_rss_bytes'))}."
        ),
        "",
    ]
    rows = []
    for scenario, run in perspective["scenarios"].items():
        rate = run.get("queries_per_second")
        rows.append([scenario + (f" (diversify {run['diversity']})" if run.get("diversity") else ""),
                     f"{run['queries']:,} ({run['distinct_texts']:,} distinct texts)", _s(run["seconds"]),
                     _s(run["evidence_seconds"]), "—" if rate is None else f"{rate:,.0f}",
                     _mib(run.get("peak_rss_bytes"))])  # fmt: skip
    out += _table(["scenario", "queries", "seconds", "of which evidence", "queries/s", "peak RSS"], rows)
    out += ["", (f"Synthetic queries of the real counts: each scenario ranks {perspective['queries']:,} queries (the "
                 f"dev split's count), top {perspective['depth']:,}: the perspective training queries in file order, "
                 "the baseline training queries cycled in order under fresh ids. Seconds: the scenario's evidence (the "
                 "implicit classifiers are fitted there) and `rank_scenario` together."), ""]  # fmt: skip
    return out


def markdown(results: dict) -> str:
    m, c = results["machine"], results["config"]
    out = ["# argrank benchmark", ""]
    memory = f"{m['memory_bytes'] / GIB:.1f} GiB RAM" if m.get("memory_bytes") else "RAM unknown"
    packages = ", ".join(f"{k} {v}" for k, v in m["packages"].items() if v)
    out += [
        f"Machine: {m['cpu_model']}, {m['cpu_count']} cores ({m['cpus_usable']} usable), {memory}, "
        f"Python {m['python']}; {packages}.",
        f"Load average at start {results['load_average']['start']}, at end {results['load_average'].get('end')} "
        "(other work on the machine makes the figures noisy).",
        "",
    ]
    corpus = results.get("corpus", {})
    if corpus.get("given"):
        out.append(f"Corpus: {corpus['directory']} as given (not generated).")
    elif corpus:
        stats = corpus.get("stats") or {}
        size = (f", {stats['words_total']:,} words (mean {stats['words_mean']:.0f} per premise)"
                if stats.get("words_total") else "") + (f", {corpus['bytes'] / MIB:,.0f} MiB" if corpus.get("bytes") else "")  # fmt: skip
        how = ("reused from an earlier run's cache (not generated again; delete the folder to regenerate)"
               if corpus.get("reused") else
               f"generated in {_s(corpus.get('seconds'))} (not a stage; kept for the next run)")  # fmt: skip
        out.append(f"Corpus: {c['arguments']:,} synthetic arguments (`tools.synthetic_argsme`, seed {c['seed']}, "
                   f"{c['topics']} topics){size}, in {corpus['directory']}: {how}.")  # fmt: skip
    out.append(f"Repeated timings are the best of {c['repeats']}. Each stage and peer runs in a process of its own.")
    out.append("")

    stages = results.get("stages", {})
    if stages:
        out += ["## Pipeline stages (library functions, one process each)", ""]
        rows = []
        ing = stages.get("ingest")
        if ing:
            rows.append(["ingest (`ingest_argsme`)", _s(ing["seconds"]), _s(ing.get("cpu_seconds")),
                         _s(ing.get("wall_seconds")),
                         _mib(ing.get("peak_rss_bytes")),
                         f"{ing['arguments']:,} arguments, {ing['arguments_per_second']:,.0f}/s, "
                         f"{ing['input_mib_per_second']:,.0f} MiB/s of JSON"])  # fmt: skip
        tok = stages.get("tokenize")
        if tok:
            rows.append(["tokenize (`tokenize_table`, fields [premise])", _s(tok["seconds"]),
                         _s(tok.get("cpu_seconds")), _s(tok.get("wall_seconds")), _mib(tok.get("peak_rss_bytes")),
                         f"{tok['tokens_kept']:,} index tokens kept, **{tok['tokens_per_second']:,.0f}/s**; "
                         f"{tok['input_words']:,} whitespace words, {tok['words_per_second']:,.0f}/s" +
                         (f"; ≈ {tok['spacy_tokens_estimate']:,} spaCy tokens, "
                          f"≈ {tok['spacy_tokens_per_second_estimate']:,.0f}/s (sampled ratio)"
                          if tok.get("spacy_tokens_estimate") else "") + "; "
                         f"{tok['documents_per_second']:,.0f} docs/s; analyzer load {_s(tok['analyzer_seconds'])} "
                         "(not in the stage time)"])  # fmt: skip
        idx = stages.get("index")
        if idx:
            rows.append(["index (`build_index` + `save_index`)", _s(idx["seconds"]), _s(idx.get("cpu_seconds")),
                         _s(idx.get("wall_seconds")),
                         _mib(idx.get("peak_rss_bytes")),
                         f"load {_s(idx['load_seconds'])}, build {_s(idx['build_seconds'])}, save "
                         f"{_s(idx['save_seconds'])}; {idx['documents']:,} docs, {idx['terms']:,} terms, "
                         f"{idx['postings']:,} postings"])  # fmt: skip
        rk = stages.get("rank")
        if rk:
            rows.append(["rank (`load_index`, `make_ranker`, `rank_topics`, 50 topics, top 1000)", _s(rk["seconds"]),
                         _s(rk.get("cpu_seconds")), _s(rk.get("wall_seconds")), _mib(rk.get("peak_rss_bytes")),
                         f"load index {_s(rk['load_index_seconds'])}, analyzer {_s(rk['analyzer_seconds'])}, "
                         f"ranker {_s(rk['make_ranker_seconds'])}, rank_topics {_s(rk['rank_topics_seconds'])}"])  # fmt: skip
        out += _table(["stage", "time in stage", "CPU in stage", "process wall", "peak RSS", "detail"], rows)
        out += ["", "Time in stage: wall time measured inside the process around the work (the figure rates and "
                "targets use); CPU in stage: its user + system time, all threads (less sensitive to other load); "
                "process wall adds interpreter start and imports. Peak RSS: the stage process's own peak (VmHWM).",
                ""]  # fmt: skip

    peers = results.get("peers", {})
    ours_idx, ours_rank = stages.get("index", {}), stages.get("rank", {})
    if peers:
        r = results["ratios"]
        bm, rb, sub = peers.get("bm25s", {}), peers.get("rank_bm25", {}), peers.get("ours_subset", {})
        out += ["## Against the peers, on identical token lists", ""]
        rows = []
        if bm and not bm.get("skipped"):
            n = bm["documents"]
            rows += [
                [f"index build, {n:,} docs", _s(ours_idx.get("build_seconds")), "bm25s", _s(bm["build_seconds"]),
                 _x(r["index_build_speedup_vs_bm25s"]) + " faster"],
                [f"peak RSS through build, {n:,} docs", _mib(ours_idx.get("peak_rss_through_build_bytes")), "bm25s",
                 _mib(bm["peak_rss_through_build_bytes"]), _x(r["index_peak_rss_vs_bm25s"]) + " of bm25s's"],
                [f"50 topics top-1000, {n:,} docs", _s(ours_rank.get("top_k_seconds")), "bm25s",
                 _s(bm["top_k_seconds"]), _x(r["top_k_speedup_vs_bm25s"]) + " faster"],
            ]  # fmt: skip
        if rb and not rb.get("skipped"):
            n = rb["documents"]
            rows += [
                [f"index build, subset of {n:,} docs", _s(sub.get("build_seconds")), "rank-bm25",
                 _s(rb["build_seconds"]), _x(r["index_build_speedup_vs_rank_bm25"], 1) + " faster"],
                [f"peak RSS through build, subset of {n:,} docs", _mib(sub.get("peak_rss_through_build_bytes")),
                 "rank-bm25", _mib(rb["peak_rss_through_build_bytes"]),
                 _x(r["index_peak_rss_vs_rank_bm25"]) + " of rank-bm25's"],
                [f"50 topics top-1000, subset of {n:,} docs", _s(sub.get("top_k_seconds")), "rank-bm25",
                 _s(rb["top_k_seconds"]), _x(r["top_k_speedup_vs_rank_bm25"], 1) + " faster"],
            ]  # fmt: skip
        out += _table(["measure", "ours", "peer", "peer's", "ours vs peer"], rows)
        notes = [""]
        if bm.get("skipped"):
            notes.append(f"bm25s: not measured ({bm['skipped']}).")
        elif bm:
            form = ("its tokenizer's `Tokenized(ids, vocab)` (term ids as Python ints, one int object per term)"
                    if bm["form"] == "ids" else "lists of str (one str object per term)")  # fmt: skip
            notes.append(
                f"bm25s {bm.get('version')}: `BM25(k1, b, method=\"{bm['method']}\", backend=\"numpy\").index()` on "
                f"{form}, built from our token table ({_s(bm['convert_seconds'])} to convert, not in its build time; "
                "its fastest input, as it skips bm25s's own vocabulary pass, which our build time includes). "
                "Retrieval: `retrieve(k=1000, backend_selection=\"numpy\", n_threads=0)`. Its "
                f"\"{bm['method']}\" BM25 clips negative idf at 0 where ours (rank-bm25's) floors it at ε·mean idf: "
                "scores differ slightly, work does not."
            )  # fmt: skip
        notes.append(
            "Ours: `build_index` from the Arrow id and token columns; top-1000 is `ranker.term_ids` + `BM25.score` + "
            "`top_k` per topic from analysed query tokens, the ranker (idf, "
            f"{_s(ours_rank.get('make_ranker_seconds'))}) and term lookup ({_s(ours_rank.get('term_lookup_seconds'))}) "
            "built before timing; `rank_topics` (query analysis and the doc-id table included) took "
            f"{_s(ours_rank.get('rank_topics_seconds'))}."
        )  # fmt: skip
        if rb.get("skipped"):
            notes.append(f"rank-bm25: not measured ({rb['skipped']}).")
        elif rb:
            verdict = "identical" if rb["identical"] else f"DIFFERENT for topics {', '.join(rb['topics_mismatched'])}"
            notes.append(
                f"rank-bm25 {rb.get('version')}: `BM25Okapi(k1, b, epsilon=0.25)` on the first {rb['documents']:,} "
                "documents in our index order (by id) — the whole corpus would take it too long; top-1000 is "
                "`get_scores` + a stable sort by score, then doc id. Our top-1000 on an index of the same documents: "
                f"**{verdict}** over {rb['topics_compared']} topics (documents matching no query term, which "
                f"rank-bm25 scores 0, left out), largest score difference {rb['max_score_difference']:.3g}."
            )  # fmt: skip
        out += notes + [""]

    full = results.get("full_run", {})
    if full.get("skipped"):
        out += ["## FullSubmission, args track", "", f"Not run ({full['skipped']}).", ""]
    elif full:
        out += [f"## FullSubmission, args track (`luigi --module workflows FullSubmission --local-scheduler "
                f"--workers {c.get('workers', 1)}`, shards: {c.get('shards', 1)})", ""]  # fmt: skip
        rows = []
        for key, label in (("full", "full run, empty output folder"), ("rerun_none", "re-run, nothing changed"),
                           ("rerun_k1", f"re-run after k1 {full.get('k1_before')} → {full.get('k1_after')} in one run")):  # fmt: skip
            run = full.get(key)
            if run:
                share = _ratio(run["wall_seconds"], full["full"]["wall_seconds"])
                rows.append([label, _s(run["wall_seconds"]), _s(run.get("cpu_seconds")),
                             f"{run['peak_rss_bytes'] / GIB:.2f} GiB",
                             f"{run.get('largest_process_peak_rss_bytes', run['peak_rss_bytes']) / GIB:.2f} GiB",
                             "ok" if run["returncode"] == 0 else f"FAILED (exit {run['returncode']})",
                             f"{share * 100:.1f}%" if share is not None else "—"])  # fmt: skip
        out += _table(["run", "wall", "CPU", "peak RSS (all its processes)", "largest one process", "exit",
                       "of the full run"], rows)  # fmt: skip
        out += ["", "Peak RSS of all its processes: the largest sum of their RSS, sampled every 0.2 s (at least the "
                "largest process's own peak, from `wait4`)."]  # fmt: skip
        for key, what in (("full", "the full run's"), ("rerun_k1", "the re-run after the k1 change")):
            run = full.get(key) or {}
            timeline = run.get("timeline")
            if not timeline:
                continue
            out += ["", f"Where {what} time went (each step's end is its cache files' modification time; the first "
                    "step includes interpreter start, imports, scheduling and fingerprinting the inputs):", ""]  # fmt: skip
            rows = [[_s(t["at"]), t["step"], _s(t["took"])] for t in timeline]
            rows.append([_s(run["wall_seconds"]), "(process exit)", _s(run["wall_seconds"] - timeline[-1]["at"])])
            out += _table(["finished", "step", "took"], rows)
        out += ["", f"Runs file: {full.get('runs_file')}; outputs: {full.get('output_dir')}.", ""]

    out += perspective_markdown(results.get("perspective") or {})
    out += ["## Targets", ""]
    out += _table(
        ["target", "measured", "status", "note"],
        [[t["target"], t["shown"], f"**{t['status']}**", t["note"]] for t in results["targets"]],
    )
    failed = [t["target"] for t in results["targets"] if t["status"] == "FAIL"]
    unmeasured = sum(t["status"] == "NOT MEASURED" for t in results["targets"])
    verdict = f"**{len(failed)} target(s) FAILED**: " + "; ".join(failed) + "." if failed else "No measured target failed."
    if unmeasured:
        verdict += f" {unmeasured} target(s) NOT MEASURED."
    out += ["", verdict]
    if results.get("errors"):
        out += ["", "**Errors:** " + "; ".join(results["errors"])]
    return "\n".join(out) + "\n"
