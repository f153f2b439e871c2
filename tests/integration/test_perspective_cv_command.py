"""`argrank perspective-cv` on the embedded release: every scenario's held-out queries scored once, in the
cross-validation or in the lockbox, with the settings each part's inner folds chose, the nested headline (outer,
inner, spread) and the reference rows beside ours, figures per query language, as a table and as JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from argrank.tracks.perspective.cross_validation import LANGUAGES
from argrank.tracks.perspective.crosslingual import DEFAULTS
from argrank.tracks.perspective.data import query_file, read_queries
from argrank.tracks.perspective.translation import DICTIONARIES, dictionary_files
from argrank.tracks.perspective.tuning import DIVERSIFY_GRID, GRID

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "data" / "perspective"


def perspective_cv(*args: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "workflows.cli", "perspective-cv", "--data", str(DATA), "--folds", "2", *args]
    return subprocess.run(command, check=False, cwd=REPO, capture_output=True, text=True, timeout=300)


def test_every_scenario_with_its_reference_rows_and_every_query_once():
    done = perspective_cv("--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["issues"] == 4 and len(result["lockbox_issues"]) == 1  # a quarter of 4
    cross, lockbox = result["cross-validation"], result["lockbox"]
    assert cross["folds"] == 2 and lockbox["folds"] == 1 and lockbox["fold_issues"] == [result["lockbox_issues"]]
    assert sorted(sum(cross["fold_issues"], []) + result["lockbox_issues"]) == [0, 1, 2, 3]
    found = [path.name for path in dictionary_files(DICTIONARIES, LANGUAGES)]  # as many as this machine has
    settings = result["settings"]
    assert settings["fixed"] == {name: value for name, value in DEFAULTS.items() if name not in GRID}
    assert settings["grid"] == {name: list(values) for name, values in GRID.items()}
    assert settings["diversify"] == list(DIVERSIFY_GRID) and settings["tuned_on"] == ["baseline", "explicit"]
    assert (settings["implicit_stance"], settings["dictionaries"]) == (True, found)
    # Two folds: each outer fold has one inner fold, too few to choose on (the defaults); the lockbox's two choose.
    assert [choice["tuned"] for choice in cross["choices"]] == [False, False]
    assert [choice["inner_folds"] for choice in lockbox["choices"]] == [[0, 1]] and lockbox["choices"][0]["tuned"]
    assert set(lockbox["choices"][0]["chosen"]) == set(GRID)
    methods = {
        "baseline": ["ours"],
        "explicit": ["ours", "property-blind", "filter by property"],
        "implicit": ["ours", "property-blind"],
    }
    assert {scenario: list(found) for scenario, found in cross["scenarios"].items()} == methods
    assert {scenario: list(found) for scenario, found in lockbox["scenarios"].items()} == methods
    counts = {"baseline": len(read_queries(query_file(DATA, "baseline", "train")))}
    counts["explicit"] = counts["implicit"] = len(read_queries(query_file(DATA, "explicit", "train")))
    for scenario in methods:
        for name, method in cross["scenarios"][scenario].items():
            locked = lockbox["scenarios"][scenario][name]
            assert method["queries"] + locked["queries"] == counts[scenario]  # each query once, in one part
            assert {"nDCG@4", "P@20", "alpha-nDCG@4", "rKL@20"} <= set(method)
            assert len(method["per_fold"]["nDCG@4"]) == 2 and len(locked["per_fold"]["nDCG@4"]) == 1
            if name == "ours":
                assert method["cv_mean"] == method["nDCG@4"] and min(method["per_fold"]["nDCG@4"]) == method[
                    "cv_spread"]["min"]  # fmt: skip
                assert (locked["cv_inner_mean"] is None) == (scenario == "implicit")  # implicit is not tuned
            for part in (method, locked):
                languages = part["per_language"]
                assert sum(row["queries"] for row in languages.values()) == part["queries"]
                weighted = sum(row["queries"] * row["nDCG@4"] for row in languages.values()) / part["queries"]
                assert abs(weighted - part["nDCG@4"]) < 1e-9  # the languages' figures add up to the whole
    assert set(cross["scenarios"]["baseline"]["ours"]["per_language"]) == {"de", "fr", "it"}  # each issue in three
    # Filtering by the property never loses a relevant argument from the property-blind list; it can only lift them.
    explicit = cross["scenarios"]["explicit"]
    assert explicit["filter by property"]["nDCG@4"] >= explicit["property-blind"]["nDCG@4"]
    # The implicit guesses are scored on every held-out judged argument of every property asked for.
    accuracy = cross["implicit_property_accuracy"]
    keys = {
        next(iter(query.demographic_property))
        for query in read_queries(query_file(DATA, "explicit", "train"))
        if set(query.relevant_candidates or ()) - set(_lockbox_arguments(result["lockbox_issues"]))
    }
    assert set(accuracy) == keys | {"all"}
    assert accuracy["all"]["examples"] == sum(accuracy[key]["examples"] for key in keys)
    assert all(0.0 <= row["brier"] <= 1.0 and 0.0 <= row["calibration_error"] <= 1.0 for row in accuracy.values())


def _lockbox_arguments(numbers: list[int]) -> set[int]:
    queries = read_queries(query_file(DATA, "baseline", "train"))
    issues = sorted({tuple(sorted(set(query.relevant_candidates))) for query in queries})
    return {argument for number in numbers for argument in issues[number]}


def test_the_table_has_a_row_per_method_for_the_chosen_scenario():
    done = perspective_cv(
        "--scenario", "explicit", "--param", "feedback=5", "--param", "translation=1", "--no-implicit-stance",
        "--diversify", "0", "--lockbox", "0",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("ranker: k1 1.2, b 0.75, feedback 5, ") and "translation 1" in lines[0]
    assert lines[1].startswith("chosen in inner folds by nDCG@4 (baseline and explicit): concept_weight from ")
    assert "translation from" not in lines[1] and lines[1].endswith("; explicit diversify 0")
    assert lines[2] == "implicit does not read the stance label"
    assert lines[3].startswith(f"dictionaries under {DICTIONARIES}: ")
    assert lines[5].startswith("chosen per fold")
    assert lines[7].split()[:4] == ["cross-validation", "1", "0,", "2"] and "fewer than 2 inner folds" in lines[7]
    start = lines.index(next(line for line in lines if line.startswith("cross-validation, explicit: ")))
    assert lines[start].startswith("cross-validation, explicit: 33 held-out queries, 2 folds over 4 issues")
    assert lines[start + 1] == "ours, nDCG@4:" and lines[start + 2].startswith("  all: ")
    assert "held out (inner -); folds sd " in lines[start + 2]  # two folds: nothing chosen, no inner figure
    table = start + 6  # after the headline's four lines: all, de, fr, it
    assert lines[table].split() == ["method", "nDCG@4", "nDCG@8", "P@4", "alpha-nDCG@4", "rKL@4"]
    rows = {line.split("  ")[0].strip(): line.split()[-5:] for line in lines[table + 1 : table + 4]}
    assert list(rows) == ["ours", "property-blind", "filter by property"]
    # Undiversified, explicit is that filter over the whole list, on the same ranking: the same figures here.
    assert rows["ours"] == rows["filter by property"]
    assert lines[table + 4].split() == ["method", "language", "queries", "nDCG@4", "nDCG@8", "P@4"]
    assert "lockbox" not in done.stdout
