"""argrank.evaluate and argrank.compare: the command line's figures from Python, whatever form a run comes in."""

from __future__ import annotations

import pyarrow as pa
import pytest

import argrank
from argrank.core.errors import InputError
from argrank.evaluation.ranking import evaluate as evaluate_lines
from argrank.formats.runfile import read_run

QRELS = {"1": {"a": 2, "b": 0, "c": 1}, "2": {"d": 1, "e": 0}, "3": {"f": 1}}
GOOD = {"1": {"a": 3.0, "c": 2.0, "b": 1.0}, "2": {"d": 2.0, "e": 1.0}, "3": {"f": 1.0}}
WORSE = {"1": {"b": 3.0, "c": 2.0, "a": 1.0}, "2": {"e": 2.0, "d": 1.0}, "3": {"x": 1.0}}


def _as_table(run: dict) -> pa.Table:
    rows = [{"qid": t, "docno": d, "score": s} for t, docs in run.items() for d, s in docs.items()]
    return pa.Table.from_pylist(rows)


def test_evaluate_gives_each_measures_mean_as_the_library_computes_it(tmp_path):
    path = tmp_path / "good.txt"
    path.write_text("".join(f"{t} Q0 {d} {r} {s} x\n" for t, docs in GOOD.items()
                            for r, (d, s) in enumerate(docs.items(), 1)))  # fmt: skip
    table = argrank.evaluate(path, QRELS, ["nDCG@5", "P@2"])
    assert table.column_names == ["measure", "value"]
    expected = evaluate_lines(read_run(path), {t: {d: float(v) for d, v in j.items()} for t, j in QRELS.items()},
                              measures=["nDCG@5", "P@2"])  # fmt: skip
    assert dict(zip(*table.to_pydict().values())) == expected.means
    assert argrank.evaluate(GOOD, QRELS, ["nDCG@5", "P@2"]).equals(table)  # the dict form
    assert argrank.evaluate(_as_table(GOOD), QRELS, ["nDCG@5", "P@2"]).equals(table)  # a PyTerrier-style table
    per_topic = argrank.evaluate(GOOD, QRELS, ["nDCG@5"], perquery=True)
    assert per_topic.column_names == ["topic", "measure", "value"] and per_topic.num_rows == 3


def test_compare_rows_follow_the_comparison_with_a_chosen_baseline():
    table = argrank.compare({"worse": WORSE, "good": GOOD}, QRELS, ["nDCG@5"], baseline="good")
    rows = {row["run"]: row for row in table.to_pylist()}
    assert rows["good"]["baseline"] and rows["good"]["p"] is None
    assert rows["worse"]["difference"] == pytest.approx(rows["worse"]["mean"] - rows["good"]["mean"])
    assert rows["worse"]["losses"] == 3 and rows["worse"]["p"] is not None
    first = argrank.compare([GOOD, WORSE], QRELS, ["nDCG@5"], names=["g", "w"])
    assert first.column("baseline").to_pylist() == [True, False]  # default: the first run
    long = argrank.compare({"good": GOOD, "worse": WORSE}, QRELS, ["nDCG@5"], perquery=True)
    assert long.column_names == ["run", "topic", "measure", "value"] and long.num_rows == 6


def test_bad_input_says_what_is_wrong():
    with pytest.raises(ValueError, match="no document column"):
        argrank.evaluate(pa.table({"qid": ["1"], "score": [1.0]}), QRELS)
    with pytest.raises(ValueError, match="2 names for 1 runs"):
        argrank.compare([GOOD], QRELS, names=["a", "b"])
    with pytest.raises(ValueError, match="no run tagged 'nope'"):
        argrank.compare({"good": GOOD}, QRELS, baseline="nope")
    with pytest.raises(TypeError, match="expected a path, a mapping or a table"):
        argrank.evaluate(42, QRELS)
    with pytest.raises(AttributeError, match="no attribute 'frobnicate'"):
        argrank.frobnicate  # noqa: B018


def test_fuse_and_tune_fusion_are_the_fuse_commands():
    """`argrank.fuse` fuses runs in any form the API reads; `argrank.tune_fusion` reports what `fuse --optimize`
    does, its cross-validated mean the mean of its per-topic figures."""
    one = {"1": {"x": 3.0, "y": 1.0}, "2": {"u": 2.0, "v": 1.0}}
    two = pa.table({"qid": ["1", "1", "2", "2"], "docno": ["y", "z", "v", "w"], "score": [5.0, 1.0, 4.0, 3.0]})
    fused = argrank.fuse({"a": one, "b": two}, "rrf", params={"k": 1})
    assert fused.column_names == ["topic", "doc", "rank", "score"]
    assert [(r["topic"], r["doc"], r["rank"]) for r in fused.to_pylist()][:3] == [("1", "y", 1), ("1", "x", 2),
                                                                                   ("1", "z", 3)]  # fmt: skip
    qrels = {"1": {"y": 2, "x": 0}, "2": {"v": 1, "w": 2}}
    report = argrank.tune_fusion({"a": one, "b": two}, qrels, "nDCG@5", "wsum", cv=2, seed=0)
    assert report["best_single"] in ("a", "b") and len(report["folds"]) == 2
    assert report["cv_mean"] == pytest.approx(sum(report["per_topic"].values()) / 2)
    with pytest.raises(ValueError, match="unknown fusion method 'mean'"):
        argrank.fuse({"a": one, "b": one}, "mean")


def test_dir_lists_the_api_for_completion():
    public = [name for name in dir(argrank) if not name.startswith("_")]
    assert {"evaluate", "compare", "participants", "reproducibility", "write_run", "fuse"} <= set(public)
    assert all(callable(getattr(argrank, name)) for name in argrank.__all__)


def _qrels_2022(shared_data) -> str:
    return str(shared_data / "touche-task2" / "touche-task2-2022-relevance.qrels")


def test_runs_of_one_file_name_get_one_name_each(shared_data, organizers_runs):
    runs = [organizers_runs / "Grimjack" / "output" / "run1.txt", organizers_runs / "Asuna" / "output" / "run1.txt"]
    table = argrank.compare(runs, _qrels_2022(shared_data), ["nDCG@5"], track="comparative")
    assert sorted(set(table.column("run").to_pylist())) == ["Asuna/run1", "Grimjack/run1"]
    with pytest.raises(ValueError, match="two runs would be named 'same'"):
        argrank.compare(runs, _qrels_2022(shared_data), names=["same", "same"], track="comparative")


def test_stance_f1_is_the_organizers_figure(shared_data, organizers_runs):
    stance = shared_data / "touche-task2" / "touche-task2-2022-stance.qrels"
    grimjack = organizers_runs / "Grimjack" / "output" / "run1.txt"
    rows = dict(zip(*argrank.evaluate(grimjack, None, track="comparative", stance_qrels=stance).to_pydict().values()))
    assert rows == {"stance_f1": pytest.approx(0.2071, abs=5e-5), "stance_pairs": 1282}
    table = argrank.compare({"g": grimjack, "a": organizers_runs / "Asuna" / "output" / "run1.txt"},
                            _qrels_2022(shared_data), ["nDCG@5"], track="comparative", stance_qrels=stance)
    means = {(row["run"], row["measure"]): row["mean"] for row in table.to_pylist()}
    assert means[("a", "stance_f1")] == pytest.approx(0.1056, abs=5e-5)
    assert means[("a", "nDCG@5")] == pytest.approx(0.2626, abs=5e-5)


def test_a_run_lacking_judged_topics_is_said_so():
    with pytest.warns(UserWarning, match="1 judged topic missing from the run, each counted as 0.*: 3"):
        counted = argrank.evaluate({t: GOOD[t] for t in ("1", "2")}, QRELS, ["P@1"])
    assert counted.column("value").to_pylist() == [pytest.approx(2 / 3)]
    with pytest.warns(UserWarning, match="left out of the mean"):
        left = argrank.evaluate({t: GOOD[t] for t in ("1", "2")}, QRELS, ["P@1"], average="run-topics")
    assert left.column("value").to_pylist() == [1.0]


def test_reproducibility_measures_a_run_against_itself_as_perfect(shared_data, organizers_runs):
    grimjack = organizers_runs / "Grimjack" / "output" / "run1.txt"
    table = argrank.reproducibility({"base": organizers_runs / "Asuna" / "output" / "run1.txt", "copy": grimjack},
                                    grimjack, _qrels_2022(shared_data), ["nDCG@5"], track="comparative")  # fmt: skip
    (row,) = table.to_pylist()
    assert row["run"] == "copy" and row["ktu"] == pytest.approx(1.0) and row["rbo"] > 0.99  # RBO reads to 1,000
    assert row["rmse"] == 0.0 and row["er"] == pytest.approx(1.0) and row["delta_ri"] == pytest.approx(0.0)


def test_write_run_writes_a_valid_run_that_scores_the_same(tmp_path):
    path = tmp_path / "run.txt"
    assert argrank.write_run(_as_table(GOOD), path, "mine") == 6
    assert path.read_text().splitlines()[0] == "1 Q0 a 1 3.0 mine"
    assert argrank.evaluate(path, QRELS, ["nDCG@5"]).equals(argrank.evaluate(GOOD, QRELS, ["nDCG@5"]))
    stance = pa.table({"qid": ["1", "1"], "docno": ["a", "b"], "score": [1.0, 2.0], "stance": ["FIRST", "NO"]})
    argrank.write_run(stance, path, "mine", track="comparative")
    assert path.read_text() == "1 NO b 1 2.0 mine\n1 FIRST a 2 1.0 mine\n"
    with pytest.raises(InputError, match="line 1"):
        argrank.write_run(stance, tmp_path / "bad.txt", "mine")  # args runs hold Q0 in column 2
    assert not (tmp_path / "bad.txt").exists()


def test_fuse_carries_the_members_stance_and_tune_fusion_names_each_run(shared_data, organizers_runs):
    """`argrank.fuse` votes a stance column from the members that state one (as `argrank fuse` writes column 2);
    `tune_fusion` names runs of one file name apart and shows the weights by run."""
    run = {name: organizers_runs / name / "output" / f"{number}.txt" for name, number in
           [("Grimjack", "run1"), ("Asuna", "run1"), ("Aldo-Nadi", "run3"), ("Captain-Tempesta", "run1")]}  # fmt: skip
    fused = argrank.fuse([run["Grimjack"], run["Asuna"]], "rrf")
    assert fused.column_names == ["topic", "doc", "rank", "score", "stance"]
    assert set(fused.column("stance").to_pylist()) <= {"FIRST", "SECOND", "NEUTRAL", "NO"}
    assert argrank.fuse([run["Aldo-Nadi"], run["Captain-Tempesta"]]).column_names == ["topic", "doc", "rank", "score"]
    report = argrank.tune_fusion([run["Grimjack"], run["Asuna"], run["Aldo-Nadi"]], _qrels_2022(shared_data), cv=2,
                                 track="comparative")  # fmt: skip
    assert report["names"] == ["Grimjack/run1", "Asuna/run1", "Aldo-Nadi/run3"]
    assert list(report["weights_by_run"]) == report["names"] and report["best_single"] == "Aldo-Nadi/run3"
    assert report["in_sample_mean"] >= report["best_single_mean"]


def test_participants_places_a_run_among_the_organizers_layout(shared_data, organizers_runs):
    mine = organizers_runs / "Grimjack" / "output" / "run3.txt"
    with pytest.warns(UserWarning, match="2 files skipped, not a run file: Grimjack/notes.txt, README.md"):
        table = argrank.participants({"mine": mine}, organizers_runs, _qrels_2022(shared_data), ["nDCG@5", "P@10"],
                                     track="comparative")  # fmt: skip
    rows = [row for row in table.to_pylist() if row["measure"] == "nDCG@5"]
    assert [row["run"] for row in rows][:2] == ["Aldo-Nadi/run3", "Captain-Tempesta/run1"]
    assert rows[0]["mean"] == pytest.approx(0.6954, abs=5e-5) and rows[0]["against"] == "mine"
    assert {row["measure"] for row in table.to_pylist()} == {"nDCG@5", "P@10"}
    same = next(row for row in rows if row["run"] == "Grimjack/run3")
    assert same["difference"] == 0 and same["p"] is None  # identical to ours: not a test
    markdown = argrank.to_markdown(table, decimals=2)
    assert "| 1 | Aldo-Nadi/run3 | **0.70** |" in markdown and "mine (ours)" in markdown
    with pytest.raises(ValueError, match="two runs would be named 'Asuna/run1'"):
        argrank.participants({"Asuna/run1": mine}, organizers_runs, _qrels_2022(shared_data), track="comparative")


def test_compare_tests_every_pair_on_request(shared_data, organizers_runs):
    runs = {name: organizers_runs / name.split("/")[0] / "output" / f"{name.split('/')[1]}.txt"
            for name in ("Grimjack/run3", "Asuna/run1", "Aldo-Nadi/run3")}  # fmt: skip
    table = argrank.compare(runs, _qrels_2022(shared_data), ["nDCG@5"], track="comparative", pairs="all",
                            correction="none")  # fmt: skip
    latex = argrank.to_latex(table, decimals=3)
    assert r"\textbf{0.695}$^{ab}$" in latex and "every pair of runs" in latex and "not corrected" in latex
