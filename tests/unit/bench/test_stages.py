"""The benchmark's perspective part without running it: the synthetic query set of the real counts, the targets'
verdicts and the report's section. The stage itself runs in `make bench` (a few minutes at release size)."""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
if str(REPO) not in sys.path:  # bench/ is run from the checkout, not installed
    sys.path.insert(0, str(REPO))

from argrank.tracks.perspective.data import query_file, read_queries
from bench import report
from bench.benchmark import Bench, parse_args
from bench.stages import release_queries

EMBEDDED = REPO / "data" / "perspective"


def test_release_queries_keeps_file_order_and_cycles_under_fresh_ids():
    baseline = read_queries(query_file(EMBEDDED, "baseline", "train"))
    queries = release_queries(baseline, 2 * len(baseline) + 3)

    assert queries[: len(baseline)] == baseline
    assert [q.text for q in queries] == [q.text for q in baseline] * 2 + [q.text for q in baseline[:3]]
    assert [q.demographic_property for q in queries[len(baseline) :]] == [q.demographic_property for q in queries[:15]]
    assert len({q.query_id for q in queries}) == len(queries)
    assert release_queries(baseline, 5) == baseline[:5]
    assert release_queries([], 10) == []


def scenario(seconds: float, queries: int = report.PERSPECTIVE_QUERIES) -> dict:
    return {"queries": queries, "distinct_texts": 105, "seconds": seconds, "evidence_seconds": seconds / 2,
            "queries_per_second": queries / seconds, "diversity": 0.0, "peak_rss_bytes": report.GIB}  # fmt: skip


def measured(**scenarios: dict) -> dict:
    return {"data": "/release", "documents": 26_376, "issues": 45, "queries": report.PERSPECTIVE_QUERIES,
            "depth": 1000, "train_queries": {"baseline": 105, "perspective": 5_577}, "prepare_seconds": 15.0,
            "ranker_seconds": 2.0, "peak_rss_bytes": 5 * report.GIB, "scenarios": scenarios}  # fmt: skip


def test_perspective_targets_pass_fail_and_size_note():
    perspective = measured(baseline=scenario(6.0), explicit=scenario(61.0), implicit=scenario(30.0, queries=500))
    rows = {row["target"].split(":")[0]: row for row in report.perspective_targets({"perspective": perspective})}

    assert {name: row["status"] for name, row in rows.items()} == {
        "perspective baseline": "PASS",
        "perspective explicit": "FAIL",
        "perspective implicit": "PASS",
        "perspective ranking process ≤ 4 GiB peak RSS": "FAIL",
    }
    assert "not the target's 1,611" in rows["perspective implicit"]["note"]
    assert "not the target's" not in rows["perspective baseline"]["note"]


def test_an_absent_release_is_not_measured_and_says_why(tmp_path):
    bench = Bench(parse_args(["--skip-args", "--perspective", str(tmp_path / "missing"), "--out", str(tmp_path)]))
    bench.perspective()

    rows = report.perspective_targets(bench.results)
    assert len(rows) == 4 and {row["status"] for row in rows} == {"NOT MEASURED"}
    assert all("no release at" in row["note"] for row in rows)
    assert "Not measured (no release at" in "\n".join(report.perspective_markdown(bench.results["perspective"]))


def test_perspective_section_has_a_row_per_scenario():
    perspective = measured(baseline=scenario(6.0), explicit=scenario(10.0), implicit=scenario(40.0))
    lines = report.perspective_markdown(perspective)

    assert "| scenario | queries | seconds | of which evidence | queries/s | peak RSS |" in lines
    assert "| implicit | 1,611 (105 distinct texts) | 40.00 s | 20.00 s | 40 | 1,024 MiB |" in lines
    assert any("Synthetic queries of the real counts" in line for line in lines)
