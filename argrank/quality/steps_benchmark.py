"""`argrank steps-benchmark`: BM25 against BM25 with RM3 and with Bo1 query expansion, and with the ltr re-ranking
step, on Webis-ArgQuality-20 (or a file in its format), everything learnt or chosen inside training folds of topics.

One index holds every premise; each topic's query ranks all of them, so a query must find its topic's premises
among the other topics'. The judgments are quality_benchmark's graded relevance (per topic, the arguments'
relevance cut at its tertiles into 0, 1, 2; a non-argument -2); another topic's premise is unjudged, gain 0.

The topics are split into `folds` groups (shuffled with `seed`). For each group, each expansion's setting of
highest mean nDCG@5 over the other groups' topics is taken, and the group's topics are scored with it; LambdaMART
(quality.ltr, its default parameters, the quality model's features left out) is trained on the other groups'
topics' BM25 top LTR_DEPTH and re-ranks the group's. The held-out figure of a topic never comes from a setting
chosen, or a model learnt, on it. BM25 itself keeps rank-bm25's defaults. Paired tests over topics compare each
step's held-out scores with BM25's.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa

from argrank.core.text_table import text_table
from argrank.evaluation.fusion_tuning import folds as topic_folds
from argrank.evaluation.fusion_tuning import topic_key
from argrank.evaluation.names import CLASSICAL_TESTS
from argrank.evaluation.significance import paired_p_value
from argrank.index.build import build_index
from argrank.index.store import Index
from argrank.quality.benchmark import MEASURE, NON_ARGUMENT_RELEVANCE, graded, per_topic_scores, run_lines
from argrank.quality.data import QualitySet
from argrank.quality.ltr import DEFAULTS as LTR_DEFAULTS
from argrank.quality.ltr import feature_matrix, feature_names, judgments, ranker_scores, train_ranker
from argrank.retrieval.expansion import EXPANDERS, collection_of, expand_queries, feedback_rows
from argrank.retrieval.queries import QUERY_SCHEMA
from argrank.retrieval.registry import make_ranker
from argrank.retrieval.search import rank_queries
from argrank.retrieval.steps import candidates, reordered
from argrank.text.multilingual import make_analyzer

DEPTH = 1000
LTR_DEPTH = 100  # the ltr step's default depth: the candidates it learns from and re-ranks per topic
# The settings each expansion chooses from inside the training folds (PyTerrier's defaults among them).
GRIDS: dict[str, dict[str, tuple[float, ...]]] = {
    "rm3": {"fb_docs": (3, 5, 10), "fb_terms": (5, 10, 20), "fb_lambda": (0.4, 0.6, 0.8)},
    "bo1": {"fb_docs": (3, 5, 10), "fb_terms": (5, 10, 20)},
}


@dataclass(frozen=True)
class StepsBenchmark:
    """Per topic, BM25's nDCG@5 and each step's held-out one, with the setting each fold chose."""

    bm25: dict[str, float]  # topic → nDCG@5
    held_out: dict[str, dict[str, float]]  # step → topic → nDCG@5 under its fold's chosen setting or learnt model
    choices: dict[str, list[dict[str, Any]]]  # step → per fold: its topics and the setting chosen without them
    premises: int

    def to_json(self) -> dict[str, Any]:
        topics = sorted(self.bm25, key=topic_key)
        baseline = np.array([self.bm25[topic] for topic in topics])
        steps = {}
        for name, scores in self.held_out.items():
            run = np.array([scores[topic] for topic in topics])
            steps[name] = {
                f"{MEASURE}": float(run.mean()),
                "wins": int((run > baseline).sum()),
                "ties": int((run == baseline).sum()),
                "losses": int((run < baseline).sum()),
                **{f"p_{test}": paired_p_value(run, baseline, test) for test in CLASSICAL_TESTS},
                "folds": self.choices[name],
                "per_topic": scores,
            }
        return {
            f"bm25_{MEASURE}": float(baseline.mean()),
            "steps": steps,
            "bm25_per_topic": self.bm25,
            "topics": len(topics),
            "premises": self.premises,
        }


def steps_benchmark(examples: QualitySet, queries: Mapping[int, str], folds: int = 5,
                    seed: int = 0) -> StepsBenchmark:  # fmt: skip
    """The whole benchmark; `queries` maps every topic of `examples` to its query."""
    analyzer = make_analyzer("en")
    tokens = analyzer.analyze_many(list(examples.texts))
    index = build_index(pa.array(list(examples.ids), pa.string()), tokens)
    counts = {doc: Counter(terms) for doc, terms in zip(examples.ids.tolist(), tokens.to_pylist())}
    topics = sorted(queries)
    query_table = pa.table({"qid": [str(t) for t in topics], "terms": [analyzer.analyze(queries[t]) for t in topics]},
                           schema=QUERY_SCHEMA)  # fmt: skip
    qrels = graded(examples, examples.relevance, NON_ARGUMENT_RELEVANCE)
    ranker = make_ranker(index, "bm25", {})
    first = rank_queries(index, query_table, ranker, DEPTH, warn_unmatched=False)
    bm25 = _scores(first, qrels)
    groups = topic_folds([str(t) for t in topics], folds, seed)
    held_out, choices = {}, {}
    for name, grid in GRIDS.items():
        per_setting = {}
        for values in itertools.product(*grid.values()):
            setting = dict(zip(grid, values))
            feedback = feedback_rows(first, setting["fb_docs"]).column("doc").to_pylist()
            expanded = expand_queries(query_table, first, {doc: counts[doc] for doc in feedback},
                                      collection_of(index), name, {**EXPANDERS[name].defaults, **setting})  # fmt: skip
            per_setting[tuple(values)] = _scores(rank_queries(index, expanded, ranker, DEPTH, warn_unmatched=False),
                                                 qrels)  # fmt: skip
        held_out[name], choices[name] = cross_validated(per_setting, groups, list(grid))
    held_out["ltr"], choices["ltr"] = _learnt(examples, queries, index, analyzer, first, qrels, groups)
    return StepsBenchmark(bm25, held_out, choices, len(examples))


def _learnt(examples: QualitySet, queries: Mapping[int, str], index: Index, analyzer: Any, first: pa.Table,
            qrels: dict[str, dict[str, int]], groups: Sequence[Sequence[str]]
            ) -> tuple[dict[str, float], list[dict[str, Any]]]:  # fmt: skip
    """Each group's topics re-ranked by LambdaMART learnt from the other groups' topics: topic → score, and per
    group its topics and the parameters."""
    texts = dict(zip(examples.ids.tolist(), examples.texts))
    table = candidates(first, LTR_DEPTH, {str(t): q for t, q in queries.items()},
                       {doc: {"premise": texts[doc]} for doc in set(first.column("doc").to_pylist())}, ["premise"])
    terms = {str(topic): analyzer.analyze(query) for topic, query in queries.items()}
    features = feature_matrix(table, terms, index, analyzer.analyze_many, ["premise"])
    labels, _ = judgments(table, qrels)
    topics = np.array(table.column("topic").to_pylist())
    names = feature_names(["premise"], with_quality=False)
    scores: dict[str, float] = {}
    chosen = []
    for group in groups:
        training = ~np.isin(topics, list(group))
        counts = Counter(topics[training].tolist())
        sizes = [counts[topic] for topic in dict.fromkeys(topics[training].tolist())]  # topics in row order
        model = train_ranker(features[training], np.asarray(labels)[training], sizes, names, {})
        reranked = reordered(first, LTR_DEPTH, ranker_scores(model, features))
        held = _scores(reranked, qrels)
        scores.update({topic: held[topic] for topic in group})
        chosen.append({"topics": list(group), "setting": dict(LTR_DEFAULTS)})
    return scores, chosen


def cross_validated(per_setting: Mapping[tuple, Mapping[str, float]], groups: Sequence[Sequence[str]],
                    names: Sequence[str]) -> tuple[dict[str, float], list[dict[str, Any]]]:  # fmt: skip
    """Each group's topics scored with the setting of highest mean over the other groups' topics (ties: the first
    setting in grid order): topic → score, and per group its topics and the setting chosen."""
    scores: dict[str, float] = {}
    chosen = []
    for group in groups:
        training = [topic for other in groups if other is not group for topic in other]
        best = max(per_setting, key=lambda setting: (np.mean([per_setting[setting][t] for t in training]),
                                                     -list(per_setting).index(setting)))  # fmt: skip
        for topic in group:
            scores[topic] = per_setting[best][topic]
        chosen.append({"topics": list(group), "setting": dict(zip(names, best))})
    return scores, chosen


def _scores(ranking: pa.Table, qrels: dict[str, dict[str, int]]) -> dict[str, float]:
    """Topic → nDCG@5 of a ranking (0 for a topic it has no line for)."""
    found = per_topic_scores(run_lines(ranking, "run"), qrels)
    return {topic: found.get(topic, 0.0) for topic in qrels}


def format_steps_benchmark(result: StepsBenchmark) -> str:
    """The comparison as a text table, and each fold's choice."""
    data = result.to_json()
    rows = [["run", MEASURE, "wins / ties / losses", "p (t-test)", "p (Wilcoxon)"],
            ["BM25", f"{data[f'bm25_{MEASURE}']:.4f}", "", "", ""]]  # fmt: skip
    lines = []
    for name, figures in data["steps"].items():
        rows.append([f"BM25 + {name}", f"{figures[MEASURE]:.4f}",
                     f"{figures['wins']} / {figures['ties']} / {figures['losses']}",
                     _p(figures["p_t"]), _p(figures["p_wilcoxon"])])  # fmt: skip
        for number, fold in enumerate(figures["folds"], start=1):
            setting = ", ".join(f"{key} {value:g}" for key, value in fold["setting"].items())
            lines.append(f"{name}, fold {number} (topics {', '.join(fold['topics'])}): {setting}")
    header = (f"{result.premises} premises, {data['topics']} topics; each step's setting chosen, or model learnt, on "
              f"the other folds' topics")  # fmt: skip
    return "\n".join([header, text_table(rows, rule=True), "", *lines])


def _p(value: float | None) -> str:
    return "-" if value is None else f"{value:.3g}"
