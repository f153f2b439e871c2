"""`argrank compare` as a user runs it: on an experiment the graph published, on two experiments, on run files."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import yaml
from graph import REPO, build, copy_project


TESTED = ("mean", "difference", "p", "p_corrected", "reject", "wins", "ties", "losses")


def argrank(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "workflows.cli", *args], cwd=REPO, capture_output=True, text=True)


def test_compare_an_experiments_runs_two_experiments_and_run_files(tmp_path):
    runs_file, outputs = copy_project(tmp_path, "args", "comparative")
    build(runs_file, outputs)
    common = ["--runs-file", str(runs_file), "--outputs", str(outputs)]

    done = argrank("compare", "--track", "args", "--baseline", "argrank-bm25", "--json", *common)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert {"track", "qrels", "baseline", "measures", "runs"} <= set(result)
    assert (result["track"], result["qrels"], result["baseline"]) == ("args", "relevance", "argrank-bm25")
    assert result["measures"] == ["nDCG@5", "Judged@5", "condensed-nDCG@5"]
    published = json.loads((outputs / "experiments" / "runs" / "args" / "evaluation.json").read_text())
    for tag, figures in result["runs"].items():
        assert figures["nDCG@5"]["mean"] == published[tag]["relevance"]["nDCG@5"]
        keys = {"mean"} if tag == "argrank-bm25" else set(TESTED)
        assert set(figures["nDCG@5"]) == keys
        if tag != "argrank-bm25":
            assert sum(figures["nDCG@5"][k] for k in ("wins", "ties", "losses")) == result["topics"] == 8

    done = argrank("compare", "--track", "comparative", "--baseline", "argrank-cmp-bm25", "--qrels", "quality", *common)
    assert done.returncode == 0, done.stderr
    assert "comparative / quality" in done.stdout and "stance_f1" in done.stdout

    config = yaml.safe_load(runs_file.read_text())
    sweep = {"experiment": "sweep", "args": {**config["args"], "runs": {"bm25": {"params": {"k1": [0.6, 1.2]}}}}}
    sweep_file = runs_file.with_name("sweep.yaml")
    sweep_file.write_text(yaml.safe_dump(sweep))
    build(sweep_file, outputs)
    run_file = outputs / "submission" / "args" / "argrank-dirichlet.txt"
    done = argrank(
        "compare", "--track", "args", "--baseline", "runs/argrank-bm25", "--measure", "nDCG@10", "--correction",
        "bonferroni", "--runs-file", str(sweep_file), "--run", str(run_file), "--json", *common,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["correction"] == "bonferroni" and result["measures"] == ["nDCG@10"]
    assert list(result["runs"]) == [
        "sweep/bm25-k1_0.6", "sweep/bm25-k1_1.2", "runs/argrank-bm25", "runs/argrank-bm25-desc",
        "runs/argrank-bm25-quality", "runs/argrank-dirichlet", "argrank-dirichlet",
    ]  # fmt: skip
    # The submission's copy of a run is the same file: the same figures.
    assert result["runs"]["argrank-dirichlet"] == result["runs"]["runs/argrank-dirichlet"]


def test_compare_chooses_test_and_baseline_skips_identical_runs_and_writes_per_query_csv(tmp_path):
    runs_file, outputs = copy_project(tmp_path, "args")
    build(runs_file, outputs)
    config = yaml.safe_load(runs_file.read_text())
    config["args"]["baseline"] = "argrank-dirichlet"  # the runs file chooses the baseline
    runs_file.write_text(yaml.safe_dump(config))
    published = outputs / "experiments" / "runs" / "args"
    copy = tmp_path / "copy.txt"
    copy.write_text((published / "argrank-dirichlet.txt").read_text())
    common = ["--runs-file", str(runs_file), "--outputs", str(outputs), "--run", str(copy)]

    done = argrank("compare", "--test", "wilcoxon", "--json", *common)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert (result["baseline"], result["test"]) == ("argrank-dirichlet", "wilcoxon")
    same = result["runs"]["copy"]["nDCG@5"]
    assert same["identical"] is True and same["p"] is None and same["reject"] is False
    tested = [result["runs"][tag]["nDCG@5"] for tag in ("argrank-bm25", "argrank-bm25-desc", "argrank-bm25-quality")]
    raw = sorted(entry["p"] for entry in tested)
    assert max(entry["p_corrected"] for entry in tested) == pytest.approx(min(1.0, max(raw[0] * 3, raw[1] * 2, raw[2])))

    done = argrank("compare", "--perquery", "--measure", "P@10", "--csv", "-", *common)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "run,topic,measure,value" and len(lines) == 1 + 5 * 8  # five runs × eight topics
    assert lines[1].startswith("argrank-bm25,1,P@10,")

    summary = tmp_path / "summary.csv"
    done = argrank("compare", "--csv", str(summary), *common)
    assert done.returncode == 0, done.stderr
    assert "baseline argrank-dirichlet" in done.stdout and "identical" in done.stdout
    rows = summary.read_text().splitlines()
    assert rows[0] == "run,measure,baseline,mean,difference,p,p_corrected,reject,wins,ties,losses"
    assert any(row.startswith("argrank-dirichlet,nDCG@5,true,") for row in rows)


def test_compare_names_what_is_missing(tmp_path):
    runs_file, outputs = copy_project(tmp_path, "args")
    done = argrank("compare", "--baseline", "argrank-bm25", "--runs-file", str(runs_file), "--outputs", str(outputs))
    assert done.returncode == 2 and "not published: run the experiment" in done.stderr
    build(runs_file, outputs)
    done = argrank("compare", "--baseline", "nope", "--runs-file", str(runs_file), "--outputs", str(outputs))
    assert done.returncode == 2 and "no run tagged 'nope'" in done.stderr


def test_compare_perspective_experiments_per_judged_scenario(tmp_path):
    runs_file, outputs = copy_project(tmp_path, "perspective")
    build(runs_file, outputs)
    config = yaml.safe_load(runs_file.read_text())
    other = {"experiment": "no-feedback", "perspective": {**config["perspective"], "params": {"feedback": 0}}}
    other_file = runs_file.with_name("no-feedback.yaml")
    other_file.write_text(yaml.safe_dump(other))
    build(other_file, outputs)
    done = argrank(
        "compare", "--track", "perspective", "--baseline", "runs", "--runs-file", str(runs_file),
        "--runs-file", str(other_file), "--outputs", str(outputs), "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert sorted(result["scenarios"]) == ["baseline/dev", "explicit/dev", "implicit/dev"]  # test splits: unjudged
    baseline = result["scenarios"]["baseline/dev"]
    assert baseline["measures"][:4] == ["nDCG@4", "nDCG@8", "nDCG@16", "nDCG@20"] and "rKL@20" in baseline["measures"]
    published = json.loads((outputs / "experiments" / "runs" / "perspective" / "evaluation.json").read_text())
    assert baseline["runs"]["runs"]["nDCG@4"]["mean"] == pytest.approx(published["baseline/dev"]["nDCG@4"], abs=1e-12)
    assert set(baseline["runs"]["no-feedback"]["nDCG@4"]) - {"identical"} == set(TESTED)
    assert set(baseline["runs"]["no-feedback"]["rKL@4"]) == {"mean"}  # diversity: per variable, not per query
    done = argrank(
        "compare", "--track", "perspective", "--baseline", "runs", "--runs-file", str(runs_file), "--runs-file",
        str(other_file), "--outputs", str(outputs), "--pairs", "all", "--correction", "none", "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    every = json.loads(done.stdout)["scenarios"]["baseline/dev"]
    assert (every["pairs_tested"], every["correction"]) == ("all", "none")
    pair = every["pairs"]["nDCG@4"]["no-feedback"]["runs"]  # two runs: the one pair, uncorrected, is the baseline's
    assert pair == every["runs"]["no-feedback"]["nDCG@4"]["p"] == baseline["runs"]["no-feedback"]["nDCG@4"]["p"]
