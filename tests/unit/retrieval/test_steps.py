"""retrieval/steps.py: a re-ranker found by `module:callable` or entry point and versioned by its code (and the
helpers beside it); a path or relative name refused; the candidates it is given; its scores checked; the new order
(the top by its scores, ties by id, the rest kept)."""

from __future__ import annotations

import hashlib
import warnings
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from argrank.core import entry_point_groups
from argrank.core.params import Range
from argrank.retrieval import steps
from argrank.retrieval.steps import (
    Step,
    candidates,
    checked_scores,
    checked_step_params,
    load,
    reordered,
    resolve,
    written_scores,
)

PLUG = """\
def by_length(candidates, weight=1.0):
    return [weight * len(text) for text in candidates.column("text").to_pylist()]


def declared(candidates, alpha=0.5):
    return [alpha] * candidates.num_rows


declared.defaults = {"alpha": 0.5}
"""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "plug.py").write_text(PLUG, encoding="utf-8")
    return tmp_path


def test_a_module_beside_the_runs_file_is_found_and_versioned_by_its_source(folder):
    function, version, source = resolve("plug:by_length", folder)
    assert version == "sha256:" + hashlib.sha256((folder / "plug.py").read_bytes()).hexdigest()  # alone there
    assert source == str((folder / "plug.py").resolve())
    table = pa.table({"text": ["ab", "abcd"]})
    assert function(table, weight=2.0) == [4.0, 8.0]
    again, now = load(Step("plug:by_length", version=version, source=source))
    assert now == version and again(table) == [2.0, 4.0]
    (folder / "plug.py").write_text(PLUG + "\n# edited\n", encoding="utf-8")
    assert load(Step("plug:by_length", version=version, source=source))[1] != version  # the edit is seen


def test_a_helper_module_beside_the_plug_in_is_part_of_its_version(folder):
    """A plug-in importing a helper beside it was not re-run when only the helper changed."""
    (folder / "helper.py").write_text("WEIGHT = 1\n", encoding="utf-8")
    (folder / "notes.txt").write_text("not code\n", encoding="utf-8")
    _, version, source = resolve("plug:by_length", folder)
    (folder / "notes.txt").write_text("other notes\n", encoding="utf-8")
    assert load(Step("plug:by_length", version=version, source=source))[1] == version
    (folder / "helper.py").write_text("WEIGHT = 2\n", encoding="utf-8")
    assert load(Step("plug:by_length", version=version, source=source))[1] != version
    assert resolve("plug:by_length", folder)[1] != version


@pytest.mark.parametrize("use", ["/tmp/x/evil:f", "../../evil:f", ".plug:by_length", ":f", "plug:", "a b:f",
                                 "plug:by length", "pl/ug:f"])  # fmt: skip
def test_a_path_or_a_relative_or_empty_name_is_refused_before_anything_is_imported(folder, use):
    with pytest.raises(ValueError, match="name a step module:callable, the module by its dotted name"):
        resolve(use, folder)


def test_a_module_of_the_environment_is_found_too(folder):
    function, version, source = resolve("json:dumps", folder)
    assert function([1]) == "[1]" and version.startswith("sha256:") and source == ""


@pytest.mark.parametrize(
    "use, message",
    [
        ("plug:missing", "'plug' has no callable 'missing'"),
        ("nosuchmodule:f", "cannot import 'nosuchmodule'"),
        ("nosuchplugin", "unknown re-ranker 'nosuchplugin'"),
    ],
)
def test_what_cannot_be_found_is_named(folder, use, message):
    with pytest.raises(ValueError, match=message):
        resolve(use, folder)


def test_a_module_that_fails_to_import_is_named(tmp_path):
    (tmp_path / "bad.py").write_text("raise RuntimeError('at import')\n", encoding="utf-8")
    with pytest.raises(ValueError, match="bad.py fails to import: RuntimeError: at import"):
        resolve("bad:f", tmp_path)


def test_an_installed_distribution_registers_a_reranker(tmp_path, monkeypatch):
    site = tmp_path / "site"
    (site / "myplugin").mkdir(parents=True)
    (site / "myplugin" / "__init__.py").write_text("def rescore(candidates):\n    return [0.0] * candidates.num_rows\n")
    info = site / "myplugin-2.3.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: myplugin\nVersion: 2.3\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[{steps.GROUP}]\nrescore = myplugin:rescore\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))
    entry_point_groups.forget()
    try:
        function, version, source = resolve("rescore", tmp_path)
        assert version == "myplugin 2.3" and source == "" and function(pa.table({"a": [1, 2]})) == [0.0, 0.0]
    finally:
        entry_point_groups.forget()


def test_parameters_are_checked_against_the_signature_and_declared_ranges(folder):
    by_length = resolve("plug:by_length", folder)[0]
    assert checked_step_params("plug:by_length", by_length, {"weight": 3}) == {"weight": 3}
    with pytest.raises(ValueError, match="takes no parameter depth, k1 \\(it takes: weight\\)"):
        checked_step_params("plug:by_length", by_length, {"k1": 1, "depth": 2})
    declared = resolve("plug:declared", folder)[0]
    declared.ranges = {"alpha": Range(0, 1)}
    assert checked_step_params("plug:declared", declared, {}) == {"alpha": 0.5}
    with pytest.raises(ValueError, match="parameter alpha of the re-ranker plug:declared must be a number from 0 to 1"):
        checked_step_params("plug:declared", declared, {"alpha": 2})


RANKING = pa.table({
    "qid": ["1"] * 4 + ["2"] * 2, "doc": ["d", "b", "c", "a", "x", "y"], "rank": [1, 2, 3, 4, 1, 2],
    "score": [9.0, 8.0, 7.0, 6.0, 2.0, 1.0],
})  # fmt: skip


def test_candidates_are_each_topics_top_with_its_query_text_and_fields():
    documents = {doc: {"id": doc, "premise": f"text of {doc}", "stance": "PRO"} for doc in "abcdxy"}
    table = candidates(RANKING, 3, {"1": "first query", "2": "second"}, documents, ["premise"])
    assert table.column_names == ["topic", "query", "doc", "rank", "score", "text", "premise", "stance"]
    assert table.column("doc").to_pylist() == ["d", "b", "c", "x", "y"]
    assert table.column("query").to_pylist() == ["first query"] * 3 + ["second"] * 2
    assert table.column("text").to_pylist()[0] == "text of d"


def test_the_top_is_ordered_by_the_new_scores_ties_by_id_and_the_rest_stays_below():
    scores = np.array([1.0, 5.0, 5.0, 0.5, 3.0])  # topic 1's top 3 (d, b, c), topic 2's top 2 (x, y)
    table = reordered(RANKING, 3, scores)
    assert table.column("doc").to_pylist() == ["b", "c", "d", "a", "y", "x"]  # b and c tie: by id
    assert table.column("rank").to_pylist() == [1, 2, 3, 4, 1, 2]
    got = table.column("score").to_pylist()
    assert got[:4] == sorted(got[:4], reverse=True) and got[2] > got[3] == 6.0  # above the rest, which keeps its
    assert got[4:] == [3.0, 0.5]  # nothing below: the step's own scores


@pytest.mark.parametrize(
    ("top", "rest", "written"),
    [
        ([1e-323, 5e-324, 0.0], [7.0, 6.0, 6.0, 1.0], [6, 5, 4, 3, 2, 2, 1]),  # raised by 8: one number, so places
        ([1e308, 0.0, -1e308], [3.0, 1.0], [5, 4, 3, 2, 1]),  # raised: beyond the largest float
        ([5.0, 5.0, 1.0], [3.0, 1.0], [8, 8, 4, 3, 1]),  # raised by 3: the order kept, ties too
        ([1e308, -1e308], [], [1e308, -1e308]),  # nothing below: the step's own
    ],
)
def test_any_finite_scores_are_written_in_their_order_above_the_rest(top, rest, written):
    """Scores 0, 5e-324 and 1e-323 were all published as 7.797678161769288, and ±1e308 refused at run writing."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got_top, got_rest = written_scores(np.array(top), np.array(rest))
    assert got_top.tolist() + got_rest.tolist() == written
    assert np.isfinite(got_top).all()


def test_a_step_scoring_with_the_extremes_of_the_floats_keeps_its_order_in_the_run():
    table = reordered(RANKING, 3, np.array([5e-324, 1e-323, 0.0, -1e308, 1e308]))
    assert table.column("doc").to_pylist() == ["b", "d", "c", "a", "y", "x"]
    got = table.column("score").to_pylist()
    assert got[:4] == [4.0, 3.0, 2.0, 1.0] and got[4:] == [1e308, -1e308]


@pytest.mark.parametrize(
    "returned, message",
    [
        ([1.0, 2.0], "returned 2 scores for 3 candidates"),
        ([1.0, float("nan"), 2.0], "returned nan for candidate 1"),
        ("abc", "returned str, not one number per candidate"),
        ([[1.0], [2.0], [3.0]], "an array of shape \\(3, 1\\)"),
    ],
)
def test_wrong_scores_are_refused_saying_what_is_wrong(returned, message):
    with pytest.raises(ValueError, match=message):
        checked_scores(returned, 3)
    assert checked_scores([3, 2, 1], 3).tolist() == [3.0, 2.0, 1.0]
