"""`argrank quality-benchmark`: the JSON the issue names, on the embedded sample and on Webis-ArgQuality-20, where
the re-ranking must do what it is for; nested folds report held-out figures beside the inner ones and the folds'
spread."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "data" / "quality" / "argquality-sample.csv"
KEYS = {"spearman", "kendall", "length_spearman", "relevance_nDCG@5", "quality_nDCG@5", "bm25_relevance_nDCG@5",
        "bm25_quality_nDCG@5"}  # fmt: skip


def benchmark(*args: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "workflows.cli", "quality-benchmark", *args]
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=600, check=False)


def test_the_embedded_sample_as_json_and_as_tables():
    done = benchmark("--data", str(SAMPLE), "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert KEYS <= set(result) and all(-1 <= result[key] <= 1 for key in KEYS)
    assert result["topics"] == 6 and result["premises"] == 96
    assert result["settings"] == {"depth": 100, "nonargument_penalty": 0.0, "min_words": 0}  # the weight: chosen
    assert set(result["per_topic_nDCG@5"]["reranked"]["quality"]) == {str(t) for t in range(101, 107)}
    assert len(result["folds"]) == 5 and all(fold["weight"] in (0.0, 0.25, 0.5, 0.75, 1.0) for fold in result["folds"])
    assert {"spearman_inner", "spearman_spread", "quality_nDCG@5_inner", "quality_nDCG@5_spread"} <= set(result)
    text = benchmark("--data", str(SAMPLE), "--param", "weight=0", "--folds", "3")
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    assert lines[0] == ("96 premises, 6 topics in 3 folds; each fold scored by what the other folds' topics chose in "
                        "4 inner folds")  # fmt: skip
    # Weight 0 keeps BM25's order: both rows of the ranking table agree.
    bm25, reranked = (line.split()[-2:] for line in lines if line.startswith(("BM25  ", "BM25 + quality")))
    assert bm25 == reranked


def test_bad_settings_and_files_are_one_line():
    done = benchmark("--data", str(SAMPLE), "--param", "weight=2")
    assert done.returncode == 2 and "weight of the quality re-ranking must be a number from 0 to 1" in done.stderr
    done = benchmark("--data", str(REPO / "runs.yaml"))
    assert done.returncode == 2 and "runs.yaml: line 1: header lacks column(s)" in done.stderr
    assert "Traceback" not in done.stderr
    for folds in ("1", "6"):
        done = benchmark("--data", str(SAMPLE), "--folds", folds)
        assert done.returncode == 2 and f"--folds {folds}: expected 2 to 5" in done.stderr
    for repeats in ("0", "21"):
        done = benchmark("--data", str(SAMPLE), "--cv-repeats", repeats)
        assert done.returncode == 2 and f"--cv-repeats {repeats}: expected 1 to 20" in done.stderr


def test_on_webis_argquality20_the_model_beats_length_and_the_reranking_lifts_quality(shared_data):
    done = benchmark("--data", str(shared_data / "touche-task1" / "webis-argquality20-full.csv"), "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["premises"] == 1610 and result["topics"] == 20
    assert result["spearman"] > result["length_spearman"] and result["kendall"] > result["length_kendall"]
    assert result["correlations"]["topics_above_length"] > 10  # most of the 20 held-out topics
    # The re-ranking targets, on held-out folds: quality +0.05 at least, relevance not more than 0.01 below
    # BM25's.
    assert result["quality_nDCG@5"] >= result["bm25_quality_nDCG@5"] + 0.05
    assert result["relevance_nDCG@5"] >= result["bm25_relevance_nDCG@5"] - 0.01
    spread = result["spearman_spread"]
    assert spread["min"] <= result["spearman"] <= spread["max"]
    assert abs(result["spearman_inner"] - result["spearman"]) < 0.05
