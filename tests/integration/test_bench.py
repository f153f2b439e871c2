"""`make bench`'s script end to end on a small synthetic corpus, and its verdicts. No timing is asserted:
the figures only have to exist, and a missed target must show as FAIL without failing the run."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:  # bench/ is run from the checkout, not installed
    sys.path.insert(0, str(REPO))

from bench import peers, report  # noqa: E402

STATUSES = {"PASS", "FAIL", "NOT MEASURED"}
# The `bench` extra's peers and the modules each needs: not test dependencies, so measured where installed and
# NOT MEASURED, with the reason, where not.
EXTRA_PEERS = {"bm25s": ("bm25s",), "bm25s_numba": ("bm25s", "numba"), "tantivy": ("tantivy",)}


def installed(modules: tuple[str, ...]) -> bool:
    return all(importlib.util.find_spec(module) is not None for module in modules)


def check_peer(name: str, peer: dict, documents: int) -> None:
    """A measured peer's figures and top-10 agreement: present and sane, never a timing asserted."""
    assert peer["documents"] == documents
    for figure in ("convert", "build", "top_k"):
        assert peer[f"{figure}_seconds"] > 0 and peer[f"{figure}_cpu_seconds"] >= 0, (name, figure)
    assert len(peer["top_k_all_seconds"]) == len(peer["top_k_all_cpu_seconds"]) == 1
    ours = peer["ours_alongside"]  # our loop, timed in the peer's rounds: what the ratios set against its figures
    assert ours["top_k_seconds"] > 0 and len(ours["top_k_all_seconds"]) == 1
    assert peer["peak_rss_through_build_bytes"] > 0
    # Searched in a child of its own, after rounds of each loop that do not count.
    assert len(peer["top_k_warmup_cpu_seconds"]) == len(ours["top_k_warmup_cpu_seconds"]) == peers.WARMUP_ROUNDS
    assert peer["search_process"]["process_cpu_seconds"] > 0 and {"load_ours", "retrieve"} <= set(peer["search_phases"])
    agreement = peer["agreement"]
    assert agreement["topics"] == 50 and 0 <= agreement["identical_top_10_topics"] <= 50
    assert 0 < agreement["mean_overlap_at_10"] <= 1  # the same BM25 up to idf floor and length encoding
    if name == "bm25s_numba":
        assert peer["backend"] == "numba" and peer["compile_build_seconds"] > 0 and peer["compile_retrieve_seconds"] > 0
    if name == "tantivy":
        assert peer["segments"] >= 1 and peer["index_bytes"] > 0


def test_benchmark_runs_end_to_end_on_2000_arguments(tmp_path):
    out = tmp_path / "bench"  # every peer asked for (the default): those not installed must not fail the run
    command = [sys.executable, "-m", "bench.benchmark", "--arguments", "2000", "--repeats", "1",
               "--out", str(out), "--perspective", str(REPO / "data" / "perspective"),
               "--docs", str(tmp_path / "benchmarks.md")]  # fmt: skip
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]

    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert results["errors"] == []
    assert {"machine", "config", "corpus", "stages", "peers", "full_run", "ratios", "targets", "information"} <= set(
        results
    )
    assert results["machine"]["packages"]["numpy"]
    assert results["corpus"]["reused"] is False and Path(results["corpus"]["directory"]).is_dir()

    stages = results["stages"]
    assert set(stages) == {"ingest", "tokenize", "index", "integrity", "rank"}
    checks = stages["integrity"]  # what the cache's damage checks cost, on the outputs of the three stages
    assert checks["files"] >= 3 and checks["bytes"] > 0 and checks["record_cpu_seconds"] > 0
    for stage in (stages[name] for name in ("ingest", "tokenize", "index", "rank")):
        assert stage["seconds"] > 0 and stage["wall_seconds"] >= stage["seconds"] and stage["peak_rss_bytes"] > 0
    assert 0 < stages["ingest"]["arguments"] <= 2000
    assert stages["index"]["documents"] == stages["ingest"]["arguments"]
    assert stages["tokenize"]["tokens_kept"] == stages["index"]["tokens"] > 0
    assert stages["rank"]["topics"] == 50 and stages["rank"]["top_k_seconds"] > 0

    assert stages["tokenize"]["tokens_per_cpu_second"] > 0 and stages["rank"]["top_k_cpu_seconds"] >= 0

    peers_ = results["peers"]
    assert peers_["rank_bm25"]["documents"] == peers_["ours_subset"]["documents"] == stages["index"]["documents"]
    assert peers_["rank_bm25"]["identical"] is True, peers_["rank_bm25"]["topics_mismatched"]
    measured = {name for name, modules in EXTRA_PEERS.items() if installed(modules)}
    for name in EXTRA_PEERS:
        if name in measured:
            check_peer(name, peers_[name], stages["index"]["documents"])
        else:
            assert "not installed" in peers_[name]["skipped"], peers_[name]
    ratios = results["ratios"]
    for name in [*EXTRA_PEERS, "rank_bm25"]:
        for key in ("index_build_speedup", "index_build_cpu_speedup", "top_k_speedup", "top_k_cpu_speedup"):
            assert (ratios[f"{key}_vs_{name}"] is not None) == (name in measured | {"rank_bm25"}), (key, name)

    full = results["full_run"]
    for run in ("full", "rerun_none", "rerun_k1"):
        assert full[run]["returncode"] == 0 and full[run]["wall_seconds"] > 0 and full[run]["peak_rss_bytes"] > 0
        assert full[run]["cpu_seconds"] > 0
    session = full["rerun_in_session"]  # the second call of run_experiment, after the k1 change
    assert 0 < session["cpu_seconds"] == session["rerun_cpu_seconds"] and session["unchanged_cpu_seconds"] > 0
    assert set(full["run_files"]) == {"argrank-bm25.txt", "argrank-bm25-desc.txt"}
    # Three re-runs, each after a change to a k1 no run had used: the figure is the median one by CPU-seconds.
    reruns = full["rerun_k1_all"]
    assert [(run["k1_before"], run["k1_after"]) for run in reruns] == [(1.2, 1.3), (1.3, 1.25), (1.25, 1.35)]
    assert full["rerun_k1"] == sorted(reruns, key=lambda run: run["cpu_seconds"])[1]
    assert (full["k1_before"], full["k1_after"]) == (full["rerun_k1"]["k1_before"], full["rerun_k1"]["k1_after"])
    for run in reruns:
        assert run["returncode"] == 0 and run["cpu_seconds"] > 0
        # A changed ranking parameter recomputes from the ranking on, never the corpus's stages.
        recomputed = {step["step"].split()[0] for step in run["timeline"]}
        assert recomputed and not recomputed & {"ingest", "tokens", "index"}, recomputed
        assert f"k1 {run['k1_after']}" in " ".join(step["step"] for step in run["timeline"]), run["timeline"]

    targets = results["targets"]
    assert len(targets) == 14 and {t["status"] for t in targets} <= STATUSES
    by_name = {t["target"]: t for t in targets}
    fusion = results["fusion"]  # on the shared 2022 Task 2 runs (the default --fusion), 21 runs of 50 topics
    if (REPO.parent / "shared" / "data" / "touche-task2").is_dir():
        assert (fusion["runs"], fusion["topics"], fusion["folds"]) == (21, 50, 5) and fusion["seconds"] > 0
        assert by_name["fuse and tune 21 runs of 50 topics with --cv 5 ≤ 60 s"]["measured"] == fusion["seconds"]
    assert by_name["top-1000 identical to rank-bm25's (same k1, b, ε; ties by doc id)"]["status"] == "PASS"
    for name, label in (("bm25s_numba", "numba backend"), ("tantivy", "tantivy")):
        peer_targets = [t for t in targets if label in t["target"]]
        assert peer_targets and {t["status"] for t in peer_targets} <= (
            {"PASS", "FAIL"} if name in measured else {"NOT MEASURED"}
        ), (name, peer_targets)
    # bm25s's numpy backend has no target: its figures are information, shown where it was measured.
    information = {row["figure"]: row for row in results["information"]}
    numpy_backend = information["50 topics top-1000 against bm25s (numpy backend)"]
    assert (numpy_backend["shown"] != "—") == ("bm25s" in measured), numpy_backend
    assert information["re-run with nothing changed, in a new process"]["shown"].endswith("CPU-s")
    assert all("not the target's 387,740" in t["note"] for t in targets if t["target"].startswith(("Full", "re-run")))
    assert all("judged on CPU-seconds" in t["note"] for t in targets if "faster" in t["target"])
    # The embedded release stands in for the real one here: measured, and said to be below the target's size.
    perspective = [t for t in targets if t["target"].startswith("perspective")]
    assert len(perspective) == 4 and {t["status"] for t in perspective} <= {"PASS", "FAIL"}
    assert all("314 arguments, not the release's 26,335" in t["note"] for t in perspective if "queries" in t["target"])

    markdown = (out / "results.md").read_text(encoding="utf-8")
    assert "## Targets" in markdown and "## Measured, with no target" in markdown and markdown in done.stdout
    page = (tmp_path / "benchmarks.md").read_text(encoding="utf-8")  # --docs: the docs page, whatever the size
    assert page.startswith("# How fast is argrank?") and "## Targets" in page and "2,000 arguments" in page
    assert "(the median of 3 by CPU)" in markdown and "in order (each to a k1 no run had used): 1.2 → 1.3: " in markdown


def test_a_missed_target_is_fail_and_an_unmeasured_one_says_so():
    results = {
        "config": {"arguments": 387_740},
        "stages": {"tokenize": {"tokens_per_second": 5_000_000.0, "tokens_per_cpu_second": 3_000_000.0},
                   "index": {"build_seconds": 1.0, "build_cpu_seconds": 1.0}},
        # Time targets go by CPU-seconds: on the wall clock tantivy's build would be 6× ours, on CPU it is 2×.
        "peers": {"bm25s": {"build_seconds": 10.0, "build_cpu_seconds": 10.0},
                  "tantivy": {"build_seconds": 6.0, "build_cpu_seconds": 2.0}},
        "full_run": {"full": {"wall_seconds": 20.0, "cpu_seconds": 30.0, "peak_rss_bytes": 2**30},
                     "rerun_k1": {"wall_seconds": 1.0, "cpu_seconds": 0.3},
                     "rerun_in_session": {"wall_seconds": 9.0, "seconds": 0.2, "cpu_seconds": 1.2}},
    }  # fmt: skip
    results["ratios"] = report.ratios(results)
    assert results["ratios"]["index_build_speedup_vs_tantivy"] == 6.0
    assert results["ratios"]["index_build_cpu_speedup_vs_tantivy"] == 2.0
    statuses = {t["target"]: t["status"] for t in report.targets(results)}
    assert statuses["tokenization ≥ 4,000,000 index tokens per CPU-second"] == "FAIL"  # 5 M/s on the wall clock
    assert statuses["index build ≥ 5× faster than tantivy's"] == "FAIL"  # 6× on the wall clock
    assert statuses["50 topics top-1000 ≥ 2× faster than bm25s (numba backend)"] == "NOT MEASURED"
    assert statuses["FullSubmission args track ≤ 20 CPU-seconds"] == "FAIL"  # 20 s wall
    assert statuses["FullSubmission args track ≤ 1.5 GiB peak RSS"] == "PASS"
    assert statuses["re-run after changing k1 in a new process ≤ 1.5 CPU-seconds"] == "PASS"
    session = "re-run after changing one ranking parameter in a running Python session (workflows.run.run_experiment)"
    assert statuses[f"{session} ≤ 1% of the full run"] == "FAIL"  # 4% on CPU (1% of the wall clock)
    assert results["ratios"]["rerun_in_session_share_of_full_run"] == 0.01  # its call's seconds, not its process's
    # The retired targets' figures are information: bm25s's index build 10× ours, never judged.
    information = {row["figure"]: row["shown"] for row in report.information(results)}
    assert information["index build against bm25s (numpy backend)"] == "10.00× faster on CPU"
    assert information["index build peak RSS against bm25s's (numpy backend)"] == "—"


def test_the_cost_curve_runs_end_to_end_on_two_small_points(tmp_path):
    """`make bench-scale` on 0.004× and 0.008× args.me: scale.json's points carry the figures the issue names, the
    targets a verdict each, the shards check compares the largest point's runs, and the docs pages and plot are
    written beside --docs (the checkout's own pages untouched)."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "benchmarks.md").write_text("# Benchmarks\n\nmake bench's figures\n", encoding="utf-8")
    (docs / "scale.md").write_text("# Scale\n", encoding="utf-8")
    command = [sys.executable, "-m", "bench.scale", "--scale", "0.004,0.008", "--repeats", "1",
               "--out", str(tmp_path / "scale"), "--docs", str(docs / "benchmarks.md")]  # fmt: skip
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]

    results = json.loads((tmp_path / "scale.json").read_text(encoding="utf-8"))
    assert results["errors"] == [] and [p["scale"] for p in results["points"]] == [0.004, 0.008]
    for point in results["points"]:
        assert point["arguments"] == round(point["scale"] * report.FULL_SIZE)
        assert point["full_cpu_seconds"] > 0 and point["full_peak_rss_bytes"] > 0 and point["cache_bytes"] > 0
        assert point["build_cpu_seconds"] > 0 and point["top_k_cpu_ms"] > 0 and point["rerun_cpu_seconds"] > 0
        assert set(point["stages"]) == {"ingest", "tokenize", "index", "rank"}
        assert point["holds"]["index"]["tokens.codes"] > 0 and point["holds"]["rank"]["index.postings.indices"] > 0
        assert (point["tantivy_top_k_cpu_ms"] is not None) == installed(EXTRA_PEERS["tantivy"])
    assert all(t["verdict"] in STATUSES for t in results["targets"])
    assert results["shards_check"]["identical"] and results["shards_check"]["files"] == 2
    page = (docs / "benchmarks.md").read_text(encoding="utf-8")
    assert page.startswith("# Benchmarks\n\nmake bench's figures\n") and "| 0.008× | 3,102 |" in page
    assert "| FullSubmission CPU-s |" in (docs / "scale.md").read_text(encoding="utf-8")
    assert (docs / "img" / "scale.png").read_bytes()[:4] == b"\x89PNG"
