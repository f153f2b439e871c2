"""evaluation.fusion_tuning: the measure computed on arrays is the project's evaluation of the fused run; leaving
out the rows no weighting can bring into the top k changes no weighting's measure; every greedy step raises the
mean; the choice (wsum, auto) never scores below any run by itself, nor wmnz's below its start, on all judged
topics and in every training fold, by the report's own figures, whatever the runs (a property over small random
runs with ties); the choice does not depend on the runs' order; folds deal every topic once; a fold's choice never
depends on its own topics' judgments (nested: the inner folds see its training topics only); the report's figures,
the single run each training part picks among them, agree with each other; alike runs get weights shrunk towards
equal."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from argrank.evaluation.fusion import NORMS, fuse, fused_lines, ranked
from argrank.evaluation.fusion_tuning import (
    KS,
    MOST_STEPS,
    STEPS,
    contenders,
    cutoff,
    folds,
    fused_scores,
    greedy,
    means,
    prepare,
    topic_scores,
    tuned,
)
from argrank.evaluation.ranking import evaluate
from argrank.formats.qrels import read_qrels
from argrank.formats.runfile import read_run


def _runs(seed: int, runs: int = 3, topics: int = 8, pool: int = 40, ties: bool = False):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(runs):
        run = {}
        for topic in range(1, topics + 1):
            held = rng.choice(pool, size=int(rng.integers(10, pool)), replace=False)
            scores = rng.integers(-3, 6, len(held)) if ties else rng.normal(5, 3, len(held))
            scored = [(f"d{doc:03d}", float(score)) for doc, score in zip(held, scores)]
            run[str(topic)] = sorted(scored, key=lambda pair: (-pair[1], pair[0]))
        out.append(run)
    qrels = {str(t): {f"d{doc:03d}": int(rng.integers(-2, 3)) for doc in range(0, pool, 2)}
             for t in range(1, topics + 1)}  # fmt: skip
    return out, qrels


def _figure(run, qrels, measure, topics=None) -> float:
    """The project's evaluation of a run: the mean over `topics` (all judged ones) of each topic's measure, 0 where
    the run has nothing for it."""
    topics = list(qrels) if topics is None else topics
    scores = evaluate(fused_lines(run, "x"), qrels, measures=[measure]).per_topic
    return float(np.mean([scores.get(topic, {}).get(measure, 0.0) for topic in topics]))


FUSIONS = [("wsum", {"weights": [0.2, 0.7, 0.1]}), ("wsum", {"weights": [0, 1, 0]}),
           ("wmnz", {"weights": [1, 0, 0.5]}), ("rrf", {"k": 20})]  # fmt: skip


@pytest.mark.parametrize("measure", ["nDCG@5", "P@10", "nDCG@20"])
@pytest.mark.parametrize(("method", "params"), FUSIONS)
def test_the_array_measure_is_the_evaluation_of_the_fused_run(measure, method, params):
    runs, qrels = _runs(0)
    prepared = prepare(runs, "min-max", qrels, measure)
    ours = topic_scores(prepared, fused_scores(prepared, method, params), range(len(prepared.topics)))
    fused = fused_lines(fuse(runs, method, "min-max", params), "f")
    theirs = evaluate(fused, qrels, measures=[measure]).per_topic
    assert ours.tolist() == pytest.approx([theirs[topic][measure] for topic in prepared.topics], abs=1e-12)


@pytest.mark.parametrize("measure", ["nDCG@5", "P@3", "nDCG@10"])
@pytest.mark.parametrize("norm", ["min-max", "zmuv", "rank", "borda", "none"])
@pytest.mark.parametrize("method", ["wsum", "wmnz"])
def test_the_rows_left_out_change_no_weightings_measure(method, norm, measure):
    runs, qrels = _runs(4, runs=4, ties=True)
    prepared = prepare(runs, norm, qrels, measure)
    reduced = contenders(prepared, method)
    assert len(reduced.gains) < len(prepared.gains)
    weights = np.random.default_rng(0).choice([0.0, 0.1, 0.5, 1.0], size=(200, 4))
    weights = weights[weights.any(axis=1)]
    chosen = range(len(prepared.topics))
    assert means(reduced, method, chosen, weights) == pytest.approx(means(prepared, method, chosen, weights), abs=0)


def test_every_greedy_step_adds_one_step_to_one_run_and_raises_the_mean():
    runs, qrels = _runs(5, runs=4)
    prepared = prepare(runs, "min-max", qrels, "nDCG@5")
    path = greedy(prepared, "wsum", range(8), start=2)
    assert path[0].tolist() == [0, 0, 1, 0] and 2 <= len(path) <= MOST_STEPS + 1
    scored = means(prepared, "wsum", range(8), np.array(path))
    assert np.all(np.diff(scored) > 0)
    for before, after in zip(path, path[1:]):
        moved = np.flatnonzero(after != before)
        assert len(moved) == 1 and round(float(after[moved[0]] - before[moved[0]]), 9) in STEPS


def _best_alone(runs, qrels, measure, topics):
    """Each run's figure by itself on `topics`, and the runs tied for the best."""
    figures = [_figure(run, qrels, measure, topics) for run in runs]
    return figures, [i for i, figure in enumerate(figures) if figure == max(figures)]


def _check_never_below(runs, qrels, method, norm, measure, cv):
    """The guarantee: the report's in-sample mean and every fold's training mean at least what every run by itself
    scores there (wsum, auto) or what wmnz's start (the best run's weight 1, the others 0) scores, by the project's
    evaluation; the reported mean is the evaluation of the fusion reported."""
    names = [f"r{i}" for i in range(len(runs))]
    report = tuned(runs, names, qrels, method, norm, measure, cv=cv, seed=1)
    members = [runs[names.index(name)] for name in report["members"]]
    chosen = fuse(members, report["chosen_method"], norm, report["chosen"])
    assert report["in_sample_mean"] == pytest.approx(_figure(chosen, qrels, measure), abs=1e-12)
    checks = [(report["in_sample_mean"], list(qrels))]
    checks += [(fold["training_mean"], [t for t in qrels if t not in fold["topics"]])
               for fold in report.get("folds", [])]  # fmt: skip
    for mean, topics in checks:
        figures, best = _best_alone(runs, qrels, measure, topics)
        if method == "wmnz":
            alone = [{"weights": [float(i == run) for i in range(len(runs))]} for run in best]
            starts = [fuse(runs, "wmnz", norm, weights) for weights in alone]
            assert mean >= min(_figure(start, qrels, measure, topics) for start in starts) - 1e-12
        else:
            assert mean >= max(figures) - 1e-12
    return report


@st.composite
def _small_runs(draw):
    """2 to 4 runs of 1 to 4 topics over a pool of up to 8 documents, integer scores (ties, negatives, empty
    topics), and labels −1 to 2 for some of the pool."""
    count, topics, pool = draw(st.integers(2, 4)), draw(st.integers(1, 4)), draw(st.integers(1, 8))
    docs = [f"d{doc}" for doc in range(pool)]
    runs = []
    for _ in range(count):
        run = {}
        for topic in range(1, topics + 1):
            held = draw(st.lists(st.sampled_from(docs), unique=True, max_size=pool))
            scores = draw(st.lists(st.integers(-3, 3), min_size=len(held), max_size=len(held)))
            if held:
                run[str(topic)] = sorted(zip(held, map(float, scores)), key=lambda pair: (-pair[1], pair[0]))
        runs.append(run)
    qrels = {str(topic): draw(st.dictionaries(st.sampled_from(docs), st.integers(-1, 2), min_size=1))
             for topic in range(1, topics + 1)}  # fmt: skip
    return runs, qrels


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=_small_runs(), method=st.sampled_from(["wsum", "wmnz", "auto"]), norm=st.sampled_from(NORMS),
       measure=st.sampled_from(["nDCG@1", "nDCG@3", "P@2", "P@5", "nDCG@10"]), cv=st.sampled_from([0, 2]))  # fmt: skip
def test_the_choice_never_scores_below_any_run_alone_nor_wmnz_below_its_start(data, method, norm, measure, cv):
    runs, qrels = data
    _check_never_below(runs, qrels, method, norm, measure, cv if len(qrels) >= cv else 0)


@pytest.mark.parametrize("method", ["wsum", "auto"])
@pytest.mark.parametrize("norm", ["min-max", "rank", "zmuv"])
def test_the_choice_never_scores_below_any_run_alone_on_random_runs_with_ties(norm, method):
    for seed in range(3):
        runs, qrels = _runs(seed, runs=4, ties=True)
        _check_never_below(runs, qrels, method, norm, "P@5", cv=3)


def test_four_2022_runs_after_rank_for_p5_score_at_least_their_best_run(shared_data):
    """An earlier issue's case: equal weights ascended alone ended at 0.712, below Aldo-Nadi run 3 by itself
    (0.832)."""
    folder = shared_data / "touche-task2"
    names = ["Aldo-Nadi-run3", "Asuna-run1", "Captain-Tempesta-run1", "Katana-run1"]
    runs = [ranked(read_run(folder / "runs-2022" / f"{name}.txt")) for name in names]
    qrels = read_qrels(folder / "touche-task2-2022-relevance.qrels")
    report = _check_never_below(runs, qrels, "wsum", "rank", "P@5", cv=0)
    assert report["best_single"] == "r0" and report["in_sample_mean"] >= 0.832 - 1e-12


@pytest.mark.parametrize("method", ["wsum", "auto"])
def test_the_choice_does_not_depend_on_the_order_of_the_runs(method):
    runs, qrels = _runs(6, runs=4)
    names = ["a", "b", "c", "d"]
    first = tuned(runs, names, qrels, method, "min-max", "nDCG@5", cv=3, seed=2)
    order = [2, 0, 3, 1]
    second = tuned([runs[i] for i in order], [names[i] for i in order], qrels, method, "min-max", "nDCG@5", cv=3,
                   seed=2)  # fmt: skip
    for key in ("in_sample_mean", "cv_mean", "cv_inner_mean", "cv_best_single_mean", "per_topic", "runs",
                "best_single", "chosen_method", "selection"):  # fmt: skip
        assert first[key] == second[key], key
    assert sorted(first["members"]) == sorted(second["members"])
    for one, other in zip([first, *first["folds"]], [second, *second["folds"]]):
        assert one.get("weights_by_run") == other.get("weights_by_run")
        assert one["chosen_method"] == other["chosen_method"]


def test_folds_deal_each_topic_once_and_follow_the_seed():
    topics = [str(t) for t in range(1, 51)]
    groups = folds(topics, 5, 0)
    assert len(groups) == 5 and sorted(t for g in groups for t in g) == sorted(topics)
    assert folds(topics, 5, 0) == groups != folds(topics, 5, 1)


@pytest.mark.parametrize("method", ["wsum", "wmnz", "auto", "rrf"])
def test_flipping_one_outer_folds_held_out_labels_changes_no_choice_made_for_it(method):
    """Nested cross-validation: the inner folds that choose a fold's fusion (auto, wsum's steps) and the single run
    it is compared with see its training topics only."""
    runs, qrels = _runs(1, runs=4)
    names = ["a", "b", "c", "d"]
    first = tuned(runs, names, qrels, method, "min-max", "nDCG@5", cv=4, seed=0)
    for number, fold in enumerate(first["folds"]):
        flipped = {t: ({d: 2 - v if v >= 0 else v for d, v in labels.items()} if t in fold["topics"] else labels)
                   for t, labels in qrels.items()}  # fmt: skip
        second = tuned(runs, names, flipped, method, "min-max", "nDCG@5", cv=4, seed=0)["folds"][number]
        for key in ("chosen", "chosen_method", "members", "slot", "inner_mean", "training_mean", "best_single"):
            assert second.get(key) == fold.get(key), key
        assert second["held_out_mean"] != fold["held_out_mean"]


def test_the_report_agrees_with_itself():
    runs, qrels = _runs(2)
    report = tuned(runs, ["a", "b", "c"], qrels, "rrf", "min-max", "nDCG@5", cv=4, seed=3)
    assert report["chosen"]["k"] in KS and report["topics"] == 8
    assert report["cv_mean"] == pytest.approx(np.mean(list(report["per_topic"].values())))
    assert report["best_single_mean"] == max(report["runs"].values()) == report["runs"][report["best_single"]]
    sizes = [len(fold["topics"]) for fold in report["folds"]]
    assert sum(sizes) == 8 and all(fold["chosen"]["k"] in KS for fold in report["folds"])
    assert report["norm"] is None and report["names"] == ["a", "b", "c"] and "weights_by_run" not in report
    weighted = tuned(runs, ["a", "b", "c"], qrels, "wsum", "min-max", "nDCG@5", cv=2)
    assert weighted["weights_by_run"] == dict(zip("abc", weighted["chosen"]["weights"]))
    assert all(fold["weights_by_run"] == dict(zip("abc", fold["chosen"]["weights"])) for fold in weighted["folds"])


@pytest.mark.parametrize("method", ["wsum", "auto", "rrf"])
def test_the_cross_validated_figures_agree_with_the_folds(method):
    """cv_mean the held-out topics' mean; cv_best_single_mean each fold's training-best run scored on its held-out
    topics; cv_inner_mean the folds' inner figures; the spread the folds' held-out means."""
    runs, qrels = _runs(7, runs=4, topics=10)
    names = ["a", "b", "c", "d"]
    report = tuned(runs, names, qrels, method, "min-max", "nDCG@5", cv=5, seed=4)
    held_out, single = [], []
    for fold in report["folds"]:
        training = [topic for topic in qrels if topic not in fold["topics"]]
        figures, best = _best_alone(runs, qrels, "nDCG@5", training)
        assert names.index(fold["best_single"]) in best
        alone = _figure(runs[names.index(fold["best_single"])], qrels, "nDCG@5", fold["topics"])
        assert fold["best_single_held_out_mean"] == pytest.approx(alone, abs=1e-12)
        single.extend(_figure(runs[names.index(fold["best_single"])], qrels, "nDCG@5", [t]) for t in fold["topics"])
        held_out.append(fold["held_out_mean"])
    # rrf's inner figure is its training mean; the others' come from inner folds (a fixed weighting chosen alike in
    # every inner fold scores its training mean there too, so only some folds differ)
    same = [fold["inner_mean"] == fold["training_mean"] for fold in report["folds"]]
    assert all(same) if method == "rrf" else not all(same)
    assert report["cv_best_single_mean"] == pytest.approx(np.mean(single), abs=1e-12)
    assert report["cv_gain"] == pytest.approx(report["cv_mean"] - report["cv_best_single_mean"], abs=1e-12)
    assert report["cv_inner_mean"] == pytest.approx(np.mean([fold["inner_mean"] for fold in report["folds"]]))
    assert report["cv_spread"]["sd"] == pytest.approx(np.std(held_out, ddof=1))
    assert (report["cv_spread"]["min"], report["cv_spread"]["max"]) == (min(held_out), max(held_out))
    assert ("selection" in report) == (method != "rrf")


@pytest.mark.parametrize("method", ["wsum", "auto", "rrf"])
def test_repeated_cross_validation_gives_each_seeds_own_figures_and_their_mean(method):
    """Each draw of folds is the cross-validation that seed alone gives (its inner folds seeded from it too); the
    first is the report's own headline, untouched; the means and the gains' spread are over the draws."""
    runs, qrels = _runs(9, runs=4, topics=10)
    names = ["a", "b", "c", "d"]
    report = tuned(runs, names, qrels, method, "min-max", "nDCG@5", cv=5, seed=2, repeats=3)
    alone = [tuned(runs, names, qrels, method, "min-max", "nDCG@5", cv=5, seed=seed) for seed in (2, 3, 4)]
    draws = report["cv_repeats"]
    assert draws["seeds"] == [2, 3, 4] and "cv_repeats" not in alone[0]
    for key in ("cv_mean", "cv_best_single_mean", "cv_gain"):
        assert draws[key] == [single[key] for single in alone]
        assert draws[f"mean_{key}"] == pytest.approx(np.mean(draws[key]))
    assert {key: report[key] for key in alone[0]} == alone[0]
    assert draws["gain_spread"]["sd"] == pytest.approx(np.std(draws["cv_gain"], ddof=1))
    assert len(set(draws["cv_mean"])) > 1  # the draws differ: each is scored on folds of its own
    with pytest.raises(ValueError, match="repeats"):
        tuned(runs, names, qrels, method, "min-max", "nDCG@5", repeats=2)


def test_auto_keeps_the_single_run_where_no_fusion_helps_in_the_inner_folds():
    """One run ranks every topic's relevant documents first, the others rank them last: no fusion can help."""
    runs, qrels = _runs(8, runs=3)
    for index, run in enumerate(runs):
        sign = 1 if index == 1 else -1
        runs[index] = {topic: sorted(((doc, sign * (10.0 if qrels[topic].get(doc, 0) > 0 else score / 100))
                                      for doc, score in docs), key=lambda pair: (-pair[1], pair[0]))
                       for topic, docs in run.items()}  # fmt: skip
    report = tuned(runs, ["a", "b", "c"], qrels, "auto", "min-max", "nDCG@5", cv=4)
    assert report["selection"]["slot"] == "single" and report["weights_by_run"] == {"a": 0.0, "b": 1.0, "c": 0.0}
    assert report["cv_gain"] == 0.0 and all(fold["slot"] == "single" for fold in report["folds"])


def test_the_greedy_weights_leave_out_a_run_that_only_hurts():
    """Run c ranks every topic's judged documents last: its weight drops to 0."""
    runs, qrels = _runs(3)
    judged = {topic: {doc for doc, label in labels.items() if label > 0} for topic, labels in qrels.items()}
    runs[2] = {topic: sorted(((doc, -10.0 if doc in judged[topic] else score) for doc, score in docs),
                             key=lambda pair: (-pair[1], pair[0])) for topic, docs in runs[2].items()}  # fmt: skip
    report = tuned(runs, ["a", "b", "c"], qrels, "wsum", "min-max", "nDCG@5")
    assert report["chosen"]["weights"][2] == 0.0
    assert report["in_sample_mean"] >= _figure(fuse(runs, "wsum", "min-max"), qrels, "nDCG@5")


def test_alike_runs_are_weighed_towards_equal_weights():
    """Six runs, each every document's label plus noise of its own: their mean ranks best, no few greedy steps reach
    it, the path towards equal weights does; the inner folds choose a point on it, held out it beats every run."""
    rng = np.random.default_rng(5)
    qrels = {str(topic): {f"d{doc:02d}": int(rng.integers(0, 3)) for doc in range(40)} for topic in range(1, 31)}
    runs = [{topic: sorted(((doc, label + float(rng.normal(0, 1.5))) for doc, label in labels.items()),
                           key=lambda pair: (-pair[1], pair[0])) for topic, labels in qrels.items()}
            for _ in range(6)]  # fmt: skip
    report = tuned(runs, list("abcdef"), qrels, "wsum", "min-max", "nDCG@5", cv=5)
    assert report["selection"]["slot"].startswith("wsum, the others at ")
    weights = sorted(report["chosen"]["weights"])
    assert weights[-1] == 1.0 and len(set(weights[:-1])) == 1 and weights[0] > 0
    assert report["cv_mean"] > max(report["runs"].values()) and report["cv_gain"] > 0


def test_only_ndcg_and_precision_are_optimised_and_folds_need_two_topics_or_more():
    runs, qrels = _runs(0)
    for measure in ("MAP", "P@0"):
        with pytest.raises(ValueError, match=f"fusion tuning optimises nDCG@k or P@k, not '{measure}'"):
            prepare(runs, "min-max", qrels, measure)
    for cv in (1, 9):
        with pytest.raises(ValueError, match=f"cross-validation needs 2 to 8 folds of the judged topics, not {cv}"):
            tuned(runs, ["a", "b", "c"], qrels, "wsum", "min-max", "nDCG@5", cv=cv)


def test_a_cutoff_beyond_the_fused_depth_is_refused_before_any_work():
    """P@1000000000 once sized arrays by its k: a fused run of depth d never reaches a k beyond it."""
    runs, qrels = _runs(0)
    assert cutoff("nDCG@10") == 10 and cutoff("P@1000") == 1000
    for measure, depth in (("nDCG@1000000000", 1000), ("P@11", 10)):
        with pytest.raises(ValueError, match=f"{measure} reads {int(measure.split('@')[1]):,} documents per topic, "
                                             f"beyond the fused depth {depth:,}"):  # fmt: skip
            tuned(runs, ["a", "b", "c"], qrels, "wsum", "min-max", measure, depth=depth)


def test_huge_scores_give_finite_figures_without_warnings():
    """Scores near the largest double: normalised within range (evaluation.fusion), read as trec_eval reads them."""
    runs, qrels = _runs(1)
    runs[0] = {topic: [(doc, score * 1e307) for doc, score in docs] for topic, docs in runs[0].items()}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for norm in ("none", "max", "min-max", "sum", "zmuv"):
            report = tuned(runs, ["a", "b", "c"], qrels, "wsum", norm, "nDCG@5", cv=2)
            assert np.isfinite(report["in_sample_mean"]) and np.isfinite(report["cv_mean"])
