"""evaluation.fusion against ranx's `fuse`, the reference (a test-only dependency, as rank-bm25 is for BM25): every
method after every normalisation gives ranx's scores on runs without tied scores; and the run's own rules.

One exception: after `borda`, ranx ranks each run's documents for the rank-based methods (rrf, isr, bordafuse,
condorcet) in the order of a Python set of the candidates, which string hashing changes from process to process;
ours ranks them by their normalised score, as after every other normalisation."""

from __future__ import annotations

import numpy as np
import pytest
from ranx import Run, fuse as ranx_fuse

from argrank.evaluation.fusion import METHODS, NORMS, fuse, fused_lines, ranked
from argrank.formats.runfile import RunLine

RANX_METHOD = {"combsum": "sum", "combmnz": "mnz", "combanz": "anz", "combmax": "max", "combmin": "min",
               "combmed": "med"}  # fmt: skip
PARAMS = {"rrf": {"k": 10}, "wsum": {"weights": [0.2, 0.5, 0.3]}, "wmnz": {"weights": [0.2, 0.5, 0.3]}}


def _runs(seed: int, runs: int = 3, topics: int = 4, pool: int = 30) -> list[dict[str, dict[str, float]]]:
    """Random runs: each topic a random share of a pool of documents, scores drawn so that none tie."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(runs):
        run = {}
        for topic in range(1, topics + 1):
            held = rng.choice(pool, size=int(rng.integers(3, pool)), replace=False)
            scores = rng.normal(5, 3, len(held))
            run[str(topic)] = {f"d{doc:03d}": float(score) for doc, score in zip(held, scores)}
        out.append(run)
    return out


def _ours(runs, method, norm):
    as_ranked = [{topic: sorted(docs.items(), key=lambda p: (-p[1], p[0])) for topic, docs in run.items()}
                 for run in runs]  # fmt: skip
    return {topic: dict(docs) for topic, docs in fuse(as_ranked, method, norm, PARAMS.get(method), 10**6).items()}


def _theirs(runs, method, norm):
    fused = ranx_fuse([Run.from_dict(run) for run in runs], norm=None if norm == "none" else norm,
                      method=RANX_METHOD.get(method, method), params=PARAMS.get(method))  # fmt: skip
    return {topic: dict(docs) for topic, docs in fused.to_dict().items()}


def _agree(ours, theirs):
    assert ours.keys() == theirs.keys()
    for topic in ours:
        assert ours[topic].keys() == theirs[topic].keys()
        for doc, score in ours[topic].items():
            assert score == pytest.approx(theirs[topic][doc], rel=1e-12, abs=1e-12), (topic, doc)


RANK_BASED = {"rrf", "isr", "bordafuse", "condorcet"}


COMPARED = [(method, norm) for method in sorted(set(METHODS) - {"condorcet"}) for norm in NORMS
            if not (norm == "borda" and method in RANK_BASED)]  # fmt: skip


@pytest.mark.parametrize(("method", "norm"), COMPARED)
def test_each_method_after_each_normalisation_is_ranxs(method, norm):
    for seed in range(3):
        runs = _runs(seed)
        _agree(_ours(runs, method, norm), _theirs(runs, method, norm))


@pytest.mark.parametrize("norm", sorted(set(NORMS) - {"borda"}))
def test_condorcet_is_ranxs_where_the_majorities_order_the_documents(norm):
    """Three runs that each swap other neighbours of one order: the majority of every pair is that order's."""
    rng = np.random.default_rng(0)
    runs = []
    base = [f"d{doc:03d}" for doc in rng.permutation(20)]
    for offset in range(3):
        order = list(base)
        for i in range(offset, len(order) - 1, 3):
            order[i], order[i + 1] = order[i + 1], order[i]
        runs.append({"1": {doc: float(len(order) - i) + rng.random() * 0.1 for i, doc in enumerate(order)}})
    ours, theirs = _ours(runs, "condorcet", norm), _theirs(runs, "condorcet", norm)
    _agree(ours, theirs)
    assert sorted(ours["1"], key=lambda doc: -ours["1"][doc]) == base


@pytest.mark.parametrize("method", ["rrf", "isr"])
def test_after_borda_a_run_ranks_its_own_documents_first_in_its_order(method):
    """Borda gives a run's missing candidates one score below all it holds: a document every run holds keeps the
    positions, and so the rank-based score, it has without normalisation."""
    runs = _runs(0)
    plain, borda = _ours(runs, method, "none"), _ours(runs, method, "borda")
    for topic in plain:
        everywhere = set.intersection(*(set(run[topic]) for run in runs))
        assert everywhere and all(borda[topic][doc] == plain[topic][doc] for doc in everywhere)


def test_the_fused_run_is_ordered_by_score_then_document_and_cut_at_depth():
    lines = [RunLine("1", "Q0", doc, rank, score, "a") for rank, (doc, score) in
             enumerate([("b", 1.0), ("a", 1.0), ("c", 0.5)], start=1)]  # fmt: skip
    run = ranked(lines)
    assert run == {"1": [("a", 1.0), ("b", 1.0), ("c", 0.5)]}
    fused = fuse([run, run], "combsum", "none", depth=2)
    assert fused == {"1": [("a", 2.0), ("b", 2.0)]}
    assert [(line.doc, line.rank, line.tag) for line in fused_lines(fused, "f")] == [("a", 1, "f"), ("b", 2, "f")]


@pytest.mark.parametrize(
    ("method", "norm", "params", "problem"),
    [
        ("combfoo", "min-max", {}, "unknown fusion method 'combfoo'"),
        ("combsum", "l2", {}, "unknown normalisation 'l2'"),
        ("wsum", "min-max", {"weights": [1.0]}, "wsum needs one weight per run: 1 weights for 2 runs"),
        ("rrf", "min-max", {"c": 1}, "rrf takes no parameter c"),
        ("rrf", "min-max", {"k": -1}, "rrf's k must be a number of at least 0"),
    ],
)
def test_mistakes_are_named(method, norm, params, problem):
    with pytest.raises(ValueError, match=problem):
        fuse([{}, {}], method, norm, params)
