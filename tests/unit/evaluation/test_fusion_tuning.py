"""evaluation.fusion_tuning: the measure computed on arrays is the project's evaluation of the fused run; leaving
out the rows no weighting can bring into the top k changes no weighting's measure; the chosen weights never score
below equal weights nor (wsum) below any run by itself, on all judged topics and in every training fold, by the
report's own figures, whatever the runs (a property over small random runs with ties); the choice does not depend
on the runs' order; folds deal every topic once; a fold's choice never depends on its own topics' judgments; the
report's figures agree with each other."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from argrank.evaluation.fusion import NORMS, fuse, fused_lines, ranked
from argrank.evaluation.fusion_tuning import (
    KS,
    ascend,
    contenders,
    cutoff,
    folds,
    fused_scores,
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


def test_every_ascent_ends_at_least_where_it_started():
    runs, qrels = _runs(5, runs=4)
    prepared = prepare(runs, "min-max", qrels, "nDCG@5")
    starts = np.vstack([np.ones(4), np.eye(4)])
    ends, scored = ascend(prepared, "wsum", range(8), starts)
    assert np.all(scored >= means(prepared, "wsum", range(8), starts))
    assert scored == pytest.approx(means(prepared, "wsum", range(8), ends), abs=0)


def _check_never_below(runs, qrels, method, norm, measure, cv):
    """The guarantee: the report's in-sample mean and every fold's training mean at least what equal weights and,
    for wsum, every run by itself score there, by the project's evaluation."""
    names = [f"r{i}" for i in range(len(runs))]
    report = tuned(runs, names, qrels, method, norm, measure, cv=cv, seed=1)
    equal = fuse(runs, method, norm, {"weights": [1.0] * len(runs)})
    chosen = fuse(runs, method, norm, report["chosen"])
    assert report["in_sample_mean"] == pytest.approx(_figure(chosen, qrels, measure), abs=1e-12)
    assert report["in_sample_mean"] >= _figure(equal, qrels, measure) - 1e-12
    if method == "wsum":
        assert report["in_sample_mean"] >= max(_figure(run, qrels, measure) for run in runs) - 1e-12
        assert report["in_sample_mean"] >= report["best_single_mean"] - 1e-12
    for fold in report.get("folds", []):
        training = [topic for topic in qrels if topic not in fold["topics"]]
        assert fold["training_mean"] >= _figure(equal, qrels, measure, training) - 1e-12
        if method == "wsum":
            assert fold["training_mean"] >= max(_figure(run, qrels, measure, training) for run in runs) - 1e-12
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
@given(data=_small_runs(), method=st.sampled_from(["wsum", "wmnz"]), norm=st.sampled_from(NORMS),
       measure=st.sampled_from(["nDCG@1", "nDCG@3", "P@2", "P@5", "nDCG@10"]), cv=st.sampled_from([0, 2]))  # fmt: skip
def test_the_chosen_weights_never_score_below_equal_weights_or_any_run_alone(data, method, norm, measure, cv):
    runs, qrels = data
    _check_never_below(runs, qrels, method, norm, measure, cv if len(qrels) >= cv else 0)


@pytest.mark.parametrize("norm", ["min-max", "rank", "zmuv"])
def test_the_chosen_weights_never_score_below_any_run_alone_on_random_runs_with_ties(norm):
    for seed in range(3):
        runs, qrels = _runs(seed, runs=4, ties=True)
        _check_never_below(runs, qrels, "wsum", norm, "P@5", cv=3)


def test_four_2022_runs_after_rank_for_p5_score_at_least_their_best_run(shared_data):
    """The issue's case: equal weights ascended alone ended at 0.712, below Aldo-Nadi run 3 by itself (0.832)."""
    folder = shared_data / "touche-task2"
    names = ["Aldo-Nadi-run3", "Asuna-run1", "Captain-Tempesta-run1", "Katana-run1"]
    runs = [ranked(read_run(folder / "runs-2022" / f"{name}.txt")) for name in names]
    qrels = read_qrels(folder / "touche-task2-2022-relevance.qrels")
    report = _check_never_below(runs, qrels, "wsum", "rank", "P@5", cv=0)
    assert report["best_single"] == "r0" and report["in_sample_mean"] >= 0.832 - 1e-12


def test_the_choice_does_not_depend_on_the_order_of_the_runs():
    runs, qrels = _runs(6, runs=4)
    names = ["a", "b", "c", "d"]
    first = tuned(runs, names, qrels, "wsum", "min-max", "nDCG@5", cv=3, seed=2)
    order = [2, 0, 3, 1]
    second = tuned([runs[i] for i in order], [names[i] for i in order], qrels, "wsum", "min-max", "nDCG@5", cv=3,
                   seed=2)  # fmt: skip
    for key in ("in_sample_mean", "cv_mean", "per_topic", "runs", "best_single", "weights_by_run"):
        assert first[key] == second[key], key
    assert [fold["weights_by_run"] for fold in first["folds"]] == [fold["weights_by_run"] for fold in second["folds"]]


def test_folds_deal_each_topic_once_and_follow_the_seed():
    topics = [str(t) for t in range(1, 51)]
    groups = folds(topics, 5, 0)
    assert len(groups) == 5 and sorted(t for g in groups for t in g) == sorted(topics)
    assert folds(topics, 5, 0) == groups != folds(topics, 5, 1)


def test_a_folds_choice_never_depends_on_its_own_topics():
    runs, qrels = _runs(1)
    first = tuned(runs, ["a", "b", "c"], qrels, "wsum", "min-max", "nDCG@5", cv=4, seed=0)
    group = first["folds"][0]["topics"]
    flipped = {t: ({d: 2 - v if v >= 0 else v for d, v in labels.items()} if t in group else labels)
               for t, labels in qrels.items()}  # fmt: skip
    second = tuned(runs, ["a", "b", "c"], flipped, "wsum", "min-max", "nDCG@5", cv=4, seed=0)
    assert second["folds"][0]["chosen"] == first["folds"][0]["chosen"]
    assert second["folds"][0]["held_out_mean"] != first["folds"][0]["held_out_mean"]


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


def test_coordinate_ascent_leaves_out_a_run_that_only_hurts():
    """Run c ranks every topic's judged documents last: its weight drops to 0."""
    runs, qrels = _runs(3)
    judged = {topic: {doc for doc, label in labels.items() if label > 0} for topic, labels in qrels.items()}
    runs[2] = {topic: sorted(((doc, -10.0 if doc in judged[topic] else score) for doc, score in docs),
                             key=lambda pair: (-pair[1], pair[0])) for topic, docs in runs[2].items()}  # fmt: skip
    report = tuned(runs, ["a", "b", "c"], qrels, "wsum", "min-max", "nDCG@5")
    assert report["chosen"]["weights"][2] == 0.0
    assert report["in_sample_mean"] >= _figure(fuse(runs, "wsum", "min-max"), qrels, "nDCG@5")


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
