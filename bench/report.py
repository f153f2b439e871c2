"""The benchmark's verdicts and its Markdown report (standard library only)."""

from __future__ import annotations

import os
import platform
import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from bench.formatting import GIB, MIB, mib, secs, table, times
from bench.peer_report import peers_markdown

FULL_SIZE = 387_740  # args.me 2020-04-01: the size the FullSubmission targets are stated for
PERSPECTIVE_QUERIES = 1_611  # the perspective release's dev split: the size its ranking targets are stated for
PERSPECTIVE_DOCUMENTS = 26_335  # the release's corpus, which those queries are ranked over
PERSPECTIVE_SCENARIOS = ("baseline", "explicit", "implicit")
PERSPECTIVE_SECONDS = 60  # per scenario's ranking, evidence included
PERSPECTIVE_PEAK_BYTES = 4 * GIB
FUSION_RUNS = 21  # runs of 50 topics whose weighted sum is tuned with five folds ...
FUSION_SECONDS = 60  # ... within this many seconds (wall, what the user waits)

CPU_CACHES = Path("/sys/devices/system/cpu/cpu0/cache")
PACKAGES = ("numpy", "scipy", "pyarrow", "spacy", "spacy-lookups-data", "bm25s", "numba", "tantivy", "rank-bm25",
            "luigi")


# ------------------------------------------------------------------------------------------------- machine


def machine() -> dict:
    """What the figures were measured on. The CPU's family, model and cache sizes tell apart machines that a
    virtual machine names alike ("AMD EPYC"), on which the same code runs at very different speeds."""
    fields = {}
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                key, _, value = line.partition(":")
                if not line.strip():
                    break  # the first processor's fields only
                fields.setdefault(key.strip(), value.strip())
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
        "cpu_model": fields.get("model name") or platform.processor() or "unknown",
        "cpu_family": fields.get("cpu family"),
        "cpu_model_number": fields.get("model"),
        "cache_bytes": {f"L{level}": _cache_bytes(level) for level in (2, 3)},
        "cpu_count": os.cpu_count(),
        "cpus_usable": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "memory_bytes": memory,
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "packages": versions,
    }


def _cache_bytes(level: int) -> int | None:
    """The size of the first core's cache of `level` as Linux reports it, None where it does not."""
    for index in sorted(CPU_CACHES.glob("index*")):
        try:
            kind = (index / "type").read_text().strip()
            if (index / "level").read_text().strip() != str(level) or kind == "Instruction":
                continue
            text = (index / "size").read_text().strip().upper()
            return int(text.rstrip("KMG")) * {"K": 2**10, "M": 2**20, "G": 2**30}.get(text[-1:], 1)
        except (OSError, ValueError):
            return None
    return None


def describe_machine(m: dict) -> str:
    """The machine in one line: the CPU, its family, model and caches where known, cores and memory."""
    known = [f"family {m['cpu_family']}, model {m['cpu_model_number']}"] if m.get("cpu_family") else []
    caches = m.get("cache_bytes") or {}
    known += [f"{level} {size // 2**10:,} KiB a core" if level == "L2" else f"{level} {size // 2**20:,} MiB"
              for level, size in caches.items() if size]
    detail = f" ({'; '.join(known)})" if known else ""
    memory = f"{m['memory_bytes'] / GIB:.1f} GiB RAM" if m.get("memory_bytes") else "RAM unknown"
    return f"{m['cpu_model']}{detail}, {m['cpu_count']} cores ({m['cpus_usable']} usable), {memory}"


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


# The peers in results["peers"], with the label the report gives each.
PEERS = {"bm25s": "bm25s (numpy backend)", "bm25s_numba": "bm25s (numba backend)", "tantivy": "tantivy",
         "rank_bm25": "rank-bm25"}  # fmt: skip
CLOCKS = {"": "wall", "cpu_": "CPU"}  # the prefix a timing's CPU-seconds field and ratio take


def ours_against(results: dict, peer: str) -> tuple[dict, dict]:
    """Our build and our top-k figures to set against a peer's: rank-bm25 ran on the subset, the others on all. Our
    top-k is the one timed in the peer's search process, in rounds alternating with its (`ours_alongside`), where
    the peer's search stage measured it; else the rank stage's."""
    if peer == "rank_bm25":
        subset = _get(results, "peers", "ours_subset") or {}
        return subset, subset
    alongside = _get(results, "peers", peer, "ours_alongside")
    return _get(results, "stages", "index") or {}, alongside or _get(results, "stages", "rank") or {}


def ratios(results: dict) -> dict:
    """Our figures against the peers' (each a factor: > 1 means we are faster / smaller where it says so), every
    speed-up on the wall clock and on CPU-seconds (`..._cpu_speedup_...`)."""
    out = {}
    for peer in PEERS:
        theirs = _get(results, "peers", peer) or {}
        build, top = ours_against(results, peer)
        for clock in CLOCKS:
            out[f"index_build_{clock}speedup_vs_{peer}"] = _ratio(
                theirs.get(f"build_{clock}seconds"), build.get(f"build_{clock}seconds")
            )
            out[f"top_k_{clock}speedup_vs_{peer}"] = _ratio(
                theirs.get(f"top_k_{clock}seconds"), top.get(f"top_k_{clock}seconds")
            )
        out[f"index_peak_rss_vs_{peer}"] = _ratio(
            build.get("peak_rss_through_build_bytes"), theirs.get("peak_rss_through_build_bytes")
        )
    # The session's figure is its second call's (the stage's `seconds`), not its process's (`wall_seconds`).
    for name, key, wall in (("rerun", "rerun_k1", "wall_seconds"), ("rerun_in_session", "rerun_in_session", "seconds")):
        for clock, field, full in (("", wall, "wall_seconds"), ("cpu_", "cpu_seconds", "cpu_seconds")):
            out[f"{name}_{clock}share_of_full_run"] = _ratio(
                _get(results, "full_run", key, field), _get(results, "full_run", "full", full)
            )
    return out


CPU_RULE = "judged on CPU-seconds"  # the rule itself is stated once, under the targets table (TIME_RULE)
TIME_RULE = (
    "Time targets of the args track are judged on CPU-seconds (user + system of the process doing the work, all its "
    "threads), whatever the load: other work on a shared machine stretches wall time but hardly CPU time. The wall "
    "figure is in the note beside each; the perspective and fusion targets keep wall time."
)
TOKENS_PER_CPU_SECOND = 4_000_000
INDEX_BUILD_VS_TANTIVY = 5
TOP_K_VS_TANTIVY = 2
TOP_K_VS_BM25S_NUMBA = 2
FULL_RUN_CPU_SECONDS = 20
FULL_RUN_PEAK_BYTES = 1.5 * GIB
SESSION_RERUN_SHARE = 0.01  # of the full run's CPU-seconds
NEW_PROCESS_RERUN_CPU_SECONDS = 1.5


def _row(name, measured, passed, shown, *notes) -> dict:
    status = "NOT MEASURED" if measured is None else ("PASS" if passed(measured) else "FAIL")
    return {"target": name, "measured": measured, "shown": shown if measured is not None else "—", "status": status,
            "note": "; ".join(n for n in notes if n)}  # fmt: skip


def _size_note(results: dict) -> str:
    arguments = _get(results, "stages", "ingest", "arguments") or _get(results, "config", "arguments")
    small = arguments is not None and arguments < FULL_SIZE
    return f"at {arguments:,} arguments, not the target's {FULL_SIZE:,}" if small else ""


def _subset_note(results: dict) -> str:
    subset = _get(results, "peers", "rank_bm25", "documents")
    return f"on the first {subset:,} documents by id" if subset else ""


def targets(results: dict) -> list[dict]:
    """The issue's targets, each with the measured figure and PASS, FAIL or NOT MEASURED. The args track's time
    targets are judged on CPU-seconds, the wall-clock figure beside it in the note (the perspective track's keep
    their own rule, `perspective_targets`). Figures with no target are `information`."""
    r = results["ratios"]
    size_note, rows = _size_note(results), []

    def speed(name, ratio, factor):
        cpu, wall = r[ratio.replace("speedup", "cpu_speedup")], r[ratio]
        rows.append(_row(name, cpu, lambda v: v >= factor, f"{times(cpu)} on CPU", f"{CPU_RULE}; wall: {times(wall)}"))

    tokenize = _get(results, "stages", "tokenize") or {}
    rate, wall_rate = tokenize.get("tokens_per_cpu_second"), tokenize.get("tokens_per_second")
    rows.append(_row(
        f"tokenization ≥ {TOKENS_PER_CPU_SECOND:,} index tokens per CPU-second", rate,
        lambda v: v >= TOKENS_PER_CPU_SECOND, f"{rate:,.0f} tokens/CPU-s" if rate else "",
        "index tokens tokenize_table kept (stop words and punctuation dropped) per CPU-second of it, one process",
        f"wall: {wall_rate:,.0f} tokens/s" if wall_rate else "",
    ))  # fmt: skip
    speed(f"index build ≥ {INDEX_BUILD_VS_TANTIVY}× faster than tantivy's", "index_build_speedup_vs_tantivy",
          INDEX_BUILD_VS_TANTIVY)  # fmt: skip
    speed(f"50 topics top-1000 ≥ {TOP_K_VS_TANTIVY}× faster than tantivy", "top_k_speedup_vs_tantivy",
          TOP_K_VS_TANTIVY)  # fmt: skip
    speed(f"50 topics top-1000 ≥ {TOP_K_VS_BM25S_NUMBA}× faster than bm25s (numba backend)",
          "top_k_speedup_vs_bm25s_numba", TOP_K_VS_BM25S_NUMBA)  # fmt: skip
    identical = _get(results, "peers", "rank_bm25", "identical")
    rows.append(_row(
        "top-1000 identical to rank-bm25's (same k1, b, ε; ties by doc id)", identical, lambda v: v is True,
        ("identical" if identical else "DIFFERENT: topics " + ", ".join(_get(results, "peers", "rank_bm25",
         "topics_mismatched") or [])) if identical is not None else "", _subset_note(results),
    ))  # fmt: skip
    full = _get(results, "full_run", "full") or {}
    cpu, wall = full.get("cpu_seconds"), full.get("wall_seconds")
    rows.append(_row(
        f"FullSubmission args track ≤ {FULL_RUN_CPU_SECONDS} CPU-seconds", cpu, lambda v: v <= FULL_RUN_CPU_SECONDS,
        f"{cpu:,.1f} CPU-s" if cpu else "", size_note,
        f"the luigi process and its waited-for children (os.wait4); wall: {secs(wall)}",
    ))  # fmt: skip
    peak_bytes = full.get("peak_rss_bytes")
    rows.append(_row(
        f"FullSubmission args track ≤ {FULL_RUN_PEAK_BYTES / GIB:g} GiB peak RSS", peak_bytes,
        lambda v: v <= FULL_RUN_PEAK_BYTES, f"{peak_bytes / GIB:.2f} GiB" if peak_bytes else "", size_note,
    ))  # fmt: skip
    share, wall_share = r["rerun_in_session_cpu_share_of_full_run"], r["rerun_in_session_share_of_full_run"]
    rows.append(_row(
        "re-run after changing one ranking parameter in a running Python session (workflows.run.run_experiment) "
        f"≤ {SESSION_RERUN_SHARE:.0%} of the full run", share, lambda v: v <= SESSION_RERUN_SHARE,
        f"{share * 100:.2f}% on CPU" if share is not None else "", size_note,
        "run_experiment again after a k1 change, the median of three calls by CPU: no interpreter start, no imports"
        + (f"; wall: {wall_share * 100:.2f}%" if wall_share is not None else ""),
    ))  # fmt: skip
    rerun = _get(results, "full_run", "rerun_k1") or {}
    cpu, wall = rerun.get("cpu_seconds"), rerun.get("wall_seconds")
    rows.append(_row(
        f"re-run after changing k1 in a new process ≤ {NEW_PROCESS_RERUN_CPU_SECONDS} CPU-seconds", cpu,
        lambda v: v <= NEW_PROCESS_RERUN_CPU_SECONDS, f"{cpu:.3f} CPU-s" if cpu is not None else "", size_note,
        "the luigi command again, the median of three re-runs by CPU-seconds, interpreter start and imports included"
        + (f"; wall: {secs(wall)}" if wall is not None else ""),
    ))  # fmt: skip
    rows += perspective_targets(results)
    rows += fusion_targets(results)
    return rows


def information(results: dict) -> list[dict]:
    """Figures the benchmark measures with no target: shown beside the targets, never judged."""
    r, rows = results["ratios"], []

    def add(name, shown, *notes):
        rows.append({"figure": name, "shown": shown, "note": "; ".join(n for n in notes if n)})

    def speed(name, ratio, digits=2, note=""):
        cpu, wall = r[ratio.replace("speedup", "cpu_speedup")], r[ratio]
        add(name, f"{times(cpu, digits)} faster on CPU" if cpu is not None else "—", note,
            f"wall: {times(wall, digits)}" if wall is not None else "")  # fmt: skip

    def peak(name, ratio):
        add(name, f"{times(r[ratio])} of its" if r[ratio] is not None else "—",
            "process peak from start through the build, token lists loaded included")  # fmt: skip

    index = _get(results, "stages", "index") or {}
    add("index build peak RSS (ours)", mib(index.get("peak_rss_through_build_bytes")),
        "the index process from start through the build")  # fmt: skip
    peak("index build peak RSS against tantivy's", "index_peak_rss_vs_tantivy")
    speed("index build against bm25s (numpy backend)", "index_build_speedup_vs_bm25s")
    peak("index build peak RSS against bm25s's (numpy backend)", "index_peak_rss_vs_bm25s")
    speed("50 topics top-1000 against bm25s (numpy backend)", "top_k_speedup_vs_bm25s")
    speed("50 topics top-1000 against rank-bm25", "top_k_speedup_vs_rank_bm25", 1, _subset_note(results))
    tokenize = _get(results, "stages", "tokenize") or {}
    estimate = tokenize.get("spacy_tokens_per_second_estimate")
    add("every spaCy token per second (estimated)", f"≈ {estimate:,.0f}/s wall" if estimate else "—",
        "index tokens and the stop words and punctuation dropped, from a sample's ratio")  # fmt: skip
    share, wall_share = r["rerun_cpu_share_of_full_run"], r["rerun_share_of_full_run"]
    add("re-run after changing k1 in a new process, share of the full run",
        f"{share * 100:.1f}% on CPU" if share is not None else "—", _size_note(results),
        f"wall: {wall_share * 100:.1f}%" if wall_share is not None else "")  # fmt: skip
    checks = _get(results, "stages", "integrity") or {}
    if checks:
        add(f"cache damage checks on the ingest, token and index outputs ({checks['bytes'] / MIB:,.0f} MiB, "
            f"{checks['files']} files)",
            f"{checks['check_cpu_seconds'] * 1000:.2f} ms CPU per check while scheduling",
            f"recording them once written (each file hashed): {checks['record_cpu_seconds']:.2f} CPU-s; every "
            f"file hashed again (`run --verify-cache`, the nightly; or where every file's times changed): "
            f"{checks['check_hashed_cpu_seconds']:.2f} CPU-s; "
            f"the token table read with its Parquet page checksums checked: {checks['read_checked_cpu_seconds']:.2f} "
            f"CPU-s, unchecked {checks['read_unchecked_cpu_seconds']:.2f} CPU-s")  # fmt: skip
    else:
        add("cache damage checks on the ingest, token and index outputs", "—")
    nothing = _get(results, "full_run", "rerun_none", "cpu_seconds")
    add("re-run with nothing changed, in a new process", f"{nothing:.3f} CPU-s" if nothing is not None else "—",
        _size_note(results))  # fmt: skip
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
            f"{size}{documents:,} arguments, {corpus}evidence {secs(run.get('evidence_seconds'))} included"
            if run else "")  # fmt: skip
    peak = perspective.get("peak_rss_bytes")
    add(f"perspective ranking process ≤ {PERSPECTIVE_PEAK_BYTES // GIB} GiB peak RSS", peak,
        lambda v: v <= PERSPECTIVE_PEAK_BYTES, f"{peak / GIB:.2f} GiB" if peak else "",
        "release loaded, ranker built and the three scenarios ranked in one process")  # fmt: skip
    return rows


def fusion_targets(results: dict) -> list[dict]:
    """Fusion's target: tuning a weighted sum of 21 runs of 50 topics with five folds (wall seconds, CPU beside)."""
    fusion = results.get("fusion") or {}
    seconds, cpu, runs = fusion.get("seconds"), fusion.get("cpu_seconds"), fusion.get("runs")
    status = "NOT MEASURED" if seconds is None else ("PASS" if seconds <= FUSION_SECONDS else "FAIL")
    note = fusion.get("skipped") or (
        f"{runs} runs (the 7 published 2022 Task 2 runs and noisy copies), {fusion.get('topics')} topics, wsum min-max "
        f"for nDCG@5, --cv {fusion.get('folds')}: cv_mean {fusion.get('cv_mean', 0):.4f}, the single run each "
        f"training part picks {fusion.get('cv_best_single_mean', fusion.get('best_single_mean', 0)):.4f}; CPU "
        f"{secs(cpu)}" if seconds is not None else "")
    return [{"target": f"fuse and tune {FUSION_RUNS} runs of 50 topics with --cv 5 ≤ {FUSION_SECONDS} s",
             "measured": seconds, "shown": f"{seconds:.1f} s" if seconds is not None else "—", "status": status,
             "note": note}]  # fmt: skip


# --------------------------------------------------------------------------------------------------- report


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
            f"(`load_release`: ingest, tokenize, index) {secs(perspective['prepare_seconds'])}; training and ranker "
            f"{secs(perspective['ranker_seconds'])}; process peak RSS {mib(perspective.get('peak_rss_bytes'))}."
        ),
        "",
    ]
    rows = []
    for scenario, run in perspective["scenarios"].items():
        rate = run.get("queries_per_second")
        rows.append([scenario + (f" (diversify {run['diversity']})" if run.get("diversity") else ""),
                     f"{run['queries']:,} ({run['distinct_texts']:,} distinct texts)", secs(run["seconds"]),
                     secs(run["evidence_seconds"]), "—" if rate is None else f"{rate:,.0f}",
                     mib(run.get("peak_rss_bytes"))])  # fmt: skip
    out += table(["scenario", "queries", "seconds", "of which evidence", "queries/s", "peak RSS"], rows)
    out += ["", (f"Synthetic queries of the real counts: each scenario ranks {perspective['queries']:,} queries (the "
                 f"dev split's count), top {perspective['depth']:,}: the perspective training queries in file order, "
                 "the baseline training queries cycled in order under fresh ids. Seconds: the scenario's evidence (the "
                 "implicit classifiers are fitted there) and `rank_scenario` together."), ""]  # fmt: skip
    return out


def run_markdown(results: dict) -> list[str]:
    """The run's own sections: the machine and corpus, the stages, the peers, FullSubmission and perspective."""
    m, c = results["machine"], results["config"]
    out = []
    packages = ", ".join(f"{k} {v}" for k, v in m["packages"].items() if v)
    out += [
        f"Machine: {describe_machine(m)}, Python {m['python']}; {packages}.",
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
               f"generated in {secs(corpus.get('seconds'))} (not a stage; kept for the next run)")  # fmt: skip
        out.append(f"Corpus: {c['arguments']:,} synthetic arguments (`tools.synthetic_argsme`, seed {c['seed']}, "
                   f"{c['topics']} topics){size}, in {corpus['directory']}: {how}.")  # fmt: skip
    out.append(f"Repeated timings are the best of {c['repeats']} (with that repeat's CPU-seconds). Each stage and peer "
               "runs in a process of its own.")
    out.append("")

    stages = results.get("stages", {})
    if stages:
        out += ["## Pipeline stages (library functions, one process each)", ""]
        rows = []
        ing = stages.get("ingest")
        if ing:
            rows.append(["ingest (`ingest_argsme`)", secs(ing["seconds"]), secs(ing.get("cpu_seconds")),
                         secs(ing.get("wall_seconds")),
                         mib(ing.get("peak_rss_bytes")),
                         f"{ing['arguments']:,} arguments, {ing['arguments_per_second']:,.0f}/s, "
                         f"{ing['input_mib_per_second']:,.0f} MiB/s of JSON"])  # fmt: skip
        tok = stages.get("tokenize")
        if tok:
            rows.append(["tokenize (`tokenize_table`, fields [premise])", secs(tok["seconds"]),
                         secs(tok.get("cpu_seconds")), secs(tok.get("wall_seconds")), mib(tok.get("peak_rss_bytes")),
                         f"{tok['tokens_kept']:,} index tokens kept, **{tok['tokens_per_cpu_second']:,.0f} per "
                         f"CPU-second**, {tok['tokens_per_second']:,.0f}/s wall; "
                         f"{tok['input_words']:,} whitespace words, {tok['words_per_second']:,.0f}/s" +
                         (f"; ≈ {tok['spacy_tokens_estimate']:,} spaCy tokens, "
                          f"≈ {tok['spacy_tokens_per_second_estimate']:,.0f}/s (sampled ratio)"
                          if tok.get("spacy_tokens_estimate") else "") + "; "
                         f"{tok['documents_per_second']:,.0f} docs/s; analyzer load {secs(tok['analyzer_seconds'])} "
                         "(not in the stage time)"])  # fmt: skip
        idx = stages.get("index")
        if idx:
            rows.append(["index (`read_token_codes` + `index_codes` + `save_index`)", secs(idx["seconds"]), secs(idx.get("cpu_seconds")),
                         secs(idx.get("wall_seconds")),
                         mib(idx.get("peak_rss_bytes")),
                         f"load {secs(idx['load_seconds'])}, build {secs(idx['build_seconds'])}, save "
                         f"{secs(idx['save_seconds'])}; {idx['documents']:,} docs, {idx['terms']:,} terms, "
                         f"{idx['postings']:,} postings"])  # fmt: skip
        rk = stages.get("rank")
        if rk:
            rows.append(["rank (`load_index`, `make_ranker`, `rank_topics`, 50 topics, top 1000)", secs(rk["seconds"]),
                         secs(rk.get("cpu_seconds")), secs(rk.get("wall_seconds")), mib(rk.get("peak_rss_bytes")),
                         f"load index {secs(rk['load_index_seconds'])}, analyzer {secs(rk['analyzer_seconds'])}, "
                         f"ranker {secs(rk['make_ranker_seconds'])}, rank_topics {secs(rk['rank_topics_seconds'])}"])  # fmt: skip
        out += table(["stage", "time in stage", "CPU in stage", "process wall", "peak RSS", "detail"], rows)
        out += ["", "Time in stage: wall time measured inside the process around the work (the figure rates and "
                "targets use); CPU in stage: its user + system time, all threads (less sensitive to other load); "
                "process wall adds interpreter start and imports. Peak RSS: the stage process's own peak (VmHWM).",
                ""]  # fmt: skip

    out += peers_markdown(results, PEERS, ours_against)

    full = results.get("full_run", {})
    if full.get("skipped"):
        out += ["## FullSubmission, args track", "", f"Not run ({full['skipped']}).", ""]
    elif full:
        out += [f"## FullSubmission, args track (`luigi --module workflows FullSubmission --local-scheduler "
                f"--workers {c.get('workers', 1)}`, shards: {c.get('shards', 1)})", ""]  # fmt: skip
        rows = []
        reruns = full.get("rerun_k1_all") or [full.get("rerun_k1") or {}]
        rerun = (f"re-run after k1 {full.get('k1_before')} → {full.get('k1_after')} in one run"
                 + (f" (the median of {len(reruns)} by CPU)" if len(reruns) > 1 else ""))  # fmt: skip
        for key, label in (("full", "full run, empty output folder"), ("rerun_none", "re-run, nothing changed"),
                           ("rerun_k1", rerun)):  # fmt: skip
            run = full.get(key)
            if run:
                share = _ratio(run["wall_seconds"], full["full"]["wall_seconds"])
                rows.append([label, secs(run["wall_seconds"]), secs(run.get("cpu_seconds")),
                             f"{run['peak_rss_bytes'] / GIB:.2f} GiB",
                             f"{run.get('largest_process_peak_rss_bytes', run['peak_rss_bytes']) / GIB:.2f} GiB",
                             "ok" if run["returncode"] == 0 else f"FAILED (exit {run['returncode']})",
                             f"{share * 100:.1f}%" if share is not None else "—"])  # fmt: skip
        session = full.get("rerun_in_session")
        if session:
            share = _ratio(session["seconds"], full["full"]["wall_seconds"])
            before = full.get("k1_session_before", full.get("k1_after"))
            rows.append([f"re-run after k1 {before} → {full.get('k1_in_session')} in a running Python "
                         "session (`workflows.run.run_experiment` again; the median of "
                         f"{len(session.get('reruns', [session]))} by CPU)", secs(session["seconds"]),
                         secs(session["cpu_seconds"]), f"{session['peak_rss_bytes'] / GIB:.2f} GiB", "(one process)",
                         "ok", f"{share * 100:.1f}%" if share is not None else "—"])  # fmt: skip
        out += table(["run", "wall", "CPU", "peak RSS (all its processes)", "largest one process", "exit",
                       "of the full run"], rows)  # fmt: skip
        out += ["", "Peak RSS of all its processes: the largest sum of their RSS, sampled every 0.2 s (at least the "
                "largest process's own peak, from `wait4`)."]  # fmt: skip
        if len(reruns) > 1:
            each = ", ".join(f"{run['k1_before']} → {run['k1_after']}: {secs(run['cpu_seconds'])} CPU "
                             f"({secs(run['wall_seconds'])} wall)" for run in reruns)  # fmt: skip
            out += ["", f"The re-runs after a k1 change, in order (each to a k1 no run had used): {each}."]
        if session and len(session.get("reruns", [])) > 1:
            each = ", ".join(f"{secs(run['rerun_cpu_seconds'])} CPU ({secs(run['rerun_seconds'])} wall)"
                             for run in session["reruns"])  # fmt: skip
            out += ["", f"The re-runs in one session, in order (k1 to each of {', '.join(map(str, full.get('k1_session_all', [])))}): "
                        f"{each}."]  # fmt: skip
        for key, what in (("full", "the full run's"), ("rerun_k1", "the re-run after the k1 change")):
            run = full.get(key) or {}
            timeline = run.get("timeline")
            if not timeline:
                continue
            out += ["", f"Where {what} time went (each step's end is its cache files' modification time; the first "
                    "step includes interpreter start, imports, scheduling and fingerprinting the inputs):", ""]  # fmt: skip
            rows = [[secs(t["at"]), t["step"], secs(t["took"])] for t in timeline]
            rows.append([secs(run["wall_seconds"]), "(process exit)", secs(run["wall_seconds"] - timeline[-1]["at"])])
            out += table(["finished", "step", "took"], rows)
        out += ["", f"Runs file: {full.get('runs_file')}; outputs: {full.get('output_dir')}.", ""]

    out += perspective_markdown(results.get("perspective") or {})
    return out


def targets_markdown(results: dict) -> list[str]:
    """The targets table, the rule time targets are judged by, the verdict and any errors."""
    rows = results["targets"]
    out = ["## Targets", ""]
    out += table(["target", "measured", "status", "note"],
                 [[t["target"], t["shown"], f"**{t['status']}**", t["note"]] for t in rows])  # fmt: skip
    failed = [t["target"] for t in rows if t["status"] == "FAIL"]
    unmeasured = sum(t["status"] == "NOT MEASURED" for t in rows)
    verdict = f"**{len(failed)} target(s) FAILED**: " + "; ".join(failed) + "." if failed else "No measured target failed."
    if unmeasured:
        verdict += f" {unmeasured} target(s) NOT MEASURED."
    out += ["", TIME_RULE, "", verdict]
    if results.get("errors"):
        out += ["", "**Errors:** " + "; ".join(results["errors"])]
    return out + [""]


def information_markdown(results: dict) -> list[str]:
    """Figures measured beside the targets, with no target of their own."""
    rows = results.get("information") or information(results)
    out = ["## Measured, with no target", ""]
    out += table(["figure", "measured", "note"], [[i["figure"], i["shown"], i["note"]] for i in rows])
    return out + [""]


def markdown(results: dict) -> str:
    """outputs/bench/results.md, which the benchmark also prints: the run, the untargeted figures, the targets."""
    out = ["# argrank benchmark", ""] + run_markdown(results) + information_markdown(results)
    return "\n".join(out + targets_markdown(results)).rstrip("\n") + "\n"


# ------------------------------------------------------------------------------------------------ docs page

DOCS_INTRO = """\
# How fast is argrank? The benchmark's targets and latest figures

This page answers how fast argrank indexes, ranks and re-runs at args.me size, against its targets and against
other BM25 libraries. `make bench` writes it (from `bench/report.py`, with `outputs/bench/results.{json,md}`): do
not edit it by hand. It is the one place in the documentation with measured speeds and memory.

## What is measured, and how

- **The corpus**: a synthetic args.me corpus of 387,740 arguments (`tools/synthetic_argsme.py`, see
  [scale.md](scale.md)), generated once into `outputs/bench/` and reused.
- **Our stages** run as library calls, each in a process of its own: ingest, tokenize (fields `[premise]`), index
  and rank (BM25, k1 1.2, b 0.75, 50 topics, top 1000).
- **The peers** get the same token lists and the same analysed queries: bm25s (numpy and numba backends), tantivy
  and rank-bm25 (on the first 50,000 documents, where our top 1000 must be identical to its own).
- **FullSubmission**: the args track alone, run by the luigi command into an empty output folder; then re-run
  three times, each after changing one run's k1 (a new process each time); then three times inside one Python
  process, `workflows.run.run_experiment` again after each k1 change (as a notebook re-runs; the median counts).
- **Perspective**: the three scenarios of the real release's training part, ranked at the dev split's size in one
  process, where `../shared/data/perspective-release-train` is present.
- **Clocks**: CPU-seconds (user + system, all threads) are measured beside every wall time; the args track's time
  targets are judged on CPU-seconds, so a busy machine moves them little. Retrieval is the best of ten repeats,
  our index build and tantivy's the best of three. Against each whole-corpus peer, our top 1000 is timed in the
  peer's process, in ten rounds that alternate with the peer's own, so that a machine slow for a while slows both
  alike. Peak memory is each process's own peak RSS (the first build's).

`bench/README.md` has every detail of the method, and `PYTHONPATH=. .venv/bin/python -m bench.benchmark --help` the
options. A run of another size, or with a part skipped, leaves this page as it is unless `--docs PATH` is given.
"""


def docs_page(results: dict | None) -> str:
    """docs/benchmarks.md: the method (static), then the targets and the run's figures, or, without results, the
    targets to be measured and how to fill the page in."""
    out = [DOCS_INTRO]
    if results is None:
        empty = {"ratios": ratios({})}
        out += ["## Targets", "", "Not measured yet: run `make bench` to fill in this page.", ""]
        out += table(["target"], [[t["target"]] for t in targets(empty)])
        out += ["", TIME_RULE, "", "Measured beside them, with no target:", ""]
        out += [f"- {i['figure']}" for i in information(empty)]
        return "\n".join(out) + "\n"
    out += targets_markdown(results) + information_markdown(results)
    out += ["## The run these figures come from", ""]
    out += [f"#{line}" if line.startswith("## ") else line for line in run_markdown(results)]
    return "\n".join(out).rstrip("\n") + "\n"
