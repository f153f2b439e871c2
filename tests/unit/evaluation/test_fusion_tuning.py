"""evaluation.fusion_tuning: its array measure is the project's evaluation of the fused run; folds deal every topic
once; a fold's choice never depends on its own topics' judgments; the report's figures agree with each other."""

from __future__ import annotations

import numpy as np
import pytest

from argrank.evaluation.fusion import fuse, fused_lines
from argrank.evaluation.fusion_tuning import KS, choose, folds, fused_scores, prepare, topic_scores, tuned
from argrank.evaluation.ranking import evaluate


def _runs(seed: int, runs: int = 3, topics: int = 8, pool: int = 40):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(runs):
        run = {}
        for topic in range(1, topics + 1):
            held = rng.choice(pool, size=int(rng.integers(10, pool)), replace=False)
            scored = [(f"d{doc:03d}", float(score)) for doc, score in zip(held, rng.normal(5, 3, len(held)))]
            run[str(topic)] = sorted(scored, key=lambda pair: (-pair[1], pair[0]))
        out.append(run)
    qrels = {str(t): {f"d{doc:03d}": int(rng.integers(-2, 3)) for doc in range(0, pool, 2)} for t in range(1, topics + 1)}
    return out, qrels


@pytest.mark.parametrize("measure", ["nDCG@5", "P@10", "nDCG@20"])
@pytest.mark.parametrize(("method", "params"), [("wsum", {"weights": [0.2, 0.7, 0.1]}), ("wmnz", {"weights": [1, 0, 0.5]}),
                                                ("rrf", {"k": 20})])  # fmt: skip
def test_the_array_measure_is_the_evaluation_of_the_fused_run(measure, method, params):
    runs, qrels = _runs(0)
    prepared = prepare(runs, "min-max", qrels, measure)
    ours = topic_scores(prepared, fused_scores(prepared, method, params), range(len(prepared.topics)))
    fused = fused_lines(fuse(runs, method, "min-max", params), "f")
    theirs = evaluate(fused, qrels, measures=[measure]).per_topic
    assert ours.tolist() == pytest.approx([theirs[topic][measure] for topic in prepared.topics], abs=1e-12)


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


def test_coordinate_ascent_leaves_out_a_run_that_only_hurts():
    """Run c ranks every topic's judged documents last: its weight drops to 0."""
    runs, qrels = _runs(3)
    judged = {topic: {doc for doc, label in labels.items() if label > 0} for topic, labels in qrels.items()}
    runs[2] = {topic: sorted(((doc, -10.0 if doc in judged[topic] else score) for doc, score in docs),
                             key=lambda pair: (-pair[1], pair[0])) for topic, docs in runs[2].items()}  # fmt: skip
    prepared = prepare(runs, "min-max", qrels, "nDCG@5")
    params, mean = choose(prepared, "wsum", range(len(prepared.topics)))
    assert params["weights"][2] == 0.0
    assert mean >= topic_scores(prepared, fused_scores(prepared, "wsum", {"weights": [1, 1, 1]}),
                                range(len(prepared.topics))).mean()  # fmt: skip


def test_only_ndcg_and_precision_are_optimised():
    runs, qrels = _runs(0)
    with pytest.raises(ValueError, match="fusion tuning optimises nDCG@k or P@k, not 'MAP'"):
        prepare(runs, "min-max", qrels, "MAP")
