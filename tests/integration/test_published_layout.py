"""A year's runs as the organizers publish them (`runs/TEAM/output/runN.txt`, a README beside the team folders),
through every command that reads run files: one name per run everywhere, and no figure that depends on what the
files are called, where they lie or in which order they are given."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from graph import REPO, build, copy_project

TEAMS = ["Aldo-Nadi/run3", "Asuna/run1", "Captain-Tempesta/run1", "Grimjack/run1", "Grimjack/run3", "Katana/run1",
         "Puss-in-Boots/run1"]  # fmt: skip


def argrank(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "workflows.cli", *args], cwd=REPO, capture_output=True, text=True)


def ok(*args: str) -> subprocess.CompletedProcess:
    done = argrank(*args)
    assert done.returncode == 0, done.stderr
    return done


@pytest.fixture(scope="module")
def task2(shared_data: Path) -> dict[str, str]:
    folder = shared_data / "touche-task2"
    return {kind: str(folder / f"touche-task2-2022-{kind}.qrels") for kind in ("relevance", "stance")}


def _run(organizers_runs: Path, name: str) -> str:
    team, run = name.split("/")
    return str(organizers_runs / team / "output" / f"{run}.txt")


def test_evaluate_names_runs_of_one_file_name_by_team(organizers_runs, task2):
    runs = [_run(organizers_runs, name) for name in ("Grimjack/run1", "Asuna/run1")]
    options = ["evaluate", "--track", "comparative", "--qrels", task2["relevance"]]
    table = ok(*options, "--run", runs[0], "--run", runs[1]).stdout
    rows = {line.split()[0]: line.split() for line in table.splitlines()[2:]}
    assert rows["Grimjack/run1"][3] == "0.3761" and rows["Asuna/run1"][3] == "0.2626"  # the shared README's figures
    result = json.loads(ok(*options, "--run", runs[0], "--run", runs[1], "--json").stdout)
    assert [(entry["name"], entry["run"]) for entry in result["results"]] == list(zip(["Grimjack/run1", "Asuna/run1"],
                                                                                      runs))  # fmt: skip
    named = ok(*options, "--run", runs[0], "--run", runs[1], "--name", "gj", "--name", "as").stdout
    assert [line.split()[0] for line in named.splitlines()[2:]] == ["gj", "as"]
    clash = argrank(*options, "--run", runs[0], "--run", runs[1], "--name", "x", "--name", "x")
    assert clash.returncode == 2 and f"two runs would be named 'x': {runs[0]} and {runs[1]}" in clash.stderr


def test_compare_and_participants_name_every_run_and_skip_the_readme(organizers_runs, task2):
    runs = [_run(organizers_runs, name) for name in ("Grimjack/run1", "Asuna/run1")]
    result = json.loads(ok("compare", "--track", "comparative", "--qrels", task2["relevance"], "--run", runs[0],
                           "--run", runs[1], "--json").stdout)  # fmt: skip
    assert list(result["runs"]) == ["Grimjack/run1", "Asuna/run1"]
    mine = str(organizers_runs / "Grimjack" / "output" / "run1.txt")
    done = ok("compare", "--track", "comparative", "--qrels", task2["relevance"], "--run", mine, "--name", "mine",
              "--participants", str(organizers_runs), "--json")  # fmt: skip
    standings = json.loads(done.stdout)["standings"]
    assert sorted(row["run"] for row in standings) == sorted(["mine", *TEAMS])
    assert "2 files skipped, not a run file: Grimjack/notes.txt, README.md" in done.stderr
    best = standings[0]
    assert (best["run"], round(best["mean"], 4)) == ("Aldo-Nadi/run3", 0.6954)


def test_fuse_lists_every_run_by_name_and_finds_the_best_single_run(organizers_runs, task2):
    runs = [option for name in TEAMS for option in ("--run", _run(organizers_runs, name))]
    result = json.loads(ok("fuse", *runs, "--method", "wsum", "--qrels", task2["relevance"], "--optimize", "nDCG@5",
                           "--json").stdout)  # fmt: skip
    assert list(result["runs"]) == TEAMS
    assert (result["best_single"], round(result["best_single_mean"], 4)) == ("Aldo-Nadi/run3", 0.6954)


def test_a_shell_pattern_after_one_run_option_reads_every_run_it_matches(organizers_runs, task2):
    """What a shell makes of `--run runs/*/output/*.txt` (the files after one --run) is the runs given one by one,
    with the names after one --name, in every command that reads run files."""
    matched = sorted(str(path) for path in organizers_runs.glob("*/output/*.txt"))
    assert len(matched) == len(TEAMS)
    one_by_one = [option for path in matched for option in ("--run", path)]
    qrels = ["--track", "comparative", "--qrels", task2["relevance"]]
    for command, names in ((["evaluate", *qrels], lambda result: [entry["name"] for entry in result["results"]]),
                           (["compare", *qrels], lambda result: list(result["runs"])),
                           (["fuse", *qrels[2:], "--method", "wsum", "--optimize", "nDCG@5"],
                            lambda result: result["names"])):  # fmt: skip
        expanded = json.loads(ok(*command, "--run", *matched, "--json").stdout)
        assert expanded == json.loads(ok(*command, *one_by_one, "--json").stdout), command[0]
        assert sorted(names(expanded)) == TEAMS, command[0]
    named = ok("evaluate", "--track", "comparative", "--qrels", task2["relevance"], "--run", *matched[:2], "--name",
               "a", "b").stdout  # fmt: skip
    assert [line.split()[0] for line in named.splitlines()[2:]] == ["a", "b"]


def test_fuse_reads_a_folder_as_every_run_file_under_it(organizers_runs, task2, tmp_path):
    one_by_one = [option for name in TEAMS for option in ("--run", _run(organizers_runs, name))]
    tuned = ["--method", "wsum", "--qrels", task2["relevance"], "--optimize", "nDCG@5", "--json"]
    folder = ok("fuse", "--run", str(organizers_runs), *tuned)
    assert json.loads(folder.stdout) == json.loads(ok("fuse", *one_by_one, *tuned).stdout)
    assert json.loads(folder.stdout)["names"] == TEAMS
    assert "2 files skipped, not a run file: Grimjack/notes.txt, README.md" in folder.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "README.md").write_text("no runs here\n", encoding="utf-8")
    done = argrank("fuse", "--run", str(empty), "--run", _run(organizers_runs, TEAMS[0]))
    assert done.returncode == 2 and done.stderr.strip().splitlines()[-1].endswith(
        f"--run {empty}: no run file in it (1 other files)")


def test_renaming_reordering_or_moving_run_files_changes_no_figure(organizers_runs, task2, tmp_path):
    """The same runs, copied flat under other names in the reverse order and named back with --name: every figure
    of evaluate, compare, the participants' standings and fuse is the same, key by key."""
    moved = tmp_path / "elsewhere"
    moved.mkdir()
    paths, copies = [_run(organizers_runs, name) for name in TEAMS], []
    for number, path in enumerate(reversed(paths)):
        copies.append(str(moved / f"x{number}.trec"))
        shutil.copy(path, copies[-1])
    reversed_names = [option for name in reversed(TEAMS) for option in ("--name", name)]

    def figures(paths: list[str], names: list[str], *command: str) -> dict:
        runs = [option for path in paths for option in ("--run", path)]
        return json.loads(ok(*command, *runs, *names, "--json").stdout)

    evaluate = ["evaluate", "--track", "comparative", "--qrels", task2["relevance"], "--stance-qrels", task2["stance"]]
    before, after = figures(paths, [], *evaluate), figures(copies, reversed_names, *evaluate)
    for part in ("results", "stance"):
        by_name = {entry["name"]: {k: v for k, v in entry.items() if k != "run"} for entry in after[part]}
        assert {entry["name"]: {k: v for k, v in entry.items() if k != "run"} for entry in before[part]} == by_name

    compare = ["compare", "--track", "comparative", "--qrels", task2["relevance"], "--baseline", "Asuna/run1",
               "--measure", "nDCG@5", "--measure", "P@10"]  # fmt: skip
    before, after = figures(paths, [], *compare), figures(copies, reversed_names, *compare)
    assert before["runs"] == after["runs"] and list(before["runs"]) != list(after["runs"])  # reordered, same figures

    fuse = ["fuse", "--method", "wsum", "--qrels", task2["relevance"], "--optimize", "nDCG@5", "--cv", "5"]
    before, after = figures(paths, [], *fuse), figures(copies, reversed_names, *fuse)
    for key in ("in_sample_mean", "cv_mean", "best_single", "best_single_mean", "runs", "per_topic"):
        assert before[key] == after[key], key
    assert dict(zip(TEAMS, before["chosen"]["weights"])) == dict(zip(reversed(TEAMS), after["chosen"]["weights"]))

    participants = ["compare", "--track", "comparative", "--qrels", task2["relevance"], "--participants"]
    mine = str(moved / "x0.trec")  # Puss-in-Boots' run as ours, among the others both times
    before = json.loads(ok(*participants, str(organizers_runs), "--run", mine, "--name", "mine", "--json").stdout)
    flat = tmp_path / "flat"
    flat.mkdir()
    for name, path in zip(TEAMS, paths):
        shutil.copy(path, flat / f"{name.replace('/', '-')}.txt")
    after = json.loads(ok(*participants, str(flat), "--run", mine, "--name", "mine", "--json").stdout)
    renamed = {row["run"].replace("/", "-"): {k: v for k, v in row.items() if k != "run"} for row in before["standings"]}
    assert renamed == {row["run"]: {k: v for k, v in row.items() if k != "run"} for row in after["standings"]}


def test_compare_scores_every_run_on_the_same_topics_whatever_the_order_of_runs_files(tmp_path):
    """Two experiments, one ranking all 8 judged topics and one only 4 of them: each order of the runs files gives
    the same figures, over the 4 topics both rank, and says which topics it left out."""
    runs_file, outputs = copy_project(tmp_path, "args")
    config = yaml.safe_load(runs_file.read_text())
    topics = (tmp_path / "data" / "args" / "topics.xml").read_text()
    blocks = topics.split("<topic>")
    (tmp_path / "data" / "args" / "topics-5-8.xml").write_text("<topic>".join(blocks[:1] + blocks[5:]))
    bm25 = {"bm25": {"method": "bm25", "params": {"k1": 1.2, "b": 0.75}}}
    files = {}
    for name, topics_file in (("all", "data/args/topics.xml"), ("half", "data/args/topics-5-8.xml")):
        files[name] = tmp_path / f"{name}.yaml"
        section = {**config["args"], "topics": topics_file, "runs": bm25}
        section.pop("quality_training", None)
        files[name].write_text(yaml.safe_dump({"experiment": name, "args": section}))
        build(files[name], outputs)
    common = ["compare", "--track", "args", "--outputs", str(outputs), "--measure", "nDCG@5", "--json"]
    first = argrank(*common, "--runs-file", str(files["all"]), "--runs-file", str(files["half"]))
    second = argrank(*common, "--runs-file", str(files["half"]), "--runs-file", str(files["all"]))
    assert first.returncode == second.returncode == 0, first.stderr + second.stderr
    one, two = json.loads(first.stdout), json.loads(second.stdout)
    assert one["topics"] == two["topics"] == 4 and one["topics_dropped"] == two["topics_dropped"] == ["1", "2", "3", "4"]
    assert one["runs"]["all/bm25"]["nDCG@5"]["mean"] == two["runs"]["all/bm25"]["nDCG@5"]["mean"]
    assert one["runs"]["half/bm25"]["nDCG@5"]["mean"] == two["runs"]["half/bm25"]["nDCG@5"]["mean"]
    assert "4 judged topics of" in first.stderr and "left out of every run's scores: 1, 2, 3, 4" in first.stderr

    other = tmp_path / "data" / "args" / "qrels-other.qrels"
    other.write_text((tmp_path / "data" / "args" / "qrels-relevance.qrels").read_text().replace(" 2\n", " 1\n"))
    section = yaml.safe_load(files["half"].read_text())
    section["args"]["qrels"] = {"relevance": "data/args/qrels-other.qrels"}
    files["half"].write_text(yaml.safe_dump(section))
    refused = argrank(*common, "--runs-file", str(files["all"]), "--runs-file", str(files["half"]))
    assert refused.returncode == 2 and "the experiments judge 'relevance' differently" in refused.stderr
