"""The reproducibility measures equal repro_eval's (the reference implementation, a test-only dependency) on real
2022 Task 2 runs: Kendall's tau Union, RBO, RMSE, effect ratio and delta RI."""

from __future__ import annotations

import math
import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st
from repro_eval.measure.document_order import KTU, RBO
from repro_eval.measure.effectiveness import RMSE
from repro_eval.measure.overall_effects import DRI, ER

from argrank.evaluation.paper_table import latex_grid, markdown_grid
from argrank.evaluation.reproducibility import (
    Reproducibility,
    TopRanked,
    against_reference,
    delta_ri,
    effect_ratio,
    kendall_tau_union,
    rank_biased_overlap,
    rmse,
    trec_order,
    undefined_note,
    undefined_tau,
)
from argrank.formats.runfile import RunLine, read_run, watched
from argrank.tracks.registry import track

RUNS = ("Aldo-Nadi-run3", "Captain-Tempesta-run1", "Grimjack-run1", "Grimjack-run3", "Katana-run1",
        "Puss-in-Boots-run1")


@pytest.fixture(scope="module")
def task2(shared_data):
    folder = shared_data / "touche-task2"
    comparative = track("comparative")
    qrels = comparative.read_qrels(folder / "touche-task2-2022-relevance.qrels")
    lines = {name: read_run(folder / "runs-2022" / f"{name}.txt") for name in RUNS}
    runs = {}  # as repro_eval's load_run nests a run: topic → document → score, in the file's order
    for name, run in lines.items():
        for line in run:
            runs.setdefault(name, {}).setdefault(line.qid, {})[line.doc] = line.score
    scores = {name: comparative.score(run, qrels, ["nDCG@5", "P@5"], None, "judged-topics").per_topic
              for name, run in lines.items()}  # fmt: skip
    return runs, scores


@pytest.mark.parametrize("pair", [("Aldo-Nadi-run3", "Captain-Tempesta-run1"), ("Grimjack-run1", "Grimjack-run3")])
def test_document_order_measures_equal_repro_evals(task2, pair):
    original, reproduced = (task2[0][name] for name in pair)  # 1,000 and 100 documents per topic
    assert all(len(reproduced[t]) == len(original[t]) for t in reproduced)  # as repro_eval's tau needs them
    ours_ktu = kendall_tau_union(trec_order(original), trec_order(reproduced))
    assert ours_ktu == pytest.approx(KTU(dict(original), dict(reproduced), per_topic=True), abs=1e-12)
    ours_rbo = rank_biased_overlap(trec_order(original), trec_order(reproduced))
    theirs = RBO(dict(original), dict(reproduced), p=0.95, depth=1000, pbar=False, per_topic=True)
    assert ours_rbo == pytest.approx(theirs, abs=1e-12)
    assert len(set(ours_rbo.values())) > 10  # the topics differ: a real test, not one constant
    length = min(len(docs) for docs in original.values())
    same = rank_biased_overlap(trec_order(original), trec_order(original), depth=length)
    assert all(value == pytest.approx(1.0) for value in same.values())  # to the lists' depth, identical lists: 1
    # Lists of different lengths: tau over the shorter one's length, where repro_eval fails.
    cut = {t: docs[:10] for t, docs in trec_order(reproduced).items()}
    assert kendall_tau_union(trec_order(original), cut) == pytest.approx(
        kendall_tau_union({t: d[:10] for t, d in trec_order(original).items()}, cut))


def test_effectiveness_and_overall_effects_equal_repro_evals(task2):
    _, scores = task2
    reference, reference_baseline = scores["Aldo-Nadi-run3"], scores["Puss-in-Boots-run1"]
    run, baseline = scores["Grimjack-run1"], scores["Katana-run1"]
    for measure in ("nDCG@5", "P@5"):
        assert rmse(reference, run, measure) == pytest.approx(RMSE(reference, run)[measure], abs=1e-12)
        er = ER(reference, reference_baseline, run, baseline)[measure]
        assert effect_ratio(reference, reference_baseline, run, baseline, measure) == pytest.approx(er, abs=1e-12)
        dri = DRI(reference, reference_baseline, run, baseline)[measure]
        assert delta_ri(reference, reference_baseline, run, baseline, measure) == pytest.approx(dri, abs=1e-12)


def test_a_perfect_reproduction_and_no_effect():
    scores = {"1": {"m": 0.5}, "2": {"m": 0.7}}
    baseline = {"1": {"m": 0.4}, "2": {"m": 0.6}}
    assert rmse(scores, scores, "m") == 0.0
    assert effect_ratio(scores, baseline, scores, baseline, "m") == pytest.approx(1.0)
    assert delta_ri(scores, baseline, scores, baseline, "m") == pytest.approx(0.0)
    assert math.isinf(effect_ratio(baseline, baseline, scores, baseline, "m"))  # the original had no effect
    ranking = {"1": ["a", "b", "c"]}
    assert kendall_tau_union(ranking, {"1": ["c", "b", "a"]}) == {"1": pytest.approx(-1.0)}
    assert trec_order({"1": {"a": 1.0, "b": 2.0, "c": 1.0}}) == {"1": ["b", "c", "a"]}  # ties: id descending


@given(
    st.dictionaries(
        st.tuples(st.sampled_from("123"), st.text("abcd", min_size=1, max_size=3)),
        st.sampled_from([0.0, 0.5, 1.0, 2.5, -1.0]),  # few scores: ties, broken by document id
        max_size=60,
    ),
    st.integers(1, 8),
)
def test_top_ranked_keeps_each_topics_top_in_trec_order(scored, depth):
    """Read once, cut back as it goes: each topic's first `depth` documents of trec_order over the whole run."""
    lines = [RunLine(topic, "Q0", doc, 0, score, "t") for (topic, doc), score in scored.items()]
    top = TopRanked(depth)
    assert list(watched(lines, top)) == lines
    whole: dict[str, dict[str, float]] = {}
    for line in lines:
        whole.setdefault(line.qid, {})[line.doc] = line.score
    assert top.ranking() == {topic: docs[:depth] for topic, docs in trec_order(whole).items()}


def test_top_ranked_to_the_measures_depth_gives_the_whole_runs_figures(task2):
    """KTU and RBO read each topic's top 1,000: from the kept top they equal those from every line."""
    runs, _ = task2
    reference = trec_order(runs["Grimjack-run1"])
    for name in ("Grimjack-run3", "Katana-run1"):
        top = TopRanked()
        for topic, docs in runs[name].items():
            for doc, score in docs.items():
                top(RunLine(topic, "Q0", doc, 0, score, "t"))
        whole = trec_order(runs[name])
        assert kendall_tau_union(reference, top.ranking()) == kendall_tau_union(reference, whole)
        assert rank_biased_overlap(reference, top.ranking()) == rank_biased_overlap(reference, whole)


def test_the_figures_as_a_terminal_table_and_as_a_papers_table_that_names_no_file():
    result = {"mine": {"ktu": 0.123456, "rbo": 0.9, "rmse": {"nDCG@5": 0.05}, "er": {"nDCG@5": math.inf},
                       "delta_ri": {"nDCG@5": math.nan}}}  # fmt: skip
    shown = Reproducibility("runs/published.txt", "runs/published-bm25.txt", "bm25", result, ["nDCG@5"])
    text = shown.text(decimals=2)
    assert "against the reference runs/published.txt" in text and "runs/published-bm25.txt" in text
    assert text.splitlines()[-1].split() == ["mine", "0.12", "0.90", "0.05", "inf", "-"]
    grid = shown.grid(decimals=3)
    assert grid.header == ["run", "KTU", "RBO", "RMSE nDCG@5", "ER nDCG@5", "dRI nDCG@5"]
    assert "published" not in grid.caption and ".txt" not in grid.caption and "baseline bm25" in grid.caption
    assert r"mine & 0.123 & 0.900 & 0.050 & inf & - \\" in latex_grid(grid, shown.label).splitlines()
    assert "| mine | 0.123 | 0.900 | 0.050 | inf | - |" in markdown_grid(grid)


def test_topics_with_fewer_than_two_ranks_have_no_tau_and_one_note_says_why():
    """compare --reference on few shared topics once showed scipy's raw SmallSampleWarning and KTU as "-" unsaid."""
    reference = {"1": ["a", "b", "c"], "2": ["a"]}
    run = {"1": ["b", "a", "c"], "2": ["a", "b"], "3": ["x", "y"]}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        taus = kendall_tau_union(reference, run)
    assert set(taus) == {"1"} and undefined_tau(reference, run) == ["2", "3"]
    result = against_reference(reference, {}, {}, {"mine": run, "alone": {"2": ["a"]}}, {"mine": {}, "alone": {}},
                               {}, [])  # fmt: skip
    assert result["mine"]["ktu"] == taus["1"] and result["alone"]["ktu"] is None
    note = undefined_note("ref.txt", result)
    assert note.startswith("against the reference ref.txt, Kendall's tau Union needs two ranks in both lists")
    assert note.endswith("mine: averaged without 2, 3; alone: no topic, so KTU is shown as - 2")
    assert undefined_note("ref.txt", {"mine": {"ktu": 0.5, "ktu_undefined": []}}) is None
