"""`argrank compare --reference RUN`: how far each run is from a published run, as repro_eval measures it
(Kendall's tau Union, RBO, RMSE, effect ratio, delta RI), on the real 2022 Task 2 runs; as text, JSON, and as a
paper's table beside the comparison's (--latex, --markdown)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from repro_eval.measure.document_order import KTU, RBO
from repro_eval.measure.overall_effects import ER

from argrank.formats.runfile import read_run

REPO = Path(__file__).resolve().parents[2]


def argrank(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "workflows.cli", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=600, check=False)  # fmt: skip


def _nested(path: Path) -> dict:
    run: dict = {}
    for line in read_run(path):
        run.setdefault(line.qid, {})[line.doc] = line.score
    return run


def test_each_run_against_the_published_reference(shared_data):
    task2 = shared_data / "touche-task2"
    runs = task2 / "runs-2022"
    qrels = str(task2 / "touche-task2-2022-relevance.qrels")
    common = ["compare", "--track", "comparative", "--qrels", qrels, "--measure", "nDCG@5",
              "--run", str(runs / "Katana-run1.txt"), "--run", str(runs / "Grimjack-run3.txt"),
              "--baseline", "Katana-run1", "--reference", str(runs / "Grimjack-run1.txt")]  # fmt: skip
    done = argrank(*common, "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    figures = result["reproducibility"]["Grimjack-run3"]
    assert set(result["reproducibility"]) == {"Grimjack-run3"}  # the baseline is not judged against the reference
    original, reproduced = _nested(runs / "Grimjack-run1.txt"), _nested(runs / "Grimjack-run3.txt")
    assert figures["ktu"] == pytest.approx(KTU(original, reproduced), abs=1e-12)
    assert figures["rbo"] == pytest.approx(RBO(original, reproduced, p=0.95, depth=1000, pbar=False,
                                               per_topic=False), abs=1e-12)  # fmt: skip
    scores = {}
    for name in ("Grimjack-run1", "Grimjack-run3", "Katana-run1"):
        alone = argrank("evaluate", "--track", "comparative", "--run", str(runs / f"{name}.txt"), "--qrels", qrels,
                        "--measure", "nDCG@5", "--json")  # fmt: skip
        scores[name] = json.loads(alone.stdout)["per_topic"]
    expected = ER(scores["Grimjack-run1"], scores["Katana-run1"], scores["Grimjack-run3"], scores["Katana-run1"])
    assert figures["er"]["nDCG@5"] == pytest.approx(expected["nDCG@5"], abs=1e-12)
    text = argrank(*common)
    assert text.returncode == 0 and "against the reference" in text.stdout and "KTU" in text.stdout
    markdown = argrank(*common, "--markdown", "-", "--decimals", "3")
    assert markdown.returncode == 0, markdown.stderr
    tables = markdown.stdout.split("Table: ")
    assert len(tables) == 3 and tables[1].startswith("Mean over 50 topics")  # the comparison's, then this one
    assert tables[2].startswith("Against the original run: Kendall's tau Union (KTU)") and ".txt" not in tables[2]
    assert "| run | KTU | RBO | RMSE nDCG@5 | ER nDCG@5 | dRI nDCG@5 |" in tables[2]
    row = next(line for line in tables[2].splitlines() if line.startswith("| Grimjack-run3 |"))
    assert row.split(" | ")[1:3] == [f"{figures['ktu']:.3f}", f"{figures['rbo']:.3f}"]
    alone = argrank(*common[:-2], "--reference-baseline", str(runs / "Katana-run1.txt"))
    assert alone.returncode == 2 and "--reference-baseline needs --reference" in alone.stderr
