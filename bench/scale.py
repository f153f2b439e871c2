"""`make bench-scale`: how argrank's cost grows with the corpus, beside its peers', from 1× to 10× args.me.

    python -m bench.scale [--scale 1,3,10] [--seed 0] [--topics 50] [--repeats 5] [--out outputs/bench/scale]
                          [--shards-check 2 | --no-shards-check] [--docs PATH | --no-docs] [--report-only]

Each point is one `bench.benchmark` run (a child process) on a synthetic args.me corpus of that many times args.me's
387,740 arguments (same generator and seed; generated once into OUT/x<scale>/ and reused): our stages, tantivy and
bm25s-numba on the same token lists, and the args track's FullSubmission with its re-runs after a k1 change. At the
largest point the submission is built again with `shards` set (--shards-check) and compared byte for byte.
Writes OUT/../scale.json (`points`, the targets judged on CPU-seconds, the load beside them) and
docs/img/scale.png, a log-log plot of CPU-seconds and peak memory against corpus size, rewrites the cost-curve
section of docs/benchmarks.md and the projection to 30× and 100× in docs/scale.md (each between its markers; with
--docs PAGE, the plot and scale.md beside PAGE instead). bm25s-numba is left out of a point where its peak memory,
projected from the last point measured, would pass three quarters of the machine's memory.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import sys
import time
from pathlib import Path

import argrank.lazylibs as lazylibs
from argrank.core.atomic import atomic_write_text
from bench import report
from bench.formatting import GIB, MIB, SCALE_BEGIN, SCALE_END, with_section
from bench.benchmark import REPO, _load_average
from bench.measure import run_child

DOCS_PAGE = REPO / "docs" / "benchmarks.md"
PLOT = Path("img") / "scale.png"  # beside the docs page
SCALE_PAGE = Path("scale.md")
PROJECTION_BEGIN = "<!-- projection:begin (bench/scale.py writes this section) -->"
PROJECTION_END = "<!-- projection:end -->"
STAGES = ("ingest", "tokenize", "index", "rank")
MEMORY_SHARE = 0.75  # bm25s-numba runs at a point only where its projected peak stays below this share of memory
# Targets of the cost curve (issue 61), judged on CPU-seconds.
FULL_GROWTH_AT_10 = 12  # FullSubmission at 10× ≤ this many times its 1× CPU-seconds
FULL_PEAK_AT_10 = 8 * GIB
TOP_K_VS_PEERS = 2
BUILD_VS_TANTIVY = 5


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.scale", description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", default="1,3,10", help="corpus sizes as multiples of args.me (1,3,10)")
    parser.add_argument("--seed", type=int, default=0, help="synthetic corpus seed (0)")
    parser.add_argument("--topics", type=int, default=50, help="synthetic topics (50)")
    parser.add_argument("--repeats", type=int, default=5, help="retrieval timings are the best of this many (5)")
    parser.add_argument("--out", type=Path, default=REPO / "outputs" / "bench" / "scale", help="work folder")
    parser.add_argument("--shards-check", type=int, default=2,
                        help="at the largest point, build the submission again with this many shards and compare (2)")
    parser.add_argument("--no-shards-check", action="store_true", help="skip that check")
    docs = parser.add_mutually_exclusive_group()
    docs.add_argument("--docs", type=Path, default=DOCS_PAGE, help="the page whose cost-curve section is rewritten")
    docs.add_argument("--no-docs", action="store_true", help="leave docs/benchmarks.md and docs/img as they are")
    parser.add_argument("--report-only", action="store_true",
                        help="measure nothing: write the docs and plot again from OUT/../scale.json")
    args = parser.parse_args(argv)
    try:
        args.scales = sorted({float(s) for s in args.scale.split(",") if s.strip()})
    except ValueError:
        parser.error(f"--scale: comma-separated numbers expected, got {args.scale!r}")
    if not args.scales or min(args.scales) <= 0 or args.repeats < 1 or args.shards_check < 2:
        parser.error("--scale must be positive numbers, --repeats at least 1 and --shards-check at least 2")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    out = args.out.resolve()
    if args.report_only:
        results = json.loads((out.parent / "scale.json").read_text(encoding="utf-8"))
        write_docs(args, results)
        print(section(results))
        return 0
    out.mkdir(parents=True, exist_ok=True)
    results = {"machine": report.machine(), "points": [], "errors": []}
    projected_peak = None  # bm25s-numba's peak per argument, from the last point that ran it
    for scale in args.scales:
        arguments = round(scale * report.FULL_SIZE)
        peers = ["tantivy"]
        numba_note = None
        if projected_peak is not None and projected_peak * arguments > MEMORY_SHARE * _memory_bytes():
            numba_note = (f"bm25s-numba left out: its peak, projected from the last point, "
                          f"{projected_peak * arguments / GIB:.1f} GiB, passes three quarters of the machine's "
                          "memory")  # fmt: skip
        else:
            peers.append("bm25s-numba")
        folder = out / f"x{scale:g}"
        command = [sys.executable, "-m", "bench.benchmark", "--arguments", str(arguments), "--seed", str(args.seed),
                   "--topics", str(args.topics), "--repeats", str(args.repeats), "--peers", ",".join(peers),
                   "--skip-perspective", "--skip-fusion", "--out", str(folder), "--no-docs"]  # fmt: skip
        print(f"[scale] {scale:g}× ({arguments:,} arguments) …", flush=True)
        load_before = _load_average()
        child = run_child(command, out / f"x{scale:g}.log", REPO, _environment())
        path = folder / "results.json"
        if child.returncode != 0 or not path.is_file():
            log = out / f"x{scale:g}.log"
            results["errors"].append(f"{scale:g}×: bench.benchmark exit {child.returncode}; see {log}")
        if not path.is_file():
            continue
        measured = json.loads(path.read_text(encoding="utf-8"))
        point = point_of(scale, measured, folder)
        point["load_average"] = {"start": load_before, "end": _load_average()}
        point["driver_wall_seconds"] = child.wall_seconds
        if numba_note:
            point["bm25s_numba_note"] = numba_note
        numba_peak = (measured.get("peers", {}).get("bm25s_numba") or {}).get("peak_rss_bytes")
        if numba_peak:
            projected_peak = numba_peak / arguments
        results["points"].append(point)
        print(f"[scale] {scale:g}×: FullSubmission {point.get('full_cpu_seconds')} CPU-s, "
              f"{(point.get('full_peak_rss_bytes') or 0) / GIB:.2f} GiB", flush=True)  # fmt: skip
    if results["points"] and not args.no_shards_check:
        results["shards_check"] = shards_check(out / f"x{args.scales[-1]:g}", args.shards_check)
    results["targets"] = targets(results["points"], results.get("shards_check"))
    atomic_write_text(out.parent / "scale.json", json.dumps(results, indent=1) + "\n")
    print(f"[scale] wrote {out.parent / 'scale.json'}")
    write_docs(args, results)
    print(section(results))
    return 1 if results["errors"] else 0


def write_docs(args: argparse.Namespace, results: dict) -> None:
    """The plot, the cost-curve section of --docs and the projection in scale.md beside it (unless --no-docs)."""
    if args.no_docs or not results["points"]:
        return
    docs = args.docs.resolve().parent  # the plot and scale.md beside the page: --docs elsewhere writes all there
    plot(results["points"], docs / PLOT)
    write_section(args.docs, section(results))
    write_section(docs / SCALE_PAGE, projection(results["points"]), PROJECTION_BEGIN, PROJECTION_END)
    print(f"[scale] wrote {docs / PLOT}, the cost-curve section of {args.docs} and the projection in "
          f"{docs / SCALE_PAGE}")  # fmt: skip


def point_of(scale: float, measured: dict, folder: Path) -> dict:
    """One point of the curve from a benchmark's results: the figures scale.json names, and per stage its CPU-s,
    wall and peak RSS."""
    stages, peers, full = measured.get("stages", {}), measured.get("peers", {}), measured.get("full_run", {})
    point: dict = {"scale": scale, "arguments": measured["config"]["arguments"]}
    whole = full.get("full") or {}
    point["full_cpu_seconds"] = whole.get("cpu_seconds")
    point["full_wall_seconds"] = whole.get("wall_seconds")
    point["full_peak_rss_bytes"] = whole.get("peak_rss_bytes")
    outputs = full.get("output_dir")
    point["cache_bytes"] = _tree_bytes(Path(outputs) / "cache") if outputs else None
    point["rerun_cpu_seconds"] = (full.get("rerun_k1") or {}).get("cpu_seconds")
    point["rerun_wall_seconds"] = (full.get("rerun_k1") or {}).get("wall_seconds")
    for peer in ("tantivy", "bm25s_numba"):
        theirs = peers.get(peer) or {}
        build, top = report.ours_against(measured, peer)
        prefix = "" if peer == "tantivy" else "numba_"
        point[f"{prefix}ours_build_cpu_seconds"] = build.get("build_cpu_seconds")
        point[f"{prefix}ours_top_k_cpu_ms"] = _ms(top.get("top_k_cpu_seconds"))
        point[f"{peer}_build_cpu_seconds"] = theirs.get("build_cpu_seconds")
        point[f"{peer}_top_k_cpu_ms"] = _ms(theirs.get("top_k_cpu_seconds"))
        point[f"{peer}_peak_rss_bytes"] = theirs.get("peak_rss_through_build_bytes")
    point["index_peak_rss_bytes"] = (stages.get("index") or {}).get("peak_rss_through_build_bytes")
    point["build_cpu_seconds"] = point.pop("ours_build_cpu_seconds")
    point["top_k_cpu_ms"] = point.pop("ours_top_k_cpu_ms")
    point["stages"] = {
        name: {"cpu_seconds": stages[name].get("cpu_seconds"), "wall_seconds": stages[name].get("seconds"),
               "peak_rss_bytes": stages[name].get("peak_rss_bytes")}
        for name in STAGES if name in stages
    }  # fmt: skip
    point["holds"] = {name: stages[name]["holds"] for name in ("index", "rank") if "holds" in stages.get(name, {})}
    point["ratios"] = measured.get("ratios", {})
    point["results"] = str(folder / "results.json")
    return point


def shards_check(folder: Path, shards: int) -> dict:
    """The largest point's last submission built again with `shards` shards, into a folder of its own: whether every
    published run file is byte-identical, and that build's CPU-s and wall time."""
    import yaml  # the driver stays small until its children are done (bench.measure)

    full = folder / "full-run"
    config = yaml.safe_load((full / "runs.yaml").read_text(encoding="utf-8"))
    config["args"]["shards"] = shards
    check = folder / f"shards-{shards}"
    if check.exists():
        shutil.rmtree(check)
    check.mkdir()
    runs_file, outputs = check / "runs.yaml", check / "outputs"
    runs_file.write_text(yaml.safe_dump(config), encoding="utf-8")
    command = [sys.executable, "-m", "luigi", "--module", "workflows", "FullSubmission", "--local-scheduler",
               "--runs-file", str(runs_file), "--argrank-output-dir", str(outputs)]  # fmt: skip
    print(f"[scale] the largest point's submission again with {shards} shards …", flush=True)
    child = run_child(command, check / "luigi.log", REPO, _environment(), sample_tree=True)
    ours = _published(full / "outputs" / "submission")
    theirs = _published(outputs / "submission")
    return {"shards": shards, "returncode": child.returncode, "cpu_seconds": child.cpu_seconds,
            "wall_seconds": child.wall_seconds, "peak_rss_bytes": child.tree_peak_rss_bytes,
            "files": len(ours), "identical": child.returncode == 0 and bool(ours) and ours == theirs}  # fmt: skip


def targets(points: list[dict], shards: dict | None) -> list[dict]:
    """Each target of the cost curve with its figure and PASS or FAIL (NOT MEASURED where a figure is missing)."""
    rows = []
    by_scale = {p["scale"]: p for p in points}
    one, ten = by_scale.get(1.0), by_scale.get(10.0)
    growth = _ratio(ten and ten.get("full_cpu_seconds"), one and one.get("full_cpu_seconds"))
    rows.append(_target("FullSubmission CPU-s at 10× ≤ 12 × at 1×", growth,
                        growth is not None and growth <= FULL_GROWTH_AT_10, f"{growth:.2f}×" if growth else None))
    peak = ten and ten.get("full_peak_rss_bytes")
    rows.append(_target("FullSubmission peak RSS at 10× ≤ 8 GiB", peak, peak is not None and peak <= FULL_PEAK_AT_10,
                        f"{peak / GIB:.2f} GiB" if peak else None))  # fmt: skip
    for p in points:
        for peer, ours in (("tantivy", "top_k_cpu_ms"), ("bm25s_numba", "numba_ours_top_k_cpu_ms")):
            ratio = _ratio(p.get(f"{peer}_top_k_cpu_ms"), p.get(ours))
            rows.append(_target(f"{p['scale']:g}×: top-1000 ≥ 2× faster than {peer.replace('_', '-')}", ratio,
                                ratio is not None and ratio >= TOP_K_VS_PEERS, f"{ratio:.2f}×" if ratio else
                                p.get("bm25s_numba_note")))  # fmt: skip
        ratio = _ratio(p.get("tantivy_build_cpu_seconds"), p.get("build_cpu_seconds"))
        rows.append(_target(f"{p['scale']:g}×: index build ≥ 5× faster than tantivy", ratio,
                            ratio is not None and ratio >= BUILD_VS_TANTIVY,
                            f"{ratio:.2f}×" if ratio else None))  # fmt: skip
    if shards is not None:
        rows.append(_target(f"runs byte-identical with {shards['shards']} shards at the largest point",
                            shards["identical"], shards["identical"], f"{shards['files']} run files"))  # fmt: skip
    return rows


def _target(name: str, value, passed: bool, shown: str | None) -> dict:
    verdict = "NOT MEASURED" if value is None else "PASS" if passed else "FAIL"
    return {"target": name, "figure": shown or "-", "verdict": verdict}


def section(results: dict) -> str:
    """The cost curve as Markdown: a table per point, the targets, the shards check and where memory goes at the
    largest point."""
    points = results["points"]
    lines = [SCALE_BEGIN, "## Cost curve: 1× to 10× args.me (`make bench-scale`)", "",
             "Written by `make bench-scale` (`bench/scale.py`) from `outputs/bench/scale.json`; CPU-seconds are user + "
             "system of the process doing the work, the load average beside each point. Top-1000 is our 50-topic "
             "loop timed beside each peer's in that peer's search process, which loads both indexes and builds "
             "nothing, in rounds alternating with its. The cache is measured after the full run and its re-runs (each "
             "adds the rankings of one k1).", "",
             f"Machine: {report.describe_machine(results['machine']) if results.get('machine') else 'unknown'}.", "",
             "![CPU-seconds and peak memory against corpus size](img/scale.png)", "",
             "| scale | arguments | FullSubmission CPU-s (wall) | peak RSS | cache (after the re-runs) "
             "| re-run after k1 CPU-s | build CPU-s: ours / tantivy / bm25s-numba "
             "| top-1000 CPU ms: ours / tantivy / bm25s-numba | load (start → end) |",
             "|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for p in points:
        lines.append(
            f"| {p['scale']:g}× | {p['arguments']:,} | {_num(p.get('full_cpu_seconds'))} "
            f"({_num(p.get('full_wall_seconds'))}) | {_gib(p.get('full_peak_rss_bytes'))} "
            f"| {_gib(p.get('cache_bytes'))} | {_num(p.get('rerun_cpu_seconds'), 2)} "
            f"| {_num(p.get('build_cpu_seconds'))} / {_num(p.get('tantivy_build_cpu_seconds'))} / "
            f"{_num(p.get('bm25s_numba_build_cpu_seconds'))} | {_num(p.get('top_k_cpu_ms'))} / "
            f"{_num(p.get('tantivy_top_k_cpu_ms'))} / {_num(p.get('bm25s_numba_top_k_cpu_ms'))} "
            f"| {p['load_average']['start'].split()[0]} → {p['load_average']['end'].split()[0]} |"
        )
    lines += ["", "| stage | " + " | ".join(f"{p['scale']:g}×: CPU-s, peak RSS" for p in points) + " |",
              "|---|" + "---|" * len(points)]  # fmt: skip
    for name in STAGES:
        cells = [f"{_num(s.get('cpu_seconds'))}, {_gib(s.get('peak_rss_bytes'))}" if (s := p["stages"].get(name))
                 else "-" for p in points]  # fmt: skip
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines += ["", "| target | figure | |", "|---|---|---|"]
    lines += [f"| {t['target']} | {t['figure']} | {t['verdict']} |" for t in results["targets"]]
    shards = results.get("shards_check")
    if shards and points:
        lines += ["", f"The {points[-1]['scale']:g}× submission built again with `shards: {shards['shards']}` (its "
                  f"last runs file, a fresh output folder): {_num(shards.get('cpu_seconds'))} CPU-s "
                  f"({_num(shards.get('wall_seconds'))} s wall), peak RSS {_gib(shards.get('peak_rss_bytes'))}; its "
                  f"{shards['files']} run files {'byte-identical' if shards['identical'] else 'NOT identical'} to the "
                  "unsharded build's."]  # fmt: skip
    if points and points[-1].get("holds"):
        largest = points[-1]
        lines += ["", f"What holds memory at {largest['scale']:g}× (arrays allocated, largest first; the ranker's "
                  "per-posting cache is filled only where queries reach):", ""]  # fmt: skip
        for stage_name, held in largest["holds"].items():
            largest = sorted(held.items(), key=lambda item: -item[1])[:8]
            top = ", ".join(f"{name} {size / MIB:,.0f} MiB" for name, size in largest)
            lines.append(f"- {stage_name}: {top}")
    for error in results.get("errors", []):
        lines.append(f"\nError: {error}")
    lines.append(SCALE_END)
    return "\n".join(lines) + "\n"


PROJECTED = (30, 100)
GROWING = (("FullSubmission CPU-s", "full_cpu_seconds", 1, "{:,.0f} CPU-s"),
           ("FullSubmission peak RSS", "full_peak_rss_bytes", GIB, "{:,.1f} GiB"),
           ("cache on disk", "cache_bytes", GIB, "{:,.1f} GiB"),
           ("top-1000 × 50 topics", "top_k_cpu_ms", 1, "{:,.0f} CPU ms"))  # fmt: skip


def projection(points: list[dict]) -> str:
    """A power law through the two largest points measured (y = c·xᵏ), for each figure that grows with the corpus,
    extended to 30× and 100× args.me: a projection, stated as such, for docs/scale.md."""
    measured = [p for p in points if p.get("full_cpu_seconds")]
    lines = [PROJECTION_BEGIN, "Measured by `make bench-scale` (`bench/scale.py`), and projected from its two largest "
             "points by a power law through them (exponent k: 1 is linear). A projection, not a measurement.",
             ""]  # fmt: skip
    if len(measured) < 2:
        return "\n".join([*lines, "Fewer than two points were measured: no projection.", PROJECTION_END]) + "\n"
    small, large = measured[-2], measured[-1]
    header = " | ".join(f"{p['scale']:g}× measured" for p in measured)
    lines += [f"| figure | {header} | k | " + " | ".join(f"{x}× projected" for x in PROJECTED) + " |",
              "|---|" + "---|" * (len(measured) + 1 + len(PROJECTED))]  # fmt: skip
    for label, key, unit, shown in GROWING:
        if not (small.get(key) and large.get(key)):
            continue
        k = math.log(large[key] / small[key]) / math.log(large["arguments"] / small["arguments"])
        at = [large[key] * (x * report.FULL_SIZE / large["arguments"]) ** k / unit for x in PROJECTED]
        cells = [shown.format(p[key] / unit) if p.get(key) else "-" for p in measured]
        projected = " | ".join(shown.format(v) for v in at)
        lines.append(f"| {label} | " + " | ".join(cells) + f" | {k:.2f} | {projected} |")
    lines.append(PROJECTION_END)
    return "\n".join(lines) + "\n"


def write_section(page: Path, text: str, begin: str = SCALE_BEGIN, end: str = SCALE_END) -> None:
    """Replace the section of `page` between `begin` and `end` with `text`, or append it."""
    current = page.read_text(encoding="utf-8") if page.is_file() else ""
    atomic_write_text(page, with_section(current, text, begin, end))


def plot(points: list[dict], path: Path) -> None:
    """CPU-seconds (FullSubmission, index build, top-1000; ours and the peers') and peak memory against corpus
    size, both axes logarithmic."""
    plt = lazylibs.matplotlib_pyplot()
    sizes = [p["arguments"] for p in points]
    figure, (cpu, memory) = plt.subplots(1, 2, figsize=(11, 4.2))
    series = (("FullSubmission (args track)", "full_cpu_seconds", 1, "-o"),
              ("index build: argrank", "build_cpu_seconds", 1, "-s"),
              ("index build: tantivy", "tantivy_build_cpu_seconds", 1, "--s"),
              ("index build: bm25s-numba", "bm25s_numba_build_cpu_seconds", 1, ":s"),
              ("top-1000 × 50 topics: argrank", "top_k_cpu_ms", 1e-3, "-^"),
              ("top-1000 × 50 topics: tantivy", "tantivy_top_k_cpu_ms", 1e-3, "--^"),
              ("top-1000 × 50 topics: bm25s-numba", "bm25s_numba_top_k_cpu_ms", 1e-3, ":^"))  # fmt: skip
    for label, key, factor, style in series:
        _line(cpu, sizes, [p.get(key) and p[key] * factor for p in points], label, style)
    cpu.set_ylabel("CPU-seconds")
    for label, key, style in (("FullSubmission (process tree)", "full_peak_rss_bytes", "-o"),
                              ("index build: argrank", "index_peak_rss_bytes", "-s"),
                              ("tantivy build", "tantivy_peak_rss_bytes", "--s"),
                              ("bm25s-numba build", "bm25s_numba_peak_rss_bytes", ":s"),
                              ("cache on disk", "cache_bytes", "-.d")):  # fmt: skip
        _line(memory, sizes, [p.get(key) and p[key] / GIB for p in points], label, style)
    memory.set_ylabel("GiB")
    for axes in (cpu, memory):
        axes.set_xscale("log")
        axes.set_yscale("log")
        axes.set_xlabel("arguments")
        axes.grid(True, which="both", alpha=0.3)
        axes.legend(fontsize=7)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp.png")
    figure.savefig(temporary, dpi=110, metadata={"Software": None})
    plt.close(figure)
    os.replace(temporary, path)


def _line(axes, sizes, values, label, style) -> None:
    kept = [(x, y) for x, y in zip(sizes, values) if y]
    if kept:
        axes.plot(*zip(*kept), style, label=label)


def _published(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*.txt")) if p.is_file()}


def _tree_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def _memory_bytes() -> int:
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])])
    return env


def _ratio(theirs, ours) -> float | None:
    return theirs / ours if theirs and ours else None


def _ms(seconds) -> float | None:
    return None if seconds is None else seconds * 1000


def _num(value, digits: int = 1) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"


def _gib(value) -> str:
    return "-" if value is None else f"{value / GIB:.2f} GiB"


if __name__ == "__main__":
    started = time.time()
    status = main()
    print(f"[scale] {time.time() - started:.0f} s")
    sys.exit(status)
