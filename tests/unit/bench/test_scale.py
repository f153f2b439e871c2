"""bench.scale: a point of the cost curve from a benchmark's results, its targets, the projection and the sections
it writes into the docs pages."""

from __future__ import annotations

import json

import pytest

from bench import scale
from bench.formatting import SCALE_BEGIN, SCALE_END, section_of, with_section
from bench.formatting import GIB


def _results(arguments: int, factor: float) -> dict:
    """A benchmark's results.json, cut to what a point reads, its figures `factor` times a 1× run's."""
    ours_top = {"top_k_cpu_seconds": 0.02 * factor}
    return {
        "config": {"arguments": arguments},
        "stages": {
            "ingest": {"cpu_seconds": 5 * factor, "seconds": 5.5 * factor, "peak_rss_bytes": 0.4 * GIB},
            "index": {"cpu_seconds": 4 * factor, "seconds": 4 * factor, "peak_rss_bytes": 0.8 * GIB,
                      "build_cpu_seconds": 1 * factor, "holds": {"index.postings.indices": 135 * factor}},
            "rank": {"cpu_seconds": 2 * factor, "seconds": 2 * factor, "peak_rss_bytes": 0.5 * GIB, **ours_top},
        },
        "peers": {
            "tantivy": {"build_cpu_seconds": 8 * factor, "top_k_cpu_seconds": 0.05 * factor,
                        "peak_rss_through_build_bytes": GIB, "ours_alongside": ours_top},
            "bm25s_numba": {"build_cpu_seconds": 12 * factor, "top_k_cpu_seconds": 0.03 * factor,
                            "peak_rss_through_build_bytes": 1.5 * GIB, "ours_alongside": ours_top},
        },
        "full_run": {"full": {"cpu_seconds": 15 * factor, "wall_seconds": 16 * factor, "peak_rss_bytes": GIB * factor},
                     "rerun_k1": {"cpu_seconds": 0.8, "wall_seconds": 0.8}},
        "ratios": {},
    }  # fmt: skip


def _point(scale_of: float, factor: float, tmp_path) -> dict:
    point = scale.point_of(scale_of, _results(round(scale_of * 387_740), factor), tmp_path)
    point["load_average"] = {"start": "1.00 1.00 1.00", "end": "1.10 1.00 1.00"}
    return point


def test_a_point_names_the_issues_figures_from_the_benchmarks(tmp_path):
    point = _point(3, 3, tmp_path)
    assert point["arguments"] == 1_163_220 and point["full_cpu_seconds"] == 45
    assert point["build_cpu_seconds"] == 3 and point["tantivy_build_cpu_seconds"] == 24
    assert point["top_k_cpu_ms"] == pytest.approx(60) and point["tantivy_top_k_cpu_ms"] == pytest.approx(150)
    assert point["bm25s_numba_top_k_cpu_ms"] == pytest.approx(90) and point["rerun_cpu_seconds"] == 0.8
    assert point["stages"]["ingest"] == {"cpu_seconds": 15, "wall_seconds": 16.5, "peak_rss_bytes": 0.4 * GIB}
    assert point["holds"]["index"] == {"index.postings.indices": 405}


def test_targets_judge_growth_memory_and_each_points_ratios(tmp_path):
    points = [_point(1, 1, tmp_path), _point(10, 13, tmp_path)]  # 13× the CPU at 10×: growth missed
    verdicts = {t["target"]: (t["figure"], t["verdict"]) for t in scale.targets(points, None)}
    assert verdicts["FullSubmission CPU-s at 10× ≤ 12 × at 1×"] == ("13.00×", "FAIL")
    assert verdicts["FullSubmission peak RSS at 10× ≤ 8 GiB"] == ("13.00 GiB", "FAIL")
    assert verdicts["10×: top-1000 ≥ 2× faster than tantivy"] == ("2.50×", "PASS")
    assert verdicts["10×: top-1000 ≥ 2× faster than bm25s-numba"] == ("1.50×", "FAIL")
    assert verdicts["1×: index build ≥ 5× faster than tantivy"] == ("8.00×", "PASS")
    shards = {"shards": 2, "identical": True, "files": 2}
    assert scale.targets(points[:1], shards)[-1]["verdict"] == "PASS"
    assert scale.targets([], None)[0]["verdict"] == "NOT MEASURED"


def test_the_projection_follows_the_power_law_through_the_two_largest_points(tmp_path):
    points = [_point(1, 1, tmp_path), _point(3, 3, tmp_path), _point(10, 10, tmp_path)]
    text = scale.projection(points)
    row = next(line for line in text.splitlines() if line.startswith("| FullSubmission CPU-s"))
    assert row.split(" | ")[4] == "1.00"  # linear
    assert row.rstrip(" |").endswith("450 CPU-s | 1,500 CPU-s")  # 15 CPU-s a 1× corpus, at 30× and 100×
    assert "no projection" in scale.projection(points[:1])


def test_sections_replace_their_own_markers_only(tmp_path):
    page = tmp_path / "benchmarks.md"
    page.write_text("# Benchmarks\n\nkept\n", encoding="utf-8")
    scale.write_section(page, f"{SCALE_BEGIN}\nfirst\n{SCALE_END}\n")
    scale.write_section(page, f"{SCALE_BEGIN}\nsecond\n{SCALE_END}\n")
    text = page.read_text(encoding="utf-8")
    assert text.startswith("# Benchmarks\n\nkept\n") and "second" in text and "first" not in text
    assert text.count(SCALE_BEGIN) == 1


def test_the_section_and_plot_are_written_from_the_points(tmp_path):
    points = [_point(1, 1, tmp_path), _point(3, 3, tmp_path)]
    machine = {"cpu_model": "AMD EPYC", "cpu_family": "26", "cpu_model_number": "2", "cpu_count": 2, "cpus_usable": 2,
               "cache_bytes": {"L2": 2**20, "L3": None}, "memory_bytes": 24 * GIB}  # fmt: skip
    results = {"points": points, "targets": scale.targets(points, None), "errors": [], "machine": machine}
    text = scale.section(results)
    assert "| 3× | 1,163,220 | 45.0 (48.0) |" in text and "index.postings.indices" in text
    assert "Machine: AMD EPYC (family 26, model 2; L2 1,024 KiB a core), 2 cores (2 usable), 24.0 GiB RAM." in text
    scale.plot(points, tmp_path / "img" / "scale.png")
    assert (tmp_path / "img" / "scale.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_make_bench_keeps_the_cost_curve_section_when_it_rewrites_the_page():
    old = f"# Benchmarks\n\nold figures\n\n{SCALE_BEGIN}\nthe curve\n{SCALE_END}\n"
    kept = section_of(old)
    assert kept == f"{SCALE_BEGIN}\nthe curve\n{SCALE_END}\n"
    new = with_section("# Benchmarks\n\nnew figures\n", kept)
    assert new == f"# Benchmarks\n\nnew figures\n\n{SCALE_BEGIN}\nthe curve\n{SCALE_END}\n"
    assert with_section("# Benchmarks\n", section_of("# no section\n")) == "# Benchmarks\n"


def test_report_only_writes_the_docs_again_from_scale_json_without_measuring(tmp_path):
    points = [_point(1, 1, tmp_path), _point(10, 10, tmp_path)]
    shards = {"shards": 2, "identical": True, "files": 2, "cpu_seconds": 140.0, "wall_seconds": 142.0,
              "peak_rss_bytes": 4 * GIB}  # fmt: skip
    results = {"points": points, "targets": scale.targets(points, shards), "errors": [], "shards_check": shards}
    (tmp_path / "scale.json").write_text(json.dumps(results), encoding="utf-8")
    page = tmp_path / "docs" / "benchmarks.md"
    page.parent.mkdir()
    page.write_text("# Benchmarks\n", encoding="utf-8")
    assert scale.main(["--report-only", "--out", str(tmp_path / "scale"), "--docs", str(page)]) == 0
    text = page.read_text(encoding="utf-8")
    assert "| 10× | 3,877,400 | 150.0 (160.0) |" in text and "built again with `shards: 2`" in text
    assert "byte-identical" in text and (tmp_path / "docs" / "img" / "scale.png").is_file()
    assert "| FullSubmission CPU-s |" in (tmp_path / "docs" / "scale.md").read_text(encoding="utf-8")
    assert not (tmp_path / "scale").exists()  # nothing measured
