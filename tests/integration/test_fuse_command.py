"""`argrank fuse` as a process on the shared 2022 Task 2 runs laid out as the organizers publish them: every run
shown by its own name, the best single run found, weights chosen inside five folds of topics beating it on the
held-out folds and never scoring below it or equal weights in-sample; a fused run that carries its members' stance
and is stance-scored; no figure that depends on what the files are called or where they lie; each method shows
only its own parameters; mistakes are one line."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TEAMS = ["Aldo-Nadi/run3", "Asuna/run1", "Captain-Tempesta/run1", "Grimjack/run1", "Grimjack/run3", "Katana/run1",
         "Puss-in-Boots/run1"]  # fmt: skip
LABELS = {"FIRST", "SECOND", "NEUTRAL", "NO"}


def argrank(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "workflows.cli", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=600, check=False)  # fmt: skip


def ok(*args: str) -> subprocess.CompletedProcess:
    done = argrank(*args)
    assert done.returncode == 0, done.stderr
    return done


def _runs(folder: Path, names: list[str]) -> list[str]:
    paths = [str(folder / team / "output" / f"{run}.txt") for team, run in (name.split("/") for name in names)]
    return [option for path in paths for option in ("--run", path)]


def _qrels(shared_data: Path, kind: str = "relevance") -> str:
    return str(shared_data / "touche-task2" / f"touche-task2-2022-{kind}.qrels")


def _evaluated(run: Path, *options: str) -> dict:
    return json.loads(ok("evaluate", "--track", "comparative", "--run", str(run), *options, "--json").stdout)


TUNE = ["--method", "wsum", "--norm", "min-max", "--optimize", "nDCG@5", "--cv", "5", "--seed", "0"]


def test_seven_runs_are_named_and_tuned_weights_beat_the_best_single_run(organizers_runs, shared_data, tmp_path):
    runs, qrels, output = _runs(organizers_runs, TEAMS), _qrels(shared_data), tmp_path / "fused.txt"
    report = json.loads(ok("fuse", *runs, "--qrels", qrels, *TUNE, "--output", str(output), "--json").stdout)
    assert report["names"] == TEAMS and list(report["runs"]) == TEAMS
    assert (report["best_single"], round(report["best_single_mean"], 4)) == ("Aldo-Nadi/run3", 0.6954)
    assert report["runs"]["Grimjack/run1"] != report["runs"]["Grimjack/run3"]
    assert report["weights_by_run"] == dict(zip(TEAMS, report["chosen"]["weights"])) == dict(
        zip(TEAMS, report["params"]["weights"]))
    assert len(report["folds"]) == 5 and report["cv_mean"] > report["best_single_mean"]
    assert report["in_sample_mean"] >= max(report["runs"].values())
    assert report["in_sample_mean"] == _evaluated(output, "--qrels", qrels, "--measure", "nDCG@5")["nDCG@5"]
    equal = tmp_path / "equal.txt"
    ok("fuse", *runs, "--method", "wsum", "--output", str(equal))
    assert report["in_sample_mean"] >= _evaluated(equal, "--qrels", qrels, "--measure", "nDCG@5")["nDCG@5"]
    text = ok("fuse", *runs, "--qrels", qrels, *TUNE).stdout.splitlines()
    assert text[0] == "wsum after min-max of 7 runs, 50 topics"
    assert text[1].startswith("weights: Aldo-Nadi/run3 1.0, Asuna/run1 0.0, Captain-Tempesta/run1 ")
    assert "best single run: Aldo-Nadi/run3 0.6954" in text
    assert text[5].startswith("  fold 1 (10 topics): weights: Aldo-Nadi/run3 ") and "; held out " in text[5]


def test_a_fused_task2_run_keeps_its_members_stance(organizers_runs, shared_data, tmp_path):
    stance = _qrels(shared_data, "stance")
    output = tmp_path / "fused.txt"
    voters = ["Grimjack/run1", "Grimjack/run3", "Asuna/run1"]
    report = json.loads(ok("fuse", *_runs(organizers_runs, voters), "--method", "rrf", "--output", str(output),
                           "--json").stdout)  # fmt: skip
    assert report["stance"] == {"voters": voters, "unvoted": 0}
    assert {line.split()[1] for line in output.read_text().splitlines()} <= LABELS
    scored = _evaluated(output, "--stance-qrels", stance)
    assert scored["stance_pairs"] > 1000 and 0 < scored["stance_f1"] < 1
    # Aldo-Nadi's run3 states no stance: its passages Asuna's run1 lacks get NO, and the command counts them.
    mixed = json.loads(ok("fuse", *_runs(organizers_runs, ["Aldo-Nadi/run3", "Asuna/run1"]), "--output",
                          str(tmp_path / "mixed.txt"), "--json").stdout)  # fmt: skip
    assert mixed["stance"]["voters"] == ["run1"] and mixed["stance"]["unvoted"] > 0
    no = [line for line in (tmp_path / "mixed.txt").read_text().splitlines() if line.split()[1] == "NO"]
    assert len(no) == mixed["stance"]["unvoted"]
    plain = tmp_path / "plain.txt"
    done = ok("fuse", *_runs(organizers_runs, ["Aldo-Nadi/run3", "Captain-Tempesta/run1"]), "--output", str(plain))
    assert {line.split()[1] for line in plain.read_text().splitlines()} == {"Q0"} and "stance" not in done.stdout


def test_renaming_or_moving_the_files_changes_no_figure(organizers_runs, shared_data, tmp_path):
    qrels = _qrels(shared_data)
    before = json.loads(ok("fuse", *_runs(organizers_runs, TEAMS), "--qrels", qrels, *TUNE, "--json").stdout)
    moved = []
    for number, name in enumerate(TEAMS):
        moved += ["--run", str(tmp_path / f"x{number}.trec")]
        shutil.copy(organizers_runs / name.split("/")[0] / "output" / f"{name.split('/')[1]}.txt", moved[-1])
    named = json.loads(ok("fuse", *moved, *(o for name in TEAMS for o in ("--name", name)), "--qrels", qrels, *TUNE,
                          "--json").stdout)  # fmt: skip
    assert named == before
    stems = json.loads(ok("fuse", *moved, "--qrels", qrels, *TUNE, "--json").stdout)
    assert stems["names"] == [f"x{number}" for number in range(7)] and stems["best_single"] == "x0"
    for key in ("in_sample_mean", "cv_mean", "per_topic", "best_single_mean", "chosen", "params"):
        assert stems[key] == before[key], key
    assert list(stems["runs"].values()) == list(before["runs"].values())
    assert [fold["chosen"] for fold in stems["folds"]] == [fold["chosen"] for fold in before["folds"]]


def test_each_method_shows_only_its_own_parameters(tmp_path):
    one, two = tmp_path / "a.txt", tmp_path / "b.txt"
    one.write_text("1 Q0 x 1 3.0 a\n1 Q0 y 2 2.0 a\n1 Q0 z 3 1.0 a\n", encoding="utf-8")
    two.write_text("1 Q0 z 1 9.0 b\n1 Q0 y 2 8.0 b\n", encoding="utf-8")
    runs = ["--run", str(one), "--run", str(two)]
    assert ok("fuse", *runs, "--method", "rrf").stdout.splitlines() == ["rrf on ranks of 2 runs, 1 topics", "k: 60"]
    rrf = json.loads(ok("fuse", *runs, "--method", "rrf", "--json").stdout)
    assert rrf["params"] == {"k": 60.0} and rrf["norm"] is None and rrf["names"] == ["a", "b"]
    assert ok("fuse", *runs, "--method", "isr", "--norm", "borda").stdout.splitlines() == [
        "isr after borda of 2 runs, 1 topics"]
    assert ok("fuse", *runs).stdout.splitlines() == ["combsum after min-max of 2 runs, 1 topics"]
    assert json.loads(ok("fuse", *runs, "--json").stdout)["params"] == {}
    wsum = ok("fuse", *runs, "--method", "wsum", "--norm", "rank").stdout.splitlines()
    assert wsum == ["wsum after rank of 2 runs, 1 topics", "weights: a 1.0, b 1.0"]


def test_plain_fusion_writes_a_run_and_mistakes_are_one_line(tmp_path):
    one, two = tmp_path / "a.txt", tmp_path / "b.txt"
    one.write_text("1 Q0 x 1 3.0 a\n1 Q0 y 2 2.0 a\n1 Q0 z 3 1.0 a\n", encoding="utf-8")
    two.write_text("1 Q0 z 1 9.0 b\n1 Q0 y 2 8.0 b\n", encoding="utf-8")
    mixed, qrels = tmp_path / "mixed.txt", tmp_path / "qrels.txt"
    mixed.write_text("1 FIRST z 1 9.0 m\n1 Q0 y 2 8.0 m\n", encoding="utf-8")
    qrels.write_text("1 0 x 1\n1 0 y 0\n", encoding="utf-8")
    output = tmp_path / "fused.txt"
    done = ok("fuse", "--run", str(one), "--run", str(two), "--method", "rrf", "--param", "k=1", "--output",
              str(output), "--json")  # fmt: skip
    assert json.loads(done.stdout)["params"] == {"k": 1.0}
    # rrf with k 1: y 1/3 + 1/3, z 1/4 + 1/2, x 1/2
    assert [line.split()[2] for line in output.read_text().splitlines()] == ["z", "y", "x"]
    for args, problem in [
        (("--run", str(one)), "fusion needs at least two --run files"),
        (("--run", str(one), "--run", str(two), "--cv", "5"), "--qrels and --cv need --optimize"),
        (("--run", str(one), "--run", str(two), "--method", "wsum", "--weights", "1"), "wsum needs one weight per run"),
        (("--run", str(one), "--run", str(two), "--method", "wsum", "--weights", "0,0"), "weights are all 0"),
        (("--run", str(one), "--run", str(tmp_path / "missing.txt")), "missing.txt"),
        (("--run", str(one), "--run", str(two), "--name", "a"), "1 names for 2 run files"),
        (("--run", str(one), "--run", str(two), "--name", "s", "--name", "s"), f"two runs would be named 's': {one}"),
        (("--run", str(one), "--run", str(mixed)), f"--run {mixed}: topic 1, document y: column 2 is 'Q0'"),
        (("--run", str(one), "--run", str(two), "--method", "wsum", "--qrels", str(qrels), "--optimize", "nDCG@5",
          "--cv", "2"), "cross-validation needs 2 to 1 folds of the judged topics, not 2"),
    ]:
        failed = argrank("fuse", *args)
        assert failed.returncode == 2 and problem in failed.stderr and "Traceback" not in failed.stderr, failed.stderr
        assert len([line for line in failed.stderr.splitlines() if "error" in line]) == 1
