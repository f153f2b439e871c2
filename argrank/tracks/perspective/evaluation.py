"""Perspective argument retrieval scores as the task's released evaluator computes them: relevance (nDCG@k, P@k)
and diversity over the authors' socio-cultural variables (α-nDCG@k, rKL@k), for k in K, binary relevance.

- nDCG@k: DCG = Σ gain_i / log2(i + 1); the ideal list is the query's relevant arguments (at most IDEAL_LENGTH)
  then non-relevant ones; 0 where the ideal DCG is 0.
- P@k: relevant arguments in the top k / min(k, length of the list); 0 for an empty list (nothing shown, nothing
  relevant), which is also what a query missing from the predictions scores.
- α-nDCG@k per variable: a relevant argument gains 1 − ALPHA where an argument higher up (relevant or not) has its
  value, else 1. The ideal list holds the query's own relevant arguments (distinct, at most IDEAL_LENGTH, in file
  order): first one argument of each distinct value among them (gain 1 each), then the rest of them (gain 1 − ALPHA
  each), so its DCG depends only on how many relevant arguments and distinct values there are.
- rKL@k per variable: Q is each value's share of the whole corpus, the majority value dropped (of tied values the
  one first seen in the corpus); for each other value, Σ over cut-offs c ≤ k of kl_div(P_c, Q) / log2(c), divided by
  Σ 1 / log2(c), where P_c is the value's count among the top c divided by c (a list shorter than c counts as having
  none of it past its end, as the released script does); the mean over those values. Lower is better.
- Variables: stance, the profile's gender, age, residence, civil_status, education and political_spectrum, and one
  variable per political issue (important/neutral); not denomination; a variable constant over the corpus is
  skipped. Diversity is averaged per (k, variable) over queries, then over variables: by default a query leaves out
  its own property's variable (the task's rule); `all_variables` keeps it, as the released script does.
- Implicit scenario: an argument with the same text as a relevant one counts as relevant too; the ideal list keeps
  the query's own relevant arguments, so a list full of text copies can score above 1 there, as in the release.

Where the released script is silent or unsafe: an argument listed again further down (released: a repeated relevant
id gains twice, so nDCG could pass 1) keeps its rank but gains nothing there — it still takes a slot, counts in
P@k's list length and in rKL's shares; `read_predictions` refuses a file with such a list. A query without
predictions counts as an empty list everywhere (released: predictions are paired with queries by line order).
Predictions for queries not in the query file are ignored.
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

import argrank.lazylibs as lazylibs
from argrank.evaluation.in_sample import InSample, in_sample_json, marked, notes
from argrank.formats.topics import topic_order
from argrank.tracks.perspective.data import ISSUES, QUERY_PROPERTY_TO_CORPUS, SCENARIOS, Corpus, Query

K = (4, 8, 16, 20)
ALPHA = 0.5
RKL_CUTOFFS = (2, 4, 8, 10, 12, 14, 16, 18, 20)
IDEAL_LENGTH = 1000
RELEVANCE = ("nDCG", "P")
DIVERSITY = ("alpha-nDCG", "rKL")
SOCIO_COLUMNS = ("gender", "age", "residence", "civil_status", "education", "political_spectrum")
ISSUE_PREFIX = "important_political_issue:"

_DEPTH = max(K)
_DISCOUNTS = 1.0 / np.log2(np.arange(2, _DEPTH + 2))
_TOP_DCG = np.concatenate([[0.0], np.cumsum(_DISCOUNTS)])  # _TOP_DCG[n]: DCG of gain 1 at ranks 1..n
_EARLIER = np.tril(np.ones((_DEPTH, _DEPTH), dtype=bool), -1)  # _EARLIER[i, j]: rank j is above rank i


def at_every_k(measures: tuple[str, ...]) -> list[str]:
    """Result keys such as "nDCG@4", measure by measure, each for every k."""
    return [f"{measure}@{k}" for measure in measures for k in K]


@dataclass(frozen=True)
class PerspectiveScores:
    """One scenario's ranking of one split scored: the mean of every measure at every k, relevance per query (in
    query id order) and diversity per variable; JSON as the evaluator has always written it, with the in-sample
    mark (in_sample.py) where the ranker learned from these queries."""

    scenario: str
    all_variables: bool
    means: dict[str, float]
    per_query: dict[str, dict[str, float]]
    diversity_per_variable: dict[str, dict[str, float]]
    in_sample: InSample | None = None

    @property
    def queries(self) -> int:
        return len(self.per_query)

    def summary_json(self) -> dict[str, Any]:
        """The means and what they are over, without the per-query and per-variable tables."""
        return {
            "scenario": self.scenario,
            "all_variables": self.all_variables,
            "queries": self.queries,
            "measures": list(self.means),
            **self.means,
            **in_sample_json(self.in_sample),
        }

    def to_json(self) -> dict[str, Any]:
        return {
            **self.summary_json(),
            "per_query": self.per_query,
            "diversity_per_variable": self.diversity_per_variable,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PerspectiveScores:
        return cls(
            scenario=data["scenario"],
            all_variables=data["all_variables"],
            means={name: data[name] for name in data["measures"]},
            per_query={query_id: data["per_query"][query_id] for query_id in topic_order(data["per_query"])},
            diversity_per_variable=data["diversity_per_variable"],
            in_sample=InSample.from_json(data),
        )


@dataclass(frozen=True, eq=False)
class _Rankings:
    """Every query's top _DEPTH as corpus rows (-1 past a list's end), their gains, and the ideal lists."""

    top: np.ndarray  # queries × _DEPTH corpus rows
    gain: np.ndarray  # 1 where a relevant argument is listed for the first time
    lengths: np.ndarray  # each whole list's length
    ideal: list[np.ndarray]  # each query's relevant rows, distinct, in file order, at most IDEAL_LENGTH


def evaluate_perspective(
    corpus: Corpus, queries: list[Query], predictions: dict[str, list[int]], scenario: str, all_variables: bool = False
) -> PerspectiveScores:
    """Mean relevance and diversity at every k, relevance per query and diversity per variable.

    Raises ValueError for an unknown scenario, no queries, a query without relevant_candidates (a test split), an
    argument id the corpus lacks, or a corpus on which no socio variable varies.
    """
    if scenario not in SCENARIOS:
        raise ValueError(f"unknown scenario {scenario!r} (known: {', '.join(SCENARIOS)})")
    if not queries:
        raise ValueError("no queries to evaluate")
    unjudged = [query.query_id for query in queries if query.relevant_candidates is None]
    if unjudged:
        raise ValueError(f"query {unjudged[0]} has no relevant_candidates (a test split?): nothing to score against")
    rankings = _rankings(corpus, queries, predictions, implicit=scenario == "implicit")
    relevance = _relevance(rankings)
    per_variable = _diversity_per_variable(corpus, queries, rankings, all_variables)
    if not per_variable:
        raise ValueError("no socio variable varies over the corpus (or every query is about the only one)")
    means = {name: _mean(scores) for name, scores in relevance.items()}
    for name in at_every_k(DIVERSITY):
        means[name] = math.fsum(scores[name] for scores in per_variable.values()) / len(per_variable)
    row = {query.query_id: number for number, query in enumerate(queries)}
    return PerspectiveScores(
        scenario=scenario,
        all_variables=all_variables,
        means=means,
        per_query={
            query_id: {name: float(scores[row[query_id]]) for name, scores in relevance.items()}
            for query_id in topic_order(row)
        },
        diversity_per_variable=per_variable,
    )


def socio_variables(corpus: Corpus) -> dict[str, np.ndarray]:
    """Variable name → each argument's value, for the variables diversity is measured on that vary over the corpus."""
    variables = {"stance": corpus.stance, **{name: corpus.profiles[name] for name in SOCIO_COLUMNS}}
    issue_sets = [set(issues) for issues in corpus.profiles[ISSUES]]
    for issue in sorted(set().union(*issue_sets)):
        marks = ["important" if issue in issues else "neutral" for issues in issue_sets]
        variables[ISSUE_PREFIX + issue] = np.array(marks)
    return {name: values for name, values in variables.items() if len(np.unique(values)) > 1}


def own_variable(query: Query) -> str | None:
    """The variable of a perspective query's property (None for a baseline query); denomination's is no socio
    variable, so such a query leaves none out."""
    if not query.demographic_property:
        return None
    ((key, value),) = query.demographic_property.items()
    return ISSUE_PREFIX + value if key == "important_political_issue" else QUERY_PROPERTY_TO_CORPUS[key]


def _rankings(corpus: Corpus, queries: list[Query], predictions: dict[str, list[int]], implicit: bool) -> _Rankings:
    """Only the top _DEPTH of a list is scored (its length aside), so each query is cut there once, up front."""
    texts = _text_groups(corpus) if implicit else None
    top = np.full((len(queries), _DEPTH), -1, dtype=np.int64)
    gain = np.zeros(top.shape)
    lengths = np.zeros(len(queries), dtype=np.int64)
    ideal = []
    for number, query in enumerate(queries):
        listed = _rows(corpus, query.query_id, predictions.get(query.query_id, []), "argument")
        relevant = _distinct(_rows(corpus, query.query_id, query.relevant_candidates, "relevant argument"))
        head = listed[:_DEPTH]
        is_relevant = np.isin(texts[head], texts[relevant]) if texts is not None else np.isin(head, relevant)
        top[number, : len(head)] = head
        gain[number, : len(head)] = is_relevant & _first_listed(head)
        lengths[number] = len(listed)
        ideal.append(relevant[:IDEAL_LENGTH])
    return _Rankings(top, gain, lengths, ideal)


def _text_groups(corpus: Corpus) -> np.ndarray:
    """Each argument's text as a number; arguments with the same text share it."""
    numbers: dict[str, int] = {}
    return np.array([numbers.setdefault(text, len(numbers)) for text in corpus.texts], dtype=np.int64)


def _rows(corpus: Corpus, query_id: str, ids: list[int], what: str) -> np.ndarray:
    """The corpus rows of `ids`; ValueError naming the query for an id the corpus lacks."""
    rows = corpus.positions(ids)
    if (rows < 0).any():
        raise ValueError(f"query {query_id}: {what} {ids[int(np.argmax(rows < 0))]} is not in the corpus")
    return rows


def _distinct(rows: np.ndarray) -> np.ndarray:
    """`rows` without repeats, in their first order."""
    return rows[np.sort(np.unique(rows, return_index=True)[1])]


def _first_listed(rows: np.ndarray) -> np.ndarray:
    """True where a row is listed for the first time."""
    first = np.zeros(len(rows), dtype=bool)
    first[np.unique(rows, return_index=True)[1]] = True
    return first


def _relevance(rankings: _Rankings) -> dict[str, np.ndarray]:
    """nDCG@k and P@k of every query."""
    relevant = np.array([len(rows) for rows in rankings.ideal])
    scores = {}
    for k in K:
        scores[f"nDCG@{k}"] = _ratio(rankings.gain[:, :k] @ _DISCOUNTS[:k], _TOP_DCG[np.minimum(relevant, k)])
    for k in K:
        scores[f"P@{k}"] = _ratio(rankings.gain[:, :k].sum(axis=1), np.minimum(rankings.lengths, k))
    return scores


def _diversity_per_variable(
    corpus: Corpus, queries: list[Query], rankings: _Rankings, all_variables: bool
) -> dict[str, dict[str, float]]:
    """Variable → α-nDCG@k and rKL@k averaged over the queries it counts for; variables no query counts for left out."""
    own = [own_variable(query) for query in queries]
    result = {}
    for name, values in socio_variables(corpus).items():
        counted = np.array([all_variables or variable != name for variable in own])
        if counted.any():
            result[name] = {measure: _mean(scores[counted]) for measure, scores in _diversity(rankings, values).items()}
    return result


def _diversity(rankings: _Rankings, values: np.ndarray) -> dict[str, np.ndarray]:
    """α-nDCG@k and rKL@k of every query for one variable (`values`: each argument's)."""
    _, first, codes, counts = np.unique(values, return_index=True, return_inverse=True, return_counts=True)
    top = np.where(rankings.top >= 0, codes[rankings.top], -1)
    seen = ((top[:, :, None] == top[:, None, :]) & _EARLIER).any(axis=2)
    gains = rankings.gain * np.where(seen, 1 - ALPHA, 1.0)
    relevant = np.array([len(rows) for rows in rankings.ideal])
    distinct = np.array([len(np.unique(codes[rows])) for rows in rankings.ideal])
    majority = min(np.flatnonzero(counts == counts.max()), key=lambda code: first[code])
    minority = np.delete(np.arange(len(counts)), majority)
    shares = counts[minority] / len(values)
    scores = {}
    for k in K:
        scores[f"alpha-nDCG@{k}"] = _ratio(gains[:, :k] @ _DISCOUNTS[:k], _alpha_ideal(relevant, distinct, k))
    for k in K:
        scores[f"rKL@{k}"] = _rkl(top, minority, shares, k)
    return scores


def _alpha_ideal(relevant: np.ndarray, distinct: np.ndarray, k: int) -> np.ndarray:
    """Ideal α-DCG@k: one relevant argument per distinct value at gain 1, then the other relevant ones at 1 − ALPHA."""
    firsts, all_ = _TOP_DCG[np.minimum(distinct, k)], _TOP_DCG[np.minimum(relevant, k)]
    return firsts + (1 - ALPHA) * (all_ - firsts)


def _rkl(top: np.ndarray, minority: np.ndarray, shares: np.ndarray, k: int) -> np.ndarray:
    """rKL@k of every query: `top` holds value codes (-1 past a list's end); `minority` the codes scored."""
    cuts = np.array([c for c in RKL_CUTOFFS if c <= k])
    counts = np.cumsum(top[:, :, None] == minority, axis=1)[:, cuts - 1, :]  # queries × cut-offs × values
    weights = 1.0 / np.log2(cuts)
    special = lazylibs.scipy("special")

    divergence = special.kl_div(counts / cuts[None, :, None], shares)
    return (np.tensordot(divergence, weights, axes=([1], [0])) / weights.sum()).mean(axis=1)


def _ratio(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """numerator / denominator, 0 where the denominator is 0."""
    numerator = np.asarray(numerator, dtype=np.float64)
    return np.divide(numerator, denominator, out=np.zeros_like(numerator), where=denominator > 0)


def _mean(scores: np.ndarray) -> float:
    return math.fsum(scores.tolist()) / len(scores)


def relevance_table_csv(result: PerspectiveScores) -> str:
    """`k,nDCG,P`: the mean relevance at each k."""
    return _by_k_csv(result, RELEVANCE)


def diversity_table_csv(result: PerspectiveScores) -> str:
    """`k,alpha-nDCG,rKL`: the mean diversity at each k, over the variables."""
    return _by_k_csv(result, DIVERSITY)


def diversity_per_variable_csv(result: PerspectiveScores) -> str:
    """`variable,k,alpha-nDCG,rKL`: diversity per variable at each k, averaged over the queries it counts for."""
    rows = [
        [variable, k, *(_cell(scores[f"{measure}@{k}"]) for measure in DIVERSITY)]
        for variable, scores in result.diversity_per_variable.items()
        for k in K
    ]
    return _csv(["variable", "k", *DIVERSITY], rows)


def relevance_per_query_csv(result: PerspectiveScores) -> str:
    """`query,nDCG@4,…,P@20`: one row per query in query id order."""
    names = at_every_k(RELEVANCE)
    rows = [[query_id, *(_cell(scores[name]) for name in names)] for query_id, scores in result.per_query.items()]
    return _csv(["query", *names], rows)


def csv_tables(result: PerspectiveScores) -> dict[str, str]:
    """File name → CSV text of each table, for writing beside one another."""
    return {
        "relevance.csv": relevance_table_csv(result),
        "relevance_per_query.csv": relevance_per_query_csv(result),
        "diversity.csv": diversity_table_csv(result),
        "diversity_per_variable.csv": diversity_per_variable_csv(result),
    }


def format_means(result: PerspectiveScores) -> str:
    """A console table: one row per k, the mean of each measure (4 decimals), in-sample means marked with a line
    saying why under the table."""
    header = ["k", *RELEVANCE, *DIVERSITY]
    rows = [[str(k), *(_mean_cell(result, f"{measure}@{k}") for measure in header[1:])] for k in K]
    widths = [max(len(row[column]) for row in (header, *rows)) for column in range(len(header))]
    lines = ["  ".join(cell.rjust(width) for cell, width in zip(row, widths)) for row in (header, *rows)]
    return "\n".join([*lines, *notes([result.in_sample])])


def _mean_cell(result: PerspectiveScores, name: str) -> str:
    return marked(f"{result.means[name]:.4f}", name, result.in_sample)


def _by_k_csv(result: PerspectiveScores, measures: tuple[str, ...]) -> str:
    return _csv(["k", *measures], [[k, *(_cell(result.means[f"{measure}@{k}"]) for measure in measures)] for k in K])


def _cell(score: float) -> str:
    return f"{score:.6f}"


def _csv(header: list[str], rows: list[list]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()
