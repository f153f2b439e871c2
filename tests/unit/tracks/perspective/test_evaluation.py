"""Perspective scores on hand-computed cases: nDCG, P, α-nDCG and rKL, with the decisions the released evaluator
leaves open (repeats in a list, short and missing lists, the implicit scenario's copies, which variables count).

Expected values are written out with math.log, as one would on paper; DCG discounts are 1 / log2(rank + 1).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from argrank.tracks.perspective.data import ISSUES, PROFILE_COLUMNS, Corpus, Query
from argrank.tracks.perspective.evaluation import (
    at_every_k,
    csv_tables,
    evaluate_perspective,
    format_means,
    own_variable,
    socio_variables,
)


def d(rank: int) -> float:
    """The discount of a rank."""
    return 1 / math.log2(rank + 1)


def kl(p: float, q: float) -> float:
    """scipy.special.kl_div written out: p ln(p / q) − p + q, and q where p is 0."""
    return (p * math.log(p / q) if p else 0.0) - p + q


def make_corpus(count: int, texts: list[str] | None = None, stance: list[str] | None = None, **columns) -> Corpus:
    """Arguments 1..count; a profile column not given is one value for all (so it is no socio variable)."""
    profiles = {name: np.array(columns.get(name, ["x"] * count)) for name in PROFILE_COLUMNS if name != ISSUES}
    profiles[ISSUES] = columns.get(ISSUES, [[] for _ in range(count)])
    return Corpus(
        ids=np.arange(1, count + 1, dtype=np.int64),
        texts=texts or [f"text {i}" for i in range(1, count + 1)],
        stance=np.array(stance or ["FAVOR"] * count),
        topic=np.array(["t"] * count),
        profiles=profiles,
    )


def query(query_id: str, relevant: list[int] | None, **prop) -> Query:
    return Query(query_id, "?", relevant, prop or None)


def score(corpus: Corpus, relevant: list[int], listed: list[int], scenario: str = "explicit") -> dict:
    """The result for one query "1" with these relevant ids and this list."""
    return evaluate_perspective(corpus, [query("1", relevant)], {"1": listed}, scenario)


GENDERS = make_corpus(8, gender=["m", "m", "w", "d", "m", "w", "m", "w"])


def test_ndcg_and_precision_with_fewer_relevant_than_k_and_a_short_list():
    result = score(GENDERS, [1, 2], [3, 1, 4, 2])
    # relevant at ranks 2 and 4; the ideal has 2 relevant arguments on top
    expected = (d(2) + d(4)) / (d(1) + d(2))
    assert result.means["nDCG@4"] == pytest.approx(expected) == pytest.approx(0.65092, abs=1e-5)
    assert result.means["nDCG@20"] == pytest.approx(expected)  # nothing more listed, the ideal has no more
    assert result.means["P@4"] == pytest.approx(2 / 4)
    assert result.means["P@8"] == result.means["P@20"] == pytest.approx(2 / 4)  # 2 relevant / min(8, 4 listed)
    assert result.per_query == {"1": {name: result.means[name] for name in at_every_k(("nDCG", "P"))}}


def test_ndcg_with_more_relevant_than_k():
    result = score(GENDERS, [1, 2, 3, 4, 5, 6], [1, 7, 2, 3, 4, 5, 6, 8])
    # relevant at ranks 1, 3, 4; the ideal fills all 4 ranks
    assert result.means["nDCG@4"] == pytest.approx((d(1) + d(3) + d(4)) / (d(1) + d(2) + d(3) + d(4)))
    assert result.means["nDCG@4"] == pytest.approx(0.75370, abs=1e-5)
    assert result.means["P@4"] == pytest.approx(3 / 4) and result.means["P@8"] == pytest.approx(6 / 8)
    # at 8: relevant at ranks 1 and 3..7; the ideal has its 6 relevant arguments then non-relevant ones
    ranks = (1, 3, 4, 5, 6, 7)
    assert result.means["nDCG@8"] == pytest.approx(sum(map(d, ranks)) / sum(map(d, range(1, 7))))


def test_alpha_ndcg_penalises_a_value_seen_higher_up_even_on_a_non_relevant_argument():
    # genders: 1 m, 2 m, 3 w, 4 d, 5 m, 6 w; relevant 1, 2, 3, 5: 4 arguments with 2 distinct values (m, w)
    ideal = d(1) + d(2) + 0.5 * (d(3) + d(4))  # one m and one w at gain 1, then two m at 1 − α
    result = score(GENDERS, [1, 2, 3, 5], [1, 2, 4, 3])
    # 1 m new: 1; 2 m seen: ½; 4 d not relevant: 0 (marks d); 3 w new: 1
    expected = (d(1) + 0.5 * d(2) + d(4)) / ideal
    assert result.diversity_per_variable["gender"]["alpha-nDCG@4"] == pytest.approx(expected)
    result = score(GENDERS, [1, 2, 3, 5], [6, 1, 3, 2])
    # 6 w not relevant: 0, but marks w; 1 m new: 1; 3 w seen (by 6): ½; 2 m seen: ½
    expected = (d(2) + 0.5 * d(3) + 0.5 * d(4)) / ideal
    assert result.diversity_per_variable["gender"]["alpha-nDCG@4"] == pytest.approx(expected)
    assert result.means["alpha-nDCG@4"] == pytest.approx(expected)  # gender is the only variable that varies


def test_alpha_ndcg_ideal_holds_the_first_1000_relevant_arguments():
    corpus = make_corpus(1002, gender=["m"] * 1000 + ["w", "m"])
    result = score(corpus, list(range(1, 1002)), [1001, 1, 2, 3])
    # relevant: 1000 m then 1001 (w); the ideal list stops at 1,000, so it has one distinct value: m
    ideal = d(1) + 0.5 * (d(2) + d(3) + d(4))
    listed = d(1) + d(2) + 0.5 * (d(3) + d(4))  # 1001 w new, 1 m new, then m seen twice
    assert result.means["alpha-nDCG@4"] == pytest.approx(listed / ideal)  # above 1, as the released script scores it
    assert result.means["nDCG@4"] == pytest.approx(1.0)


def test_rkl_against_the_corpus_shares_without_the_majority_value():
    # 10 arguments: m 6, w 3, d 1; m is the majority and dropped: Q(w) = 0.3, Q(d) = 0.1
    corpus = make_corpus(10, gender=["m", "w", "m", "d", "m", "w", "m", "w", "m", "m"])
    result = score(corpus, [2], [2, 1, 4, 3])  # w, m, d, m
    # at 4 the cut-offs are 2 and 4 (weights 1/log2 2 = 1 and 1/log2 4 = ½)
    w = (kl(1 / 2, 0.3) * 1 + kl(1 / 4, 0.3) * 0.5) / 1.5
    d_ = (kl(0, 0.1) * 1 + kl(1 / 4, 0.1) * 0.5) / 1.5
    assert result.means["rKL@4"] == pytest.approx((w + d_) / 2) == pytest.approx(0.06572, abs=1e-5)
    # at 8 the list of 4 is short: P at cut-off 8 is the count over 8
    z = 1 + 0.5 + 1 / math.log2(8)
    w = (kl(1 / 2, 0.3) + kl(1 / 4, 0.3) * 0.5 + kl(1 / 8, 0.3) / 3) / z
    d_ = (kl(0, 0.1) + kl(1 / 4, 0.1) * 0.5 + kl(1 / 8, 0.1) / 3) / z
    assert result.means["rKL@8"] == pytest.approx((w + d_) / 2)


def test_rkl_drops_the_majority_value_first_seen_when_tied():
    corpus = make_corpus(4, gender=["w", "m", "m", "w"])  # 2 and 2: w comes first, so m is scored (Q = ½)
    result = score(corpus, [2], [2])
    assert result.means["rKL@4"] == pytest.approx((kl(1 / 2, 0.5) + kl(1 / 4, 0.5) * 0.5) / 1.5)


def test_a_repeated_argument_keeps_its_rank_but_gains_nothing():
    result = score(GENDERS, [1, 3], [1, 1, 3])  # 1 m, 1 again, 3 w
    # the released script would count 1 twice: (d(1) + d(2) + d(3)) / (d(1) + d(2)) > 1
    assert result.means["nDCG@4"] == pytest.approx((d(1) + d(3)) / (d(1) + d(2)))
    assert result.means["P@4"] == pytest.approx(2 / 3)  # 2 relevant arguments among the 3 listed
    # Both values are new where they gain.
    assert result.means["alpha-nDCG@4"] == pytest.approx((d(1) + d(3)) / (d(1) + d(2)))
    # in rKL the repeat takes its slot: w (Q = 3/8; d's is 1/8) is pushed to rank 3, out of the top 2
    w = (kl(0, 3 / 8) * 1 + kl(1 / 4, 3 / 8) * 0.5) / 1.5
    d_ = (kl(0, 1 / 8) * 1 + kl(0, 1 / 8) * 0.5) / 1.5
    assert result.means["rKL@4"] == pytest.approx((w + d_) / 2)


def test_implicit_scenario_counts_arguments_with_a_relevant_text():
    corpus = make_corpus(3, texts=["A", "A", "B"], gender=["m", "w", "m"])
    assert score(corpus, [1], [2, 3], "explicit").means["nDCG@4"] == 0.0
    assert score(corpus, [1], [2, 3], "implicit").means["nDCG@4"] == pytest.approx(1.0)  # 2 has 1's text
    # the ideal keeps the query's own count (1 relevant argument), so two copies score above 1
    result = score(corpus, [1], [2, 1], "implicit")
    assert result.means["nDCG@4"] == pytest.approx((d(1) + d(2)) / d(1))
    assert result.means["P@4"] == pytest.approx(1.0)


def test_socio_variables_skip_constants_and_denomination():
    corpus = make_corpus(
        3,
        stance=["FAVOR", "AGAINST", "FAVOR"],
        denomination=["a", "b", "c"],
        age=["18-34", "65+", "65+"],
        important_political_issues=[["I1", "I2"], ["I1"], ["I1", "I2"]],
    )
    variables = socio_variables(corpus)
    assert list(variables) == ["stance", "age", "important_political_issue:I2"]  # I1 is important to all
    assert variables["important_political_issue:I2"].tolist() == ["important", "neutral", "important"]


def test_each_query_leaves_its_own_variable_out_unless_all_variables():
    corpus = make_corpus(
        6,
        gender=["m", "w", "m", "w", "m", "w"],
        age=["18-34", "18-34", "65+", "65+", "65+", "18-34"],
        important_political_issues=[["I"], [], [], ["I"], [], []],
    )
    queries = [query("1", [1, 2, 3], gender="m"), query("2", [2, 4], age_bin="65+"),
               query("3", [1, 4], important_political_issue="I"), query("4", [5], denomination="x")]  # fmt: skip
    predictions = {"1": [1, 2, 3, 4], "2": [4, 2, 6], "3": [5, 1, 4], "4": [5, 6]}
    assert [own_variable(q) for q in queries] == ["gender", "age", "important_political_issue:I", "denomination"]

    def alone(number: int) -> dict[str, dict[str, float]]:
        """Each variable's scores for one query by itself."""
        one = queries[number]
        result = evaluate_perspective(corpus, [one], predictions, "explicit", all_variables=True)
        return result.diversity_per_variable

    singles = [alone(n) for n in range(4)]
    default = evaluate_perspective(corpus, queries, predictions, "explicit")
    everything = evaluate_perspective(corpus, queries, predictions, "explicit", all_variables=True)
    for variable, own in [("gender", 0), ("age", 1), ("important_political_issue:I", 2)]:
        for name in ("alpha-nDCG@4", "rKL@20"):
            others = [singles[n][variable][name] for n in range(4) if n != own]
            assert default.diversity_per_variable[variable][name] == pytest.approx(sum(others) / 3)
            assert everything.diversity_per_variable[variable][name] == pytest.approx(
                sum(singles[n][variable][name] for n in range(4)) / 4
            )
    assert default.means["alpha-nDCG@4"] != pytest.approx(everything.means["alpha-nDCG@4"])
    for result in (default, everything):
        for name in at_every_k(("alpha-nDCG", "rKL")):
            per_variable = [scores[name] for scores in result.diversity_per_variable.values()]
            assert result.means[name] == pytest.approx(sum(per_variable) / 3)


def test_a_variable_no_query_counts_for_is_left_out():
    corpus = make_corpus(4, gender=["m", "w", "m", "w"], age=["a", "a", "b", "b"])
    result = evaluate_perspective(corpus, [query("1", [1], gender="w")], {"1": [1, 2]}, "explicit")
    assert list(result.diversity_per_variable) == ["age"]


def test_a_query_missing_from_the_predictions_counts_as_an_empty_list():
    corpus = make_corpus(4, gender=["m", "m", "m", "w"])  # Q(w) = ¼
    result = evaluate_perspective(corpus, [query("1", [1]), query("2", [4])], {"1": [1], "9": [2]}, "baseline")
    assert result.queries == 2 and list(result.per_query) == ["1", "2"]
    assert set(result.per_query["2"].values()) == {0.0}
    assert result.means["nDCG@4"] == pytest.approx(0.5) and result.means["P@20"] == pytest.approx(0.5)
    empty = kl(0, 0.25)  # no w at any cut-off: kl_div(0, ¼) = ¼ at each, so ¼ after weighting
    query_1 = (kl(0, 0.25) * 1 + kl(0, 0.25) * 0.5) / 1.5  # [1] is m: no w either
    assert result.means["rKL@4"] == pytest.approx((query_1 + empty) / 2) == pytest.approx(0.25)
    assert result.means["alpha-nDCG@4"] == pytest.approx(0.5)


@pytest.mark.parametrize(
    ("queries", "predictions", "scenario", "problem"),
    [
        ([query("1", None)], {}, "baseline", "query 1 has no relevant_candidates"),
        ([query("1", [1, 99])], {}, "baseline", "query 1: relevant argument 99 is not in the corpus"),
        ([query("1", [1])], {"1": [1, 0]}, "baseline", "query 1: argument 0 is not in the corpus"),
        ([query("1", [1])], {}, "perspective", "unknown scenario 'perspective'"),
        ([], {}, "baseline", "no queries to evaluate"),
    ],
)
def test_errors(queries, predictions, scenario, problem):
    with pytest.raises(ValueError, match=problem):
        evaluate_perspective(GENDERS, queries, predictions, scenario)


def test_no_varying_variable_is_an_error():
    with pytest.raises(ValueError, match="no socio variable varies"):
        score(make_corpus(3), [1], [1])


def test_tables():
    result = evaluate_perspective(GENDERS, [query("2", [1, 3]), query("10", [2])], {"2": [1, 3], "10": [4]}, "explicit")
    tables = csv_tables(result)
    assert tables["relevance.csv"].splitlines()[0] == "k,nDCG,P"
    assert tables["relevance.csv"].splitlines()[1] == f"4,{result.means['nDCG@4']:.6f},{result.means['P@4']:.6f}"
    assert tables["diversity.csv"].splitlines()[1:] == [
        f"{k},{result.means[f'alpha-nDCG@{k}']:.6f},{result.means[f'rKL@{k}']:.6f}" for k in (4, 8, 16, 20)
    ]
    assert tables["diversity_per_variable.csv"].splitlines()[1].startswith("gender,4,")
    assert [line.split(",")[0] for line in tables["relevance_per_query.csv"].splitlines()] == ["query", "2", "10"]
    lines = format_means(result).splitlines()
    assert lines[0].split() == ["k", "nDCG", "P", "alpha-nDCG", "rKL"] and len(lines) == 5
    assert lines[1].split()[1] == f"{result.means['nDCG@4']:.4f}"
