"""`make bench`: our stages, the peers (bm25s with its numpy and its numba backend, tantivy, rank-bm25) and the
FullSubmission args track on a synthetic args.me-size corpus, and the perspective track's rankings at release size,
with the issue's targets checked.

    python -m bench.benchmark [--arguments 387740] [--seed 0] [--subset 50000]
                              [--peers bm25s,bm25s-numba,tantivy,rank-bm25]
                              [--skip-full-run] [--workers 1] [--shards 1] [--corpus DIR] [--out outputs/bench]
                              [--perspective DIR] [--skip-perspective] [--fusion DIR] [--skip-fusion] [--skip-args] [--docs PATH | --no-docs]

Writes OUT/results.json and OUT/results.md and prints the Markdown; a full run (args.me size, no part skipped,
every peer) also rewrites docs/benchmarks.md, the documentation's one page of measured figures. A missed target is
printed as FAIL and the exit status stays 0; a stage that crashes makes it 1. This driver imports only the standard
library (and argrank.core.atomic): the work runs in child processes (`bench.stages`), so each one's peak RSS is its
own.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import sys
import time
from pathlib import Path

from argrank.core.atomic import atomic_write_text
from bench import report
from bench.formatting import section_of, with_section
from bench.measure import run_child

REPO = Path(__file__).resolve().parent.parent
GENERATOR = REPO / "tools" / "synthetic_argsme.py"
DOCS_PAGE = REPO / "docs" / "benchmarks.md"
PERSPECTIVE_DATA = REPO.parent / "shared" / "data" / "perspective-release-train"  # the real release's training part
FUSION_DATA = REPO.parent / "shared" / "data" / "touche-task2"  # the published 2022 Task 2 runs and their qrels
# Each peer and the modules it needs: one that is missing leaves the peer NOT MEASURED, with the reason.
PEERS = {"bm25s": ("bm25s",), "bm25s-numba": ("bm25s", "numba"), "tantivy": ("tantivy",), "rank-bm25": ("rank_bm25",)}
K1, B = 1.2, 0.75
K1_IN_SESSION = (1.4, 1.45, 1.5)  # three changes in one session: the figure is the median re-run by CPU
# The re-run after one run's k1 changes, three times, each to a value no run has used (so each recomputes the ranking
# and what follows it): the figure is the median by CPU-seconds, as one short process varies from run to run.
K1_CHANGES = (1.3, 1.25, 1.35)
DEPTH = 1000
# What a stage's child reports of itself (bench.stages, Bench.stage), kept apart when two children make one result.
PROCESS_FIELDS = ("phases", "peak_rss_resettable", "startup_peak_rss_bytes", "process_peak_rss_bytes", "wall_seconds",
                  "peak_rss_bytes", "ru_maxrss_bytes", "process_cpu_seconds")  # fmt: skip


class StageFailed(RuntimeError):
    pass


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.benchmark", description=__doc__.split("\n\n")[0])
    parser.add_argument("--arguments", type=int, default=report.FULL_SIZE, help="synthetic corpus size (387,740)")
    parser.add_argument("--seed", type=int, default=0, help="synthetic corpus seed (0)")
    parser.add_argument("--topics", type=int, default=50, help="synthetic topics (50)")
    parser.add_argument("--subset", type=int, default=50_000, help="documents for rank-bm25 and the identity check")
    # Five, as the issue's own measurement of the peers took: our ranker's first two rounds compute the tf factors
    # its queries reach, so of three rounds only one would run at its steady pace.
    parser.add_argument("--repeats", type=int, default=10, help="retrieval timings are the best of this many (10)")
    parser.add_argument(
        "--build-repeats", type=int, default=3, help="our index build and tantivy's are the fastest of this many (3)"
    )
    parser.add_argument(
        "--peers", default=",".join(PEERS), help=f"comma-separated peers to measure: {', '.join(PEERS)} (all)"
    )
    parser.add_argument(
        "--bm25s-form", choices=("ids", "tokens"), default="ids",
        help="bm25s's input: its Tokenized ids + vocab (fastest for it, default) or lists of str",
    )  # fmt: skip
    parser.add_argument("--skip-full-run", action="store_true", help="do not run FullSubmission")
    parser.add_argument("--workers", type=int, default=1, help="Luigi workers for FullSubmission (1, as make run)")
    parser.add_argument("--shards", type=int, default=1, help="the args track's `shards` setting (1)")
    parser.add_argument("--corpus", type=Path, help="an args.me folder (with topics.xml) to use instead of generating")
    parser.add_argument(
        "--perspective", type=Path, default=PERSPECTIVE_DATA,
        help=f"the perspective release to rank ({PERSPECTIVE_DATA}); where it is missing, NOT MEASURED",
    )  # fmt: skip
    parser.add_argument("--skip-perspective", action="store_true", help="do not measure the perspective track")
    parser.add_argument(
        "--fusion", type=Path, default=FUSION_DATA, help="Touché Task 2 data with runs-2022/ and its relevance qrels "
        "for the fusion stage (default ../shared/data/touche-task2)"
    )  # fmt: skip
    parser.add_argument("--skip-fusion", action="store_true", help="do not measure fusion's tuning")
    parser.add_argument(
        "--skip-args", action="store_true",
        help="do not measure the args track (corpus, stages, peers, FullSubmission): the perspective track alone",
    )  # fmt: skip
    parser.add_argument("--out", type=Path, default=REPO / "outputs" / "bench", help="output folder (outputs/bench)")
    docs = parser.add_mutually_exclusive_group()
    docs.add_argument(
        "--docs", type=Path,
        help="write the documentation's page here, whatever the run (default: docs/benchmarks.md after a full run)",
    )  # fmt: skip
    docs.add_argument("--no-docs", action="store_true", help="never write the documentation's page")
    args = parser.parse_args(argv)
    args.peers = [p.strip() for p in args.peers.split(",") if p.strip()]
    unknown = sorted(set(args.peers) - set(PEERS))
    if unknown:
        parser.error(f"unknown peer(s) {', '.join(unknown)} (known: {', '.join(PEERS)})")
    if min(args.arguments, args.subset, args.repeats, args.build_repeats, args.workers, args.shards) < 1:
        parser.error("--arguments, --subset, --repeats, --build-repeats, --workers and --shards must be positive")
    return args


class Bench:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.out = args.out.resolve()
        self.work = self.out / "work"
        self.logs = self.out / "logs"
        self.env = dict(os.environ)
        self.env["PYTHONPATH"] = os.pathsep.join([str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])])
        self.env.update({"DISABLE_TQDM": "1", "HF_HUB_OFFLINE": "1", "PYTHONUNBUFFERED": "1"})
        self.results: dict = {
            "machine": report.machine(),
            "load_average": {"start": _load_average()},
            "config": {
                "arguments": args.arguments, "seed": args.seed, "topics": args.topics, "subset": args.subset,
                "repeats": args.repeats, "peers": args.peers, "bm25s_form": args.bm25s_form, "k1": K1, "b": B,
                "depth": DEPTH, "language": "en", "fields": ["premise"], "workers": args.workers,
                "shards": args.shards, "perspective": None if args.skip_perspective else str(args.perspective),
                "skip_args": args.skip_args,
            },
            "stages": {},
            "peers": {},
            "full_run": {},
            "perspective": {},
            "fusion": {},
            "errors": [],
        }  # fmt: skip

    # ------------------------------------------------------------------------------------------ children

    def stage(self, name: str, params: dict, label: str | None = None) -> dict:
        """Run `bench.stages NAME` in a child; its JSON result plus the child's wall time and peak RSS."""
        label = label or name
        self.work.mkdir(parents=True, exist_ok=True)
        params_path, result_path = self.work / f"{label}.params.json", self.work / f"{label}.result.json"
        params_path.write_text(json.dumps(params, indent=1), encoding="utf-8")
        result_path.unlink(missing_ok=True)
        print(f"[bench] {label} …", flush=True)
        child = run_child(
            [sys.executable, "-m", "bench.stages", name, params_path, result_path],
            self.logs / f"{label}.log", REPO, self.env,
        )  # fmt: skip
        if child.returncode != 0 or not result_path.is_file():
            raise StageFailed(f"{label} failed (exit {child.returncode}); see {self.logs / f'{label}.log'}:\n"
                              + _tail(self.logs / f"{label}.log"))  # fmt: skip
        result = json.loads(result_path.read_text(encoding="utf-8"))
        result["wall_seconds"] = child.wall_seconds
        # The child resets its VmHWM per phase, which the kernel's ru_maxrss follows, so its own record is the peak.
        result["peak_rss_bytes"] = result.get("process_peak_rss_bytes") or child.peak_rss_bytes
        result["ru_maxrss_bytes"] = child.peak_rss_bytes
        result["process_cpu_seconds"] = child.cpu_seconds
        print(f"[bench] {label}: {result.get('seconds', child.wall_seconds):.2f} s", flush=True)
        return result

    # -------------------------------------------------------------------------------------------- steps

    def corpus(self) -> Path:
        """The corpus folder: --corpus as given, else the synthetic one for these parameters, generated once into
        OUT/corpus-<arguments>-<seed>-<topics>/ and reused while the generator's manifest says it is complete."""
        if self.args.corpus:
            directory = self.args.corpus.resolve()
            self.results["corpus"] = {"directory": str(directory), "given": True}
            return directory
        if not GENERATOR.is_file():
            raise StageFailed(f"{GENERATOR.relative_to(REPO)} is missing: no synthetic corpus (use --corpus DIR)")
        directory = self.out / f"corpus-{self.args.arguments}-{self.args.seed}-{self.args.topics}"
        sizes = {"arguments": self.args.arguments, "seed": self.args.seed, "topics": self.args.topics}
        result = self.stage("generate", {"directory": str(directory), **sizes})
        self.results["corpus"] = {"directory": str(directory), **result}
        if result["reused"]:
            print(f"[bench] corpus: reusing {directory} (generated by an earlier run)", flush=True)
        return directory

    def pipeline(self, corpus: Path) -> None:
        w, s = self.work, self.results["stages"]
        s["ingest"] = self.stage("ingest", {"corpus": str(corpus), "out": str(w / "arguments.parquet")})
        s["tokenize"] = self.stage(
            "tokenize",
            {"in": str(w / "arguments.parquet"), "out": str(w / "tokens.parquet"), "language": "en",
             "fields": ["premise"]},
        )  # fmt: skip
        s["index"] = self.stage("index", {"tokens": str(w / "tokens.parquet"), "out": str(w / "index"),
                                          "build_repeats": self.args.build_repeats})  # fmt: skip
        s["integrity"] = self.stage(
            "integrity",
            {"targets": [str(w / name) for name in ("arguments.parquet", "tokens.parquet", "index")],
             "tokens": str(w / "tokens.parquet")},
        )  # fmt: skip
        s["rank"] = self.stage(
            "rank",
            {"index": str(w / "index"), "topics": str(_topics_file(corpus)), "language": "en", "k1": K1, "b": B,
             "depth": DEPTH, "repeats": self.args.repeats, "queries_out": str(w / "queries.json"),
             "top_out": str(w / "ours-top.json")},
        )  # fmt: skip

    def peers(self) -> None:
        w, p = self.work, self.results["peers"]
        common = {"tokens": str(w / "tokens.parquet"), "queries": str(w / "queries.json"), "k1": K1, "b": B,
                  "depth": DEPTH, "repeats": self.args.repeats, "ours_top": str(w / "ours-top.json"),
                  "index": str(w / "index")}  # fmt: skip
        bm25s = {**common, "method": "robertson", "form": self.args.bm25s_form}
        for name, modules in PEERS.items():
            key = name.replace("-", "_")
            missing = [m for m in modules if importlib.util.find_spec(m) is None]
            if name not in self.args.peers:
                p[key] = {"skipped": "not among --peers"}
            elif missing:
                p[key] = {"skipped": f"{', '.join(missing)} not installed: `make bench` installs the bench extra "
                                     "(pip install -e '.[bench]')"}  # fmt: skip
            elif name == "rank-bm25":
                subset = {**common, "subset": self.args.subset}
                p["ours_subset"] = self.stage("ours_subset", {**subset, "rankings_out": str(w / "ours-subset.json")})
                p[key] = self.stage("rank_bm25", {**subset, "ours_rankings": str(w / "ours-subset.json")})
            elif name == "tantivy":
                p[key] = self.searched("tantivy", {**common, "work": str(w), "build_repeats": self.args.build_repeats,
                                                   "index_out": str(w / "tantivy-index")})  # fmt: skip
            else:
                backend = "numba" if name == "bm25s-numba" else "numpy"
                p[key] = self.searched("bm25s", {**bm25s, "backend": backend, "index_out": str(w / f"{key}-index")},
                                       label=key)  # fmt: skip

    def searched(self, name: str, params: dict, label: str | None = None) -> dict:
        """A peer's build stage, then its search stage (`NAME_search`) in a child of its own, which builds nothing
        (bench/README.md: how things are measured): one result, the search child's process figures under
        `search_process`, its phases under `search_phases`. The peer's saved index is removed afterwards."""
        label = label or name
        try:
            built = self.stage(name, params, label)
            found = self.stage(f"{name}_search", params, f"{label}_search")
        finally:
            shutil.rmtree(params["index_out"], ignore_errors=True)
        process = {field: found.pop(field) for field in PROCESS_FIELDS if field in found}
        return {**built, **found, "search_process": process, "search_phases": process.pop("phases", {})}

    def full_run(self, corpus: Path) -> None:
        full = self.results["full_run"]
        if self.args.skip_full_run:
            full["skipped"] = "--skip-full-run"
            return
        folder = self.out / "full-run"
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        runs_file, outputs = folder / "runs.yaml", folder / "outputs"
        full.update({"runs_file": str(runs_file), "output_dir": str(outputs)})
        runs_file.write_text(_runs_yaml(corpus, K1, self.args.shards), encoding="utf-8")
        full["full"] = self.luigi("full", runs_file, outputs)
        full["rerun_none"] = self.luigi("rerun-none", runs_file, outputs)
        reruns, before = [], K1
        for k1 in K1_CHANGES:
            runs_file.write_text(_runs_yaml(corpus, k1, self.args.shards), encoding="utf-8")
            reruns.append({**self.luigi(f"rerun-k1-{k1}", runs_file, outputs), "k1_before": before, "k1_after": k1})
            before = k1
        full["rerun_k1_all"] = reruns
        full["rerun_k1"] = sorted(reruns, key=lambda run: run["cpu_seconds"])[len(reruns) // 2]
        full["k1_before"], full["k1_after"] = full["rerun_k1"]["k1_before"], full["rerun_k1"]["k1_after"]
        changed = [_runs_yaml(corpus, k1, self.args.shards) for k1 in K1_IN_SESSION]
        session = {"runs_file": str(runs_file), "outputs": str(outputs), "changed": changed, "workers": self.args.workers}
        full["rerun_in_session"] = self.stage("session_rerun", session)
        median = full["rerun_in_session"]["median"]
        full["k1_session_before"] = ([before, *K1_IN_SESSION])[median]
        full["k1_in_session"], full["k1_session_all"] = K1_IN_SESSION[median], list(K1_IN_SESSION)
        submission = outputs / "submission" / "args"
        full["run_files"] = {p.name: sum(1 for _ in p.open(encoding="utf-8")) for p in sorted(submission.glob("*.txt"))}

    def perspective(self) -> None:
        """The perspective stage on the release, or why it is not measured (skipped, or no release there)."""
        result = self.results["perspective"]
        if self.args.skip_perspective:
            result["skipped"] = "--skip-perspective"
            return
        data = self.args.perspective.resolve()
        result["data"] = str(data)
        if not data.is_dir():
            result["skipped"] = f"no release at {data} (--perspective DIR)"
            return
        params = {"data": str(data), "queries": report.PERSPECTIVE_QUERIES, "depth": DEPTH}
        result.update(self.stage("perspective", params))

    def fusion(self) -> None:
        """The fusion stage on the published 2022 Task 2 runs, or why it is not measured."""
        result = self.results["fusion"]
        if self.args.skip_fusion:
            result["skipped"] = "--skip-fusion"
            return
        data = self.args.fusion.resolve()
        qrels = data / "touche-task2-2022-relevance.qrels"
        if not (data / "runs-2022").is_dir() or not qrels.is_file():
            result["skipped"] = f"no runs-2022/ and relevance qrels at {data} (--fusion DIR)"
            return
        params = {"runs": sorted(str(p) for p in (data / "runs-2022").glob("*.txt")), "qrels": str(qrels),
                  "copies": report.FUSION_RUNS, "folds": 5, "seed": 0}  # fmt: skip
        result.update(self.stage("fusion", params))

    def luigi(self, label: str, runs_file: Path, outputs: Path) -> dict:
        command = [sys.executable, "-m", "luigi", "--module", "workflows", "FullSubmission", "--local-scheduler",
                   "--workers", self.args.workers, "--runs-file", runs_file, "--argrank-output-dir", outputs]  # fmt: skip
        print(f"[bench] FullSubmission {label} …", flush=True)
        started = time.time()
        child = run_child(command, self.logs / f"luigi-{label}.log", REPO, self.env, sample_tree=True)
        # The target's figure is the process tree's: with several workers their processes add up.
        result = {"wall_seconds": child.wall_seconds, "peak_rss_bytes": child.tree_peak_rss_bytes,
                  "largest_process_peak_rss_bytes": child.peak_rss_bytes, "returncode": child.returncode,
                  "cpu_seconds": child.cpu_seconds,
                  "command": " ".join(map(str, command))}  # fmt: skip
        print(f"[bench] FullSubmission {label}: {child.wall_seconds:.1f} s, exit {child.returncode}", flush=True)
        if child.returncode != 0:
            raise StageFailed(f"FullSubmission {label} failed (exit {child.returncode}); see "
                              f"{self.logs / f'luigi-{label}.log'}:\n" + _tail(self.logs / f"luigi-{label}.log"))  # fmt: skip
        result["timeline"] = _timeline(outputs, started)
        return result

    # --------------------------------------------------------------------------------------------- run

    def args_track(self) -> None:
        if self.args.skip_args:
            self.results["full_run"]["skipped"] = "--skip-args"
            return
        corpus = self.corpus()
        self.pipeline(corpus)
        self.peers()
        self.full_run(corpus)

    def run(self) -> int:
        for folder in (self.work, self.logs):
            if folder.exists():
                shutil.rmtree(folder)
        status = 0
        # The tracks fail apart: a crash in one still leaves the other's figures.
        for part in (self.args_track, self.perspective, self.fusion):
            try:
                part()
            except StageFailed as error:
                print(f"[bench] ERROR: {error}", file=sys.stderr, flush=True)
                self.results["errors"].append(str(error).splitlines()[0])
                status = 1
        self.results["load_average"]["end"] = _load_average()
        self.results["ratios"] = report.ratios(self.results)
        self.results["targets"] = report.targets(self.results)
        self.results["information"] = report.information(self.results)
        text = report.markdown(self.results)
        atomic_write_text(self.out / "results.json", json.dumps(self.results, indent=1) + "\n")
        atomic_write_text(self.out / "results.md", text)
        print()
        print(text)
        print(f"[bench] wrote {self.out / 'results.json'} and {self.out / 'results.md'}")
        self.write_docs(status)
        return status

    def is_full(self) -> bool:
        """Whether this run measured everything at the size the targets are stated for: only such a run may replace
        the documentation's figures unasked."""
        a = self.args
        return (a.arguments == report.FULL_SIZE and a.corpus is None and a.peers == list(PEERS)
                and not (a.skip_full_run or a.skip_args or a.skip_perspective or a.skip_fusion))  # fmt: skip

    def write_docs(self, status: int) -> None:
        """docs/benchmarks.md from this run's results: after a full run that did not crash, or wherever --docs says."""
        path = self.args.docs
        if path is None and not self.args.no_docs:
            if self.is_full() and status == 0:
                path = DOCS_PAGE
            else:
                print(f"[bench] {DOCS_PAGE.relative_to(REPO)} left as it is: not a full run (--docs PATH writes it)")
        if path is not None:  # the cost curve's section, which `make bench-scale` writes, is kept
            kept = section_of(path.read_text(encoding="utf-8")) if path.is_file() else ""
            atomic_write_text(path, with_section(report.docs_page(self.results), kept))
            print(f"[bench] wrote {path}")


# ------------------------------------------------------------------------------------------------- helpers


def _load_average() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def _tail(path: Path, lines: int = 25) -> str:
    try:
        return "\n".join(path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


def _topics_file(corpus: Path) -> Path:
    topics = corpus / "topics.xml"
    if not topics.is_file():
        raise StageFailed(f"no topics.xml in {corpus}")
    return topics


def _runs_yaml(corpus: Path, k1: float, shards: int = 1) -> str:
    """The runs file: runs.yaml's args section on the synthetic corpus, no qrels, two BM25 runs (the first one's k1
    is the parameter the re-run changes)."""
    return f"""# Written by bench/benchmark.py: the args track of runs.yaml on the benchmark's corpus, without qrels.
submission: true
args:
  corpus: {json.dumps(str(corpus))}
  topics: {json.dumps(str(_topics_file(corpus)))}
  language: en
  fields: [premise]
  depth: {DEPTH}{f"{chr(10)}  shards: {shards}" if shards > 1 else ""}
  runs:
    argrank-bm25:
      method: bm25
      params: {{k1: {k1}, b: {B}}}
      query: title
    argrank-bm25-desc:
      method: bm25
      params: {{k1: {K1}, b: {B}}}
      query: title+description
"""


def _timeline(outputs: Path, started: float) -> list[dict]:
    """Each cache step's completion (its newest file's modification time) in order, and the time since the last."""
    done: dict[str, float] = {}
    cache = outputs / "cache"
    for path in cache.rglob("*"):
        relative = path.relative_to(cache)
        if path.is_file() and not any(part.startswith(".") for part in relative.parts) and path.stat().st_mtime >= started:
            # cache/<track>/<stage>/<target>[/file]: one step per target
            step = "/".join(relative.parts[1:3]) if len(relative.parts) > 3 else "/".join(relative.parts[1:])
            done[step] = max(done.get(step, 0.0), path.stat().st_mtime)
    submission = [p.stat().st_mtime for p in (outputs / "submission").rglob("*") if p.is_file()]
    submission = [at for at in submission if at >= started]
    if submission:
        done["publish"] = max(submission)
    timeline, previous = [], started
    for step, at in sorted(done.items(), key=lambda item: item[1]):
        timeline.append({"step": _short(step), "at": at - started, "took": at - previous})
        previous = at
    return timeline


def _short(step: str) -> str:
    """A cache target's name without its long parameter list: stage, method and query where they say them."""
    stage, _, name = step.partition("/")
    if not name:
        return stage
    keys = [part for part in name.split("-") if part.startswith(("method=", "query=", "params="))]
    detail = ", ".join(k.replace("params=", "").replace("_", " ").strip() for k in keys)
    return f"{stage} ({detail})" if detail else stage


def main(argv: list[str] | None = None) -> int:
    return Bench(parse_args(argv)).run()


if __name__ == "__main__":
    sys.exit(main())
