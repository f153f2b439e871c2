"""argrank.evaluate and argrank.compare: the command line's figures from Python, whatever form a run comes in."""

from __future__ import annotations

import pyarrow as pa
import pytest

import argrank
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
