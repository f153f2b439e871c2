"""`argrank stance-benchmark`: the JSON keys the issue names, held-out and nested cross-validated scoring in each
set's classes (the inner figure and the folds' spread beside the headline), bad input as one line, and the real
stance sets well above their majority baselines."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
EMBEDDED = REPO / "data" / "comparative-stance" / "stance-train.tsv"
KEYS = {"macro_f1", "accuracy", "per_class", "confusion", "labels", "n_train", "n_test", "train_seconds",
        "predict_per_second", "batch_predict_per_second"}  # fmt: skip
NESTED = {"cv_inner_macro_f1", "cv_inner_accuracy", "cv_spread", "folds", "select_seconds"}
COMPSENT_HEADER = "id,domain,object_a,object_b,sentence,better_count,worse_count,none_count,most_frequent_label"


def benchmark(*args: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "workflows.cli", "stance-benchmark", *args]
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=600, check=False)


def _compsent(path: Path, worse_votes: str = "0,5,0") -> Path:
    rows = [COMPSENT_HEADER]
    for i, (a, b) in enumerate([("tea", "coffee"), ("cats", "dogs"), ("vim", "emacs"), ("rust", "go")] * 3):
        rows += [
            f"A{i},x,{a},{b},{a} is much better than {b}.,5,0,0,BETTER",
            f"B{i},x,{a},{b},{a} is far worse than {b}.,{worse_votes},WORSE",
            f"C{i},x,{a},{b},\"I bought {a}, and {b} too.\",0,0,5,NONE",
        ]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_held_out_scores_a_compsent_file_in_three_classes_and_a_touche_file_in_four(tmp_path):
    compsent = _compsent(tmp_path / "compsent.csv")
    done = benchmark("--train", str(EMBEDDED), "--train", str(compsent), "--test", str(compsent), "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert KEYS <= set(result)
    assert result["labels"] == ["FIRST", "SECOND", "NONE"] and len(result["confusion"]) == 3
    assert result["n_test"] == 36 and result["n_train"] == 400 + 36
    assert sum(map(sum, result["confusion"])) == 36
    assert result["macro_f1"] > 0.9  # trained on these very sentences
    assert "accuracy_by_agreement" not in result  # every annotator agreed on every sentence
    four = benchmark("--train", str(compsent), "--train", str(EMBEDDED), "--test", str(EMBEDDED), "--json")
    assert four.returncode == 0, four.stderr
    result = json.loads(four.stdout)
    assert result["labels"] == ["FIRST", "SECOND", "NEUTRAL", "NO"]
    assert set(result["per_class"]) == set(result["labels"])
    assert sum(c["support"] for c in result["per_class"].values()) == result["n_test"] == 400
    assert {"cv_inner_macro_f1", "choice"} <= set(result) and "folds" not in result


def test_a_compsent_file_whose_annotators_split_gets_its_accuracy_by_their_agreement(tmp_path):
    compsent = _compsent(tmp_path / "compsent.csv", worse_votes="1,3,1")  # WORSE by 3 of 5: agreement 0.6
    done = benchmark("--train", str(EMBEDDED), "--train", str(compsent), "--test", str(compsent), "--json")
    assert done.returncode == 0, done.stderr
    bands = json.loads(done.stdout)["accuracy_by_agreement"]
    assert [(band["band"], band["scored"]) for band in bands] == [("1", 24), ("0.6 to 0.8", 12)]
    assert all(0.0 <= band["accuracy"] <= 1.0 for band in bands)
    text = benchmark("--train", str(EMBEDDED), "--train", str(compsent), "--test", str(compsent))
    assert "  accuracy by the annotators' agreement: 1: " in text.stdout


def test_a_given_c_is_the_fixed_choice_and_a_bad_one_a_usage_error():
    done = benchmark("--train", str(EMBEDDED), "--folds", "2", "--c", "0.7", "--json")
    assert done.returncode == 0, done.stderr
    (result,) = json.loads(done.stdout)
    assert {fold["choice"]["passage"]["c"] for fold in result["folds"]} == {0.7}
    bad = benchmark("--train", str(EMBEDDED), "--c", "0")
    assert bad.returncode == 2 and "--c must be a positive number" in bad.stderr


def test_cross_validation_without_test_prints_each_set_of_the_files_after_one_train_option(tmp_path):
    compsent = _compsent(tmp_path / "compsent.csv")
    done = benchmark("--train", str(EMBEDDED), str(compsent), "--folds", "3")  # as a shell expands --train sets/*
    assert done.returncode == 0, done.stderr
    assert "stance-train.tsv (3-fold): macro-F1" in done.stdout
    assert "compsent.csv (3-fold): macro-F1" in done.stdout
    assert "truth \\ predicted" in done.stdout
    assert done.stdout.count("settings chosen by inner folds, mean over the outer folds: macro-F1") == 2
    assert done.stdout.count("over the 3 outer folds: macro-F1") == 2


def test_cv_repeats_gives_each_draws_figures_beside_the_first_seeds_headline(tmp_path):
    compsent = _compsent(tmp_path / "compsent.csv")
    sets = ["--train", str(EMBEDDED), str(compsent), "--folds", "2"]
    runs = {seed: benchmark(*sets, "--seed", str(seed), "--json") for seed in (3, 4)}
    drawn = benchmark(*sets, "--seed", "3", "--cv-repeats", "2", "--json")
    assert drawn.returncode == 0, drawn.stderr
    alone = {seed: json.loads(done.stdout) for seed, done in runs.items()}
    for position, result in enumerate(json.loads(drawn.stdout)):
        draws = result.pop("cv_repeats")
        assert result == {**alone[3][position], **{k: result[k] for k in ("train_seconds", "select_seconds",
                          "predict_per_second", "batch_predict_per_second")}}  # fmt: skip
        assert draws["seeds"] == [3, 4]
        for measure in ("macro_f1", "accuracy"):
            assert draws[measure] == [alone[3][position][measure], alone[4][position][measure]]
            assert draws[f"mean_{measure}"] == sum(draws[measure]) / 2
            assert draws[f"{measure}_spread"]["min"] == min(draws[measure])
    for bad in (["--cv-repeats", "0"], ["--cv-repeats", "2", "--test", str(compsent)]):
        done = benchmark("--train", str(EMBEDDED), *bad)
        assert done.returncode == 2 and "--cv-repeats" in done.stderr


def test_two_training_files_of_one_name_are_scored_apart_and_one_file_twice_is_refused(tmp_path):
    for folder, rows in (("a", None), ("b", 101)):
        (tmp_path / folder).mkdir()
        lines = EMBEDDED.read_text(encoding="utf-8").splitlines(keepends=True)
        (tmp_path / folder / EMBEDDED.name).write_text("".join(lines[:rows]), encoding="utf-8")
    first, second = str(tmp_path / "a" / EMBEDDED.name), str(tmp_path / "b" / EMBEDDED.name)
    done = benchmark("--train", first, second, "--folds", "2", "--json")
    assert done.returncode == 0, done.stderr
    assert [(result["name"], result["n_test"]) for result in json.loads(done.stdout)] == [
        (f"{first} (2-fold)", 400), (f"{second} (2-fold)", 100)]
    twice = benchmark("--train", first, first)
    assert twice.returncode == 2 and "given twice" in twice.stderr


def test_bad_input_is_one_line_naming_file_and_row(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text(COMPSENT_HEADER + "\nA1,x,tea,coffee,tea is better.,5,0,0,MAYBE\n", encoding="utf-8")
    done = benchmark("--train", str(bad))
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0
    assert str(bad) in done.stderr and "line 2" in done.stderr and "MAYBE" in done.stderr


def test_the_real_sets_cross_validated_beat_their_majority_baselines(shared_data):
    folder = shared_data / "comparative-stance"
    done = benchmark("--train", str(folder / "compsent19-train.csv"), "--train", str(folder / "touche-stance-train.tsv"),
                     "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    compsent, touche = json.loads(done.stdout)
    # Majority baselines: CompSent-19 macro-F1 0.28, accuracy 0.73; the Touché set 0.14. The Touché set's 296 answers
    # make its figure move a good deal with the folds (cv_spread).
    assert compsent["macro_f1"] > 0.70 and compsent["accuracy"] > 0.85
    assert touche["macro_f1"] > 0.37
    for result in (compsent, touche):
        assert NESTED <= set(result) and len(result["folds"]) == 5
        assert result["cv_spread"]["macro_f1"]["min"] <= result["cv_spread"]["macro_f1"]["max"]
        assert set(result["per_class"]) == set(result["labels"])
    # Each set's prediction rate is measured on its own kind: sentences are read faster than whole answers.
    assert compsent["predict_per_second"] > touche["predict_per_second"] > 0
    assert compsent["train_seconds"] == touche["train_seconds"] > 0
