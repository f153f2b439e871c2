"""Nested cross-validation of the perspective track (tuning.py, cross_validation.py): a fold's settings are chosen
without its own judgments, the inner figures are what the outer ranking and evaluator give for the same training
and settings, and the reported outer, inner and spread figures are those of the per-fold data."""

from __future__ import annotations

import dataclasses
import json
import math
import shutil
from pathlib import Path

import numpy as np
import pytest

from argrank.retrieval.top_k import top_k
from argrank.tracks.perspective.cross_validation import (
    CROSS_VALIDATION,
    LOCKBOX,
    OURS,
    Fold,
    Settings,
    Split,
    _Trained,
    cross_validate,
    load_release,
    split_by_issue,
)
from argrank.tracks.perspective.data import Query, query_file, read_queries
from argrank.tracks.perspective import tuning
from argrank.tracks.perspective.tuning import TUNED, Tuner

DATA = Path(__file__).resolve().parents[4] / "data" / "perspective"
BASELINE = read_queries(query_file(DATA, "baseline", "train"))
PERSPECTIVE = read_queries(query_file(DATA, "explicit", "train"))
TUNED_SCENARIOS = ("baseline", "explicit")
FIXED = {"translation": 1.25, "concept_weight": 0.5, "category_weight": 1.0}


def _flipped(query: Query, issue: set[int], corpus_ids: list[int]) -> Query:
    """The query judged the other way: a perspective query's relevant arguments become its issue's others, a baseline
    query's the arguments outside its issue."""
    relevant = set(query.relevant_candidates)
    if query.demographic_property:
        others = sorted(issue - relevant)
    else:
        others = [argument for argument in corpus_ids if argument not in issue]
    return dataclasses.replace(query, relevant_candidates=others or query.relevant_candidates)


@pytest.fixture(scope="module")
def release():
    return load_release(DATA)


def test_flipping_a_folds_held_out_judgments_changes_nothing_chosen_for_it(release):
    split = split_by_issue(BASELINE, PERSPECTIVE, 3, DATA, 0)  # 3 folds over 4 issues: each outer fold has 2 inner
    held = split.folds[0]
    issue = {frozenset(q.relevant_candidates) for q in held.baseline}
    corpus_ids = [int(i) for i in release.index.doc_ids.to_pylist()]

    def member(query: Query) -> set[int]:
        return set(max(issue, key=lambda members: len(members & set(query.relevant_candidates))))

    flipped = Fold(held.issues, [_flipped(q, member(q), corpus_ids) for q in held.baseline],
                   [_flipped(q, member(q), corpus_ids) for q in held.perspective])  # fmt: skip
    assert all(a.relevant_candidates != b.relevant_candidates for a, b in zip(held.baseline, flipped.baseline))
    other = Split([flipped, *split.folds[1:]], None, split.issues)
    original, changed = (_Trained(release, s, Settings()).tuner() for s in (split, other))
    for_fold = original.choose([1, 2]), changed.choose([1, 2])
    assert for_fold[0] == for_fold[1]  # params, diversity, inner folds and every inner figure
    assert for_fold[0].tuned and set(for_fold[0].inner) == set(TUNED)
    # Where the fold is an inner fold its judgments count: the same flip changes the inner figures there.
    assert original.choose([0, 1]).inner != changed.choose([0, 1]).inner


def test_flipping_held_out_judgments_in_the_release_files_changes_no_choice_for_their_fold(tmp_path):
    """End to end: the release's files with outer fold 1's perspective judgments flipped (its issues, and so every
    fold, stay as they were)."""
    split = split_by_issue(BASELINE, PERSPECTIVE, 3, DATA, 0)
    held = {q.query_id for q in split.folds[0].perspective}
    issues = [set(q.relevant_candidates) for q in split.folds[0].baseline]
    folder = tmp_path / "release"
    shutil.copytree(DATA, folder)
    path = query_file(folder, "explicit", "train")
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if str(record["query_id"]) in held:
            relevant = set(record["relevant_candidates"])
            issue = max(issues, key=lambda members: len(members & relevant))
            record["relevant_candidates"] = sorted(issue - relevant) or record["relevant_candidates"]
        lines.append(json.dumps(record))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    runs = [cross_validate(data, 3, TUNED_SCENARIOS, lockbox=0).part(CROSS_VALIDATION) for data in (DATA, folder)]
    assert [f.issues for f in runs[0].folds] == [f.issues for f in runs[1].folds]
    assert runs[0].choices[0] == runs[1].choices[0]
    assert runs[0].fold_means("explicit", OURS)[0] != runs[1].fold_means("explicit", OURS)[0]  # the flip counted
    assert any(a.inner != b.inner for a, b in zip(runs[0].choices[1:], runs[1].choices[1:]))


@pytest.fixture(scope="module")
def fixed_run():
    """Every setting fixed: the lockbox's inner folds are the cross-validation's folds, with its trainings."""
    return cross_validate(DATA, 2, TUNED_SCENARIOS, Settings(FIXED, 0.2), lockbox=1)


def test_inner_figures_are_the_outer_rankings_scored_by_the_evaluator(fixed_run):
    cross, lockbox = fixed_run.part(CROSS_VALIDATION), fixed_run.part(LOCKBOX)
    (choice,) = lockbox.choices
    assert choice.inner_folds == [0, 1] and choice.diversify == 0.2
    assert all(choice.params[name] == value for name, value in FIXED.items())
    for scenario in TUNED_SCENARIOS:
        outer = {q: scores["nDCG@4"] for q, scores in cross.scores[scenario][OURS].per_query.items()}
        assert set(choice.inner[scenario]) == set(outer)
        for query_id, value in outer.items():
            assert choice.inner[scenario][query_id] == pytest.approx(value, abs=1e-12), (scenario, query_id)


@pytest.fixture(scope="module")
def tuned_run():
    return cross_validate(DATA, 3, TUNED_SCENARIOS, lockbox=1)


def test_outer_inner_and_spread_figures_are_those_of_the_per_fold_data(tuned_run):
    cross = tuned_run.part(CROSS_VALIDATION)
    result = tuned_run.to_json()
    assert [c["inner_folds"] for c in result[CROSS_VALIDATION]["choices"]] == [[1, 2], [0, 2], [0, 1]]
    for scenario in TUNED_SCENARIOS:
        per_query = cross.scores[scenario][OURS].per_query
        reported = result[CROSS_VALIDATION]["scenarios"][scenario][OURS]
        for language in (None, "de", "fr", "it"):
            row = reported if language is None else reported["per_language"][language]
            folds, inner, pooled = [], [], []
            for fold, choice in zip(cross.folds, cross.choices):
                held = [q for q in fold.queries(scenario)
                        if language is None or tuned_run.language[q.text] == language]  # fmt: skip
                values = [per_query[q.query_id]["nDCG@4"] for q in held]
                pooled += values
                if values:
                    folds.append(np.mean(values))
                texts = {q.query_id: q.text for q in (BASELINE if scenario == "baseline" else PERSPECTIVE)}
                own = [v for q, v in choice.inner[scenario].items()
                       if language is None or tuned_run.language[texts[q]] == language]  # fmt: skip
                if own:
                    inner.append(np.mean(own))
            assert row["cv_mean"] == pytest.approx(np.mean(pooled), abs=1e-12)
            assert row["cv_inner_mean"] == pytest.approx(np.mean(inner), abs=1e-12)
            assert row["cv_spread"]["sd"] == pytest.approx(np.std(folds, ddof=1), abs=1e-12)
            assert (row["cv_spread"]["min"], row["cv_spread"]["max"]) == pytest.approx((min(folds), max(folds)))
        assert reported["cv_mean"] == pytest.approx(reported["nDCG@4"], abs=1e-12)  # the evaluator's own mean
        assert reported["per_fold_inner"] == pytest.approx([c.inner_mean(scenario) for c in cross.choices])


def test_a_lockbox_is_ranked_with_the_choice_of_all_the_cross_validations_folds(tuned_run):
    (choice,) = tuned_run.part(LOCKBOX).choices
    assert choice.inner_folds == [0, 1, 2] and choice.tuned
    cross = tuned_run.part(CROSS_VALIDATION)
    assert all(c.inner_folds == sorted({0, 1, 2} - {n}) for n, c in enumerate(cross.choices))


def test_fixed_settings_are_not_tuned_and_two_folds_leave_outer_folds_untuned():
    result = cross_validate(DATA, 2, ("baseline",), Settings({"translation": 1.0}, 0.0), lockbox=1)
    assert "translation" not in result.grid and result.fixed()["translation"] == 1.0
    cross = result.part(CROSS_VALIDATION)
    assert all(not c.tuned and c.inner == {} and c.diversify == 0.0 for c in cross.choices)  # one inner fold each
    assert math.isnan(cross.summary("baseline")["cv_inner_mean"])
    (locked,) = result.part(LOCKBOX).choices
    assert locked.tuned and locked.params["translation"] == 1.0 and locked.diversify == 0.0


def _lifted_tops(scores: np.ndarray, masks: dict, depth: int) -> tuple[list, list]:
    """What the tuner's explicit tops are, per mask, and the whole list's ranking with the holders lifted."""
    queries = [Query(str(n), "q", [1], {key: value}) for n, (key, value) in enumerate(masks)]
    tuner = Tuner(lambda n: ([], []), None, None, lambda key, value: masks[key, value], {}, int, {}, 0.0)
    spread = scores.max(initial=0.0) - scores.min(initial=0.0) + 1.0
    expected = [top_k(np.arange(len(scores)), scores + spread * mask, depth)[0].tolist() for mask in masks.values()]
    return [top.tolist() for top in tuner._explicit_tops(scores, queries, depth)], expected


@pytest.mark.parametrize("pool", [3, 10, 100, 1000, 3000, 5000])
def test_explicit_tops_are_the_whole_lists_ranking_with_the_holders_lifted(monkeypatch, pool):
    """Read off a pool of the best documents where it holds a property's top, else selected among its holders:
    either way the whole list's ranking with the holders lifted, pools that settle all, some and none of them."""
    monkeypatch.setattr(tuning, "POOL", pool)
    settled, pooled_tops = [], Tuner._pooled_tops

    def spy(*args):
        found = pooled_tops(*args)
        settled.append(sorted(value for _, value in found))
        return found

    monkeypatch.setattr(Tuner, "_pooled_tops", spy)
    rng = np.random.default_rng(7)
    documents = 3000
    scores = np.round(rng.random(documents), 3)  # many ties, broken by document id, at the pool's edge too
    shares = (0.0003, 0.001, 0.01, 0.3)  # a property of one holder too: fewer than the depth
    masks = {("p", str(share)): (rng.random(documents) < share).astype(np.float64) for share in shares}
    for depth in (4, 50):
        found, expected = _lifted_tops(scores, masks, depth)
        assert found == expected
    assert any(len(set(top) - set(np.flatnonzero(mask))) for top, mask in zip(found, masks.values()))
    # per depth (4, 50), the properties the pool settles: a property's top is in it where its holders are many
    assert settled == {3: [[], []], 10: [[], []], 100: [["0.3"], []]}.get(pool, [["0.01", "0.3"], ["0.3"]])


def test_explicit_tops_rank_the_whole_list_where_lifting_rounds_away():
    scores = np.zeros(100)
    scores[90:] = -1e17  # the holders': lifted by a spread of 1e17 + 1, which rounds to 1e17, they tie the others at 0
    masks = {("p", "v"): (np.arange(100) >= 90).astype(np.float64)}
    found, expected = _lifted_tops(scores, masks, 4)
    assert found == expected == [[0, 1, 2, 3]]


def test_a_holder_outside_the_pool_that_lifting_rounds_level_with_the_pools_top_is_not_missed(monkeypatch):
    """A lifted score of 1e17 and more moves in steps of 16: holders at 0 and 4 tie when lifted, and the one outside
    the pool of the five best (document 0) comes first by document; the pool cannot tell, so it settles nothing."""
    monkeypatch.setattr(tuning, "POOL", 5)
    scores = np.array([0.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, -1e17])
    masks = {("p", "v"): (np.arange(10) < 2).astype(np.float64)}
    found, expected = _lifted_tops(scores, masks, 1)
    assert found == expected == [[0]]
