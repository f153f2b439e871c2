"""`argrank compare --participants DIR`: a run of ours (here a fusion of the year's runs) placed among the
published runs of Touché 2021 (Elrond's, Task 1) and 2022 (Task 2, also as the organizers lay them out), with
intervals and tests against each on every measure, stance F1 beside them, as text, JSON, CSV, LaTeX and Markdown."""

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
    assert text.returncode == 0 and f"{len(rows)} runs ranked by nDCG@5" in text.stdout and "mine (ours)" in text.stdout
    assert "*" not in text.stdout  # * marks in-sample figures only


def test_every_measure_and_stance_f1_among_the_organizers_layout(shared_data, organizers_runs, tmp_path):
    task2 = shared_data / "touche-task2"
    qrels, stance = str(task2 / "touche-task2-2022-relevance.qrels"), str(task2 / "touche-task2-2022-stance.qrels")
    mine = tmp_path / "mine.txt"
    shutil.copy(task2 / "runs-2022" / "Grimjack-run3.txt", mine)
    options = ["compare", "--track", "comparative", "--run", str(mine), "--participants", str(organizers_runs),
               "--qrels", qrels, "--measure", "nDCG@5", "--measure", "P@5", "--stance-qrels", stance]  # fmt: skip
    done = argrank(*options, "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["measures"] == ["nDCG@5", "P@5", "stance_f1"] and result["measure"] == "nDCG@5"
    rows = {row["run"]: row for row in result["standings"]}
    assert set(rows) == {"mine", "Aldo-Nadi/run3", "Asuna/run1", "Captain-Tempesta/run1", "Grimjack/run1",
                         "Grimjack/run3", "Katana/run1", "Puss-in-Boots/run1"}  # fmt: skip
    # The organizers' figures (shared/README.md): relevance nDCG@5 and pooled stance macro-F1.
    for run, ndcg, f1 in (("Puss-in-Boots/run1", 0.4687, 0.1584), ("Grimjack/run1", 0.3761, 0.2071),
                          ("Asuna/run1", 0.2626, 0.1056), ("Aldo-Nadi/run3", 0.6954, None)):  # fmt: skip
        figures = rows[run]["by_measure"]
        assert round(figures["nDCG@5"]["mean"], 4) == ndcg and rows[run]["mean"] == figures["nDCG@5"]["mean"]
        assert (figures["stance_f1"]["mean"] is None) if f1 is None else round(figures["stance_f1"]["mean"], 4) == f1
    katana_file = organizers_runs / "Katana" / "output" / "run1.txt"
    alone = json.loads(argrank("evaluate", "--track", "comparative", "--run", str(katana_file), "--qrels", qrels,
                               "--measure", "P@5", "--json").stdout)  # fmt: skip
    katana = rows["Katana/run1"]["by_measure"]["P@5"]
    assert katana["mean"] == alone["P@5"] and set(katana["against"]["mine"]) >= {"difference", "p_corrected", "reject"}
    assert rows["Grimjack/run3"]["by_measure"]["P@5"]["against"]["mine"]["identical"]  # our copy of it
    text = argrank(*options)
    assert "P@5" in text.stdout and "stance_f1" in text.stdout and "mine vs it, P@5 (p)" in text.stdout
    csv = argrank(*options, "--csv", "-").stdout.splitlines()
    assert csv[0] == ("rank,run,ours,measure,mean,ci_low,ci_high,against,difference,p,p_corrected,reject,wins,ties,"
                      "losses")
    assert len(csv) == 1 + 8 * 3  # every run on each of the three figures
    markdown = argrank(*options, "--markdown", "-", "--decimals", "3").stdout
    assert markdown.startswith("Table: Runs ranked by nDCG@5: mean over 50 topics") and ".qrels" not in markdown
    assert "| mine (ours) | 0.422 |" in markdown and "| Grimjack/run1 | 0.376 |" in markdown


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
    for option in (["--perquery"], ["--pairs", "all"], ["--reference", str(clash)], ["--baseline", "Katana-run1"]):
        done = argrank(*options, "--run", str(clash), "--participants", str(folder), *option)
        assert done.returncode == 2 and "--participants tests each of your runs against every participant's" in \
               done.stderr and "Traceback" not in done.stderr  # fmt: skip
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
    assert "Among the 2 runs of participants-2021" in section
    assert "<td>team-a</td>" in section and "<td>argrank-bm25 (ours)</td>" in section
    assert "Judged@5" in section and "argrank-bm25 vs it, nDCG@5 (p)" in section  # every measure, as the command
    assert section.count("identical") >= 2  # team-a is a copy of our argrank-dirichlet, team-b of bm25-desc
    shutil.copy(published / "argrank-bm25.txt", folder / "team-c.txt")  # a new participant's run: a new report
    build(runs_file, outputs)
    assert "Among the 3 runs of participants-2021" in (outputs / "experiments" / "runs" / "report" /
                                                        "index.html").read_text(encoding="utf-8")  # fmt: skip
    shutil.copy(published / "argrank-bm25.txt", folder / "argrank-bm25.txt")
    clash = runs_file.with_name("clash.yaml")  # a file of its own: runs files are read once per process
    clash.write_text(runs_file.read_text())
    with pytest.raises(InputError, match="args.participants: two runs would be named 'argrank-bm25'"):
        load_experiment(clash)
