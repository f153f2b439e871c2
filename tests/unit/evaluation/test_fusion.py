"""evaluation.fusion against ranx's `fuse`, the reference (a test-only dependency, as rank-bm25 is for BM25): every
method after every normalisation gives ranx's scores on runs without tied scores; and the run's own rules: a tie
stays a tie, a run weighted alone ranks as the run, runs of weight 0 take no part, the rank-based methods read no
normalisation but borda, each method shows its own parameters, and a fused Task 2 run carries its members' stance.

One exception: after `borda`, ranx ranks each run's documents for the rank-based methods (rrf, isr, bordafuse,
condorcet) in the order of a Python set of the candidates, which string hashing changes from process to process;
ours ranks them by their normalised score, as after every other normalisation."""

from __future__ import annotations

import numpy as np
import pytest
from ranx import Run, fuse as ranx_fuse

from argrank.evaluation.fusion import (
    METHODS,
    NO_STANCE,
    NORMS,
    RANK_BASED,
    applied_norm,
    carried_stances,
    fuse,
    fused_lines,
    method_params,
    normalised,
    ranked,
    stated_stances,
    tag_problem,
)
from argrank.evaluation.ranking import evaluate
from argrank.formats.runfile import Q0, RunLine

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
        ("rrf", "min-max", {"k": -1}, "rrf's k must be a number from 0 to 1,000,000, got -1"),
        ("rrf", "min-max", {"k": float("inf")}, "rrf's k must be a number from 0 to 1,000,000, got inf"),
        ("rrf", "min-max", {"k": float("nan")}, "rrf's k must be a number from 0 to 1,000,000, got nan"),
        ("wsum", "min-max", {"weights": [float("nan"), 1]}, "from -1,000,000 to 1,000,000, got nan, 1"),
        ("wmnz", "sum", {"weights": [float("inf"), 1]}, "wmnz's weights must be numbers from -1,000,000"),
        ("wsum", "min-max", {"weights": [1e308, 1e308]}, "got 1e\\+308, 1e\\+308"),
        ("wsum", "min-max", {"weights": 0.5}, "wsum's weights are a list of numbers, one per run, not 0.5"),
        ("combsum", "min-max", {}, "a fused run keeps at least 1 document per topic, not 0"),
    ],
)
def test_mistakes_are_named(method, norm, params, problem):
    with pytest.raises(ValueError, match=problem):
        fuse([{}, {}], method, norm, params, depth=0 if "document per topic" in problem else 1000)


def _huge(seed: int) -> list[dict[str, list[tuple[str, float]]]]:
    """Two ranked runs: one of scores up to ±1.7e308, one of ordinary scores."""
    rng = np.random.default_rng(seed)
    return [{str(topic): sorted(((f"d{doc:02d}", float(score) * scale) for doc, score in
                                 zip(rng.choice(30, 20, replace=False), rng.uniform(-1, 1, 20))),
                                key=lambda pair: (-pair[1], pair[0])) for topic in (1, 2)}
            for scale in (1.7e308, 3.0)]  # fmt: skip


def _times(runs: list, factor: float) -> list:
    return [{topic: [(doc, score * factor) for doc, score in docs] for topic, docs in run.items()} for run in runs]


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("method", METHODS)
def test_any_finite_scores_fuse_into_finite_ones_as_the_scaled_runs_do(method, norm):
    """Scores near the largest double used to give nan after min-max and sum (a difference or sum overflowing) and
    all zeros after zmuv. Now such scores are first divided by a power of two: after a normalisation no common
    factor changes, the fused run is the same as for that run divided by 2**900; after none, every run of the topic
    is divided alike, so the scores are those of all runs divided by 2**900, times one power of two."""
    params = {"weights": [1e6, 1e6]} if method in ("wsum", "wmnz") else None
    for seed in range(3):
        runs = _huge(seed)
        fused = fuse(runs, method, norm, params)
        assert all(np.isfinite(score) for docs in fused.values() for _, score in docs)
        if norm == "none":
            scaled = fuse(_times(runs, 2.0**-900), method, norm, params)
            for topic, docs in fused.items():
                factor = docs[0][1] / scaled[topic][0][1] if method not in RANK_BASED else 1.0
                assert factor == 2.0 ** round(np.log2(factor)) and docs == [(d, s * factor) for d, s in scaled[topic]]
        else:
            assert fused == fuse([_times(runs[:1], 2.0**-900)[0], runs[1]], method, norm, params)


@pytest.mark.parametrize(
    ("tag", "problem"),
    [("fused", None), ("Grimjack-run1+fused.v2", None), ("é" * 100, None),
     ("my tag", "one field of visible text"), ("a\nb", "one field"), ("", "one field"), ("a\u200bb", "one field"),
     ("a\x00b", "one field"), ("a\u00a0b", "one field"), ("x" * 101, "at most 100 characters, not 101")],
)  # fmt: skip
def test_a_tag_is_one_field_of_visible_text(tag, problem):
    found = tag_problem(tag)
    assert found is None if problem is None else problem in found
    if problem is None:
        assert fused_lines({"1": [("d", 1.0)]}, tag)[0].tag == tag


def _tied_runs(seed: int, runs: int = 3, topics: int = 4, pool: int = 12) -> list[dict[str, list[tuple[str, float]]]]:
    """Random ranked runs whose scores are small integers, some of them negative: many ties."""
    rng = np.random.default_rng(seed)
    return [{str(topic): sorted(((f"d{doc:02d}", float(score)) for doc, score in
                                 zip(rng.choice(pool, size=int(rng.integers(1, pool)), replace=False),
                                     rng.integers(-3, 4, pool))), key=lambda pair: (-pair[1], pair[0]))
             for topic in range(1, topics + 1)} for _ in range(runs)]  # fmt: skip


@pytest.mark.parametrize("norm", ["rank", "borda"])
def test_a_tie_stays_a_tie_after_rank_and_borda(norm):
    lists = normalised([[("a", 3.0), ("b", 2.0), ("c", 2.0), ("d", 1.0)], [("e", 1.0)]], norm)
    scores = dict(lists[0])
    assert scores["b"] == scores["c"] and scores["a"] > scores["b"] > scores["d"]


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("method", ["wsum", "wmnz"])
def test_a_run_weighted_alone_by_wsum_ranks_as_the_run(method, norm):
    """wsum with one run's weight 1 and the others' 0 gives that run's evaluation: its normalisation keeps its
    order and ties, and the documents only the others hold are left out (after borda, its missing candidates
    follow its own). wmnz alone is not the run: its documents keep the other runs' scores."""
    for seed in range(5):
        runs = _tied_runs(seed)
        qrels = {topic: {f"d{doc:02d}": doc % 3 for doc in range(12)} for topic in runs[0]}
        for alone in range(3):
            weights = [float(run == alone) for run in range(3)]
            fused = fuse(runs, method, norm, {"weights": weights})
            own = evaluate(fused_lines(runs[alone], "own"), qrels, measures=["nDCG@5", "P@3"]).means
            weighted = evaluate(fused_lines(fused, "f"), qrels, measures=["nDCG@5", "P@3"]).means
            if method == "wsum":
                assert all(weighted[m] >= own[m] - 1e-12 for m in own)
                assert norm == "borda" or weighted == pytest.approx(own, abs=1e-12)
                if norm != "borda":
                    assert all({doc for doc, _ in fused[t]} == {doc for doc, _ in runs[alone][t]} for t in fused)


def test_runs_of_weight_0_take_no_part_and_all_0_is_refused():
    runs = [{"1": [("a", 2.0), ("b", 1.0)]}, {"1": [("b", 5.0), ("c", 4.0)]}]
    assert [doc for doc, _ in fuse(runs, "wsum", "none", {"weights": [1, 0]})["1"]] == ["a", "b"]
    assert [doc for doc, _ in fuse(runs, "wmnz", "none", {"weights": [0, 1]})["1"]] == ["b", "c"]
    with pytest.raises(ValueError, match="wsum's weights are all 0: no run takes part"):
        fuse(runs, "wsum", "none", {"weights": [0, 0]})


@pytest.mark.parametrize("method", METHODS)
def test_only_borda_changes_what_a_rank_based_method_reads(method):
    """The claim `applied_norm` makes: a rank-based method fuses alike after every normalisation but borda (which
    ranks each run's missing candidates; condorcet already ranks them below the held ones); a score-based one does
    not."""
    runs = [{topic: dict(docs) for topic, docs in run.items()} for run in _tied_runs(7)]
    fused = {norm: _ours(runs, method, norm) for norm in NORMS}
    if method in RANK_BASED:
        assert all(fused[norm] == fused["none"] for norm in NORMS if norm != "borda")
        assert method == "condorcet" or fused["borda"] != fused["none"]
        assert [applied_norm(method, norm) for norm in NORMS] == [None] * 5 + ["borda", None]
    else:
        assert fused["min-max"] != fused["zmuv"] and [applied_norm(method, norm) for norm in NORMS] == list(NORMS)


def test_a_method_shows_its_own_parameters_with_their_defaults():
    assert method_params("rrf", None, 3) == {"k": 60.0} and method_params("rrf", {"k": 5}, 3) == {"k": 5.0}
    assert method_params("wsum", {}, 2) == {"weights": [1.0, 1.0]} and method_params("wmnz", None, 1) == {
        "weights": [1.0]}
    assert all(method_params(method, None, 3) == {} for method in METHODS if method not in ("rrf", "wsum", "wmnz"))
    with pytest.raises(ValueError, match="combsum takes no parameter k"):
        method_params("combsum", {"k": 1}, 2)


def test_the_stance_is_the_weighted_vote_of_the_members_holding_the_passage():
    """a: FIRST (weight 0.5) against SECOND (0.25 + 0.25): a tie, to the member ranking a highest (the first member
    ranks it 2nd, the second 1st: SECOND), whatever the members' order; b: the same tie, but ranked first on both
    sides: the label first in alphabetical order; c: only a Q0 member and a member of weight 0 hold it, so no vote:
    NO, counted; d: one voter."""
    fused = {"1": [("a", 4.0), ("b", 3.0), ("c", 2.0), ("d", 1.0)]}
    members = [{("1", "a"): "FIRST", ("1", "b"): "FIRST"}, {("1", "a"): "SECOND", ("1", "b"): "SECOND"},
               {("1", "a"): "SECOND", ("1", "b"): "SECOND", ("1", "d"): "NEUTRAL"}, None,
               {("1", "c"): "FIRST"}]  # fmt: skip
    runs = [{"1": [("b", 2.0), ("a", 1.0)]}, {"1": [("a", 2.0), ("b", 1.0)]}, {"1": [("b", 3.0), ("d", 2.0), ("a", 1.0)]},
            {"1": [("a", 1.0)]}, {"1": [("c", 1.0)]}]  # fmt: skip
    stances, unvoted = carried_stances(fused, members, runs, [0.5, 0.25, 0.25, 1.0, 0.0])
    assert stances == {("1", "a"): "SECOND", ("1", "b"): "FIRST", ("1", "c"): NO_STANCE, ("1", "d"): "NEUTRAL"}
    assert unvoted == 1
    order = [2, 0, 4, 1, 3]
    again, _ = carried_stances(fused, [members[i] for i in order], [runs[i] for i in order], [0.25, 0.5, 0.0, 0.25, 1.0])
    assert again == stances  # the members in another order: the same stances
    stances, _ = carried_stances(fused, members[1:3] + members[:1], runs[1:3] + runs[:1], [0.3, 0.3, 0.5])
    assert stances["1", "a"] == "SECOND"  # SECOND 0.6 against FIRST 0.5
    both_first = [{"1": [("a", 1.0), ("b", 0.5)]}, {"1": [("a", 1.0), ("b", 0.5)]}]
    stances, _ = carried_stances(fused, [members[0], members[1]], both_first, [0.1 + 0.2, 0.3])
    assert stances["1", "a"] == "FIRST"  # 0.30000000000000004 ties 0.3, both rank it first: alphabetical
    assert [line.q0 for line in fused_lines(fused, "f", stances)] == ["FIRST", "FIRST", NO_STANCE, NO_STANCE]
    assert {line.q0 for line in fused_lines(fused, "f")} == {Q0}


def test_a_members_stance_is_its_column_2_on_every_line_or_none():
    lines = [RunLine("1", "FIRST", "a", 1, 2.0, "t"), RunLine("1", "NO", "b", 2, 1.0, "t")]
    assert stated_stances(lines) == {("1", "a"): "FIRST", ("1", "b"): "NO"}
    assert stated_stances([RunLine("1", Q0, "a", 1, 2.0, "t")]) is None and stated_stances([]) is None
    with pytest.raises(ValueError, match="topic 1, document c: column 2 is 'Q0' but 'FIRST' on the run's first line"):
        stated_stances([*lines, RunLine("1", Q0, "c", 3, 0.5, "t")])
