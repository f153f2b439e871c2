"""`argrank compare --participants DIR`: a run of ours (here a fusion of the year's runs) placed among the
published runs of Touché 2021 (Elrond's, Task 1) and 2022 (Task 2), with intervals and tests against each."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from graph import build, copy_project
from scipy import stats

from argrank.config import load_experiment
from argrank.core.errors import InputError

REPO = Path(__file__).resolve().parents[2]


def argrank(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "workflows.cli", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=600, check=False)  # fmt: skip


def _fused(runs: list[Path], output: Path) -> Path:
    done = argrank("fuse", *(a for run in runs for a in ("--run", str(run))), "--method", "rrf", "--output", str(output))
    assert done.returncode == 0, done.stderr
    return output


@pytest.mark.parametrize("year", ["2021-task1", "2022-task2"])
def test_a_fused_run_among_the_years_participants(shared_data, tmp_path, year):
    if year == "2021-task1":
        folder, qrels = shared_data / "touche-task1" / "runs-2021-elrond", "touche-task1/touche2021-task1-51-100-relevance.qrels"
        track = "args"
    else:
        folder, qrels = shared_data / "touche-task2" / "runs-2022", "touche-task2/touche-task2-2022-relevance.qrels"
        track = "comparative"
    participants = sorted(folder.glob("*.txt"))
    mine = _fused(participants, tmp_path / "mine.txt")
    done = argrank("compare", "--track", track, "--run", str(mine), "--participants", str(folder), "--qrels",
                   str(shared_data / qrels), "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    rows = result["standings"]
    assert result["measure"] == "nDCG@5" and result["ours"] == ["mine"]
    assert sorted(row["run"] for row in rows) == sorted(["mine", *(p.stem for p in participants)])
    assert [row["rank"] for row in rows] == list(range(1, len(rows) + 1))
    assert [row["mean"] for row in rows] == sorted((row["mean"] for row in rows), reverse=True)
    for row in rows:
        assert row["ci_low"] < row["mean"] < row["ci_high"]
        assert row["ours"] == (row["run"] == "mine") and ("against" in row) == (row["run"] != "mine")
    # Each participant's figure is `evaluate`'s, and the test against ours is the paired t-test, Holm-corrected.
    first = next(row for row in rows if not row["ours"])
    alone = json.loads(argrank("evaluate", "--track", track, "--run", str(folder / f"{first['run']}.txt"),
                               "--qrels", str(shared_data / qrels), "--json").stdout)  # fmt: skip
    assert first["mean"] == alone["nDCG@5"]
    ours = json.loads(argrank("evaluate", "--track", track, "--run", str(mine), "--qrels", str(shared_data / qrels),
                              "--json").stdout)  # fmt: skip
    topics = list(ours["per_topic"])
    p = stats.ttest_rel([ours["per_topic"][t]["nDCG@5"] for t in topics],
                        [alone["per_topic"][t]["nDCG@5"] for t in topics]).pvalue  # fmt: skip
    entry = first["against"]["mine"]
    assert entry["p"] == pytest.approx(p) and entry["difference"] == pytest.approx(ours["nDCG@5"] - alone["nDCG@5"])
    assert entry["p_corrected"] >= entry["p"]
    text = argrank("compare", "--track", track, "--run", str(mine), "--participants", str(folder), "--qrels",
                   str(shared_data / qrels))  # fmt: skip
    assert text.returncode == 0 and f"{len(rows)} runs ranked by nDCG@5" in text.stdout and "* mine" in text.stdout


def test_participants_mistakes_are_one_line(shared_data, tmp_path):
    folder = shared_data / "touche-task2" / "runs-2022"
    qrels = str(shared_data / "touche-task2" / "touche-task2-2022-relevance.qrels")
    clash = tmp_path / "Katana-run1.txt"
    shutil.copy(folder / "Katana-run1.txt", clash)
    options = ["compare", "--track", "comparative", "--qrels", qrels]
    done = argrank(*options, "--run", str(clash), "--participants", str(folder))
    assert done.returncode == 2 and "two runs would be named 'Katana-run1'" in done.stderr
    done = argrank(*options, "--run", str(clash), "--participants", str(tmp_path / "none"))
    assert done.returncode == 2 and "not a folder of run files" in done.stderr
    done = argrank(*options, "--run", str(clash), "--participants", str(folder), "--latex", "t.tex")
    assert done.returncode == 2 and "--participants prints the standings" in done.stderr
    done = argrank("compare", "--track", "perspective", "--participants", str(folder))
    assert done.returncode == 2 and "--participants does not apply to --track perspective" in done.stderr


def test_the_report_places_the_runs_among_the_participants_of_participants(tmp_path):
    runs_file, outputs = copy_project(tmp_path, "args")
    build(runs_file, outputs)
    published = outputs / "experiments" / "runs" / "args"
    folder = tmp_path / "participants-2021"
    folder.mkdir()
    for team, tag in (("team-a", "argrank-dirichlet"), ("team-b", "argrank-bm25-desc")):  # other teams' runs
        shutil.copy(published / f"{tag}.txt", folder / f"{team}.txt")
    config = yaml.safe_load(runs_file.read_text())
    config["args"]["participants"] = str(folder)
    runs_file.write_text(yaml.safe_dump(config))
    build(runs_file, outputs)  # the report again: its signature holds the participants' runs
    page = (outputs / "experiments" / "runs" / "report" / "index.html").read_text(encoding="utf-8")
    section = page[page.index("among the participants"):]
    section = section[:section.index("</table>")]
    assert "among the 2 runs of participants-2021" in section
    assert "<td>team-a</td>" in section and "<b>argrank-bm25</b> (ours)" in section
    assert section.count("identical") >= 2  # team-a is a copy of our argrank-dirichlet, team-b of bm25-desc
    shutil.copy(published / "argrank-bm25.txt", folder / "team-c.txt")  # a new participant's run: a new report
    build(runs_file, outputs)
    assert "among the 3 runs of participants-2021" in (outputs / "experiments" / "runs" / "report" /
                                                        "index.html").read_text(encoding="utf-8")  # fmt: skip
    shutil.copy(published / "argrank-bm25.txt", folder / "argrank-bm25.txt")
    clash = runs_file.with_name("clash.yaml")  # a file of its own: runs files are read once per process
    clash.write_text(runs_file.read_text())
    with pytest.raises(InputError, match="args.participants: two runs would be named 'argrank-bm25'"):
        load_experiment(clash)
