"""`argrank steps-benchmark`: BM25 against BM25 with RM3 and with Bo1 query expansion, and with the ltr re-ranking
step, on Webis-ArgQuality-20 (or a file in its format), everything learnt or chosen inside training folds of topics.

One index holds every premise; each topic's query ranks all of them, so a query must find its topic's premises
among the other topics'. The judgments are quality_benchmark's graded relevance (per topic, the arguments'
relevance cut at its tertiles into 0, 1, 2; a non-argument -2); another topic's premise is unjudged, gain 0.

Nested cross-validation. The topics are split into `folds` outer groups (shuffled with `seed`); each group's topics
are scored with what was chosen on the other groups' topics (its training topics) alone, so a topic's held-out
figure never comes from a setting chosen, or a model learnt, on it:

- each expansion takes the setting of its grid (GRIDS) of highest mean nDCG@5 over the training topics;
- the ltr step (quality.ltr's features, without the quality model's) takes the configuration of highest mean
  nDCG@5 in inner cross-validation of the training topics: REPEATS shuffles (seeded from `seed`) of them into
  INNER groups, each scored by a model learnt on the others. A configuration is a model (MODELS: linear rankers and
  LambdaMART settings) and the model's share (WEIGHTS) in a blend with BM25 (each standardised over the topic's
  candidates), or BM25 alone; the model is then learnt on all training topics and re-ranks the held-out ones'
  BM25 top LTR_DEPTH.

Per step the report gives the outer figure (the mean over topics of the held-out scores), beside it the inner one
(the mean over outer folds of the figure that made each fold's choice: the inner folds' mean for ltr, the
training mean for an expansion) and the spread of the outer folds' means; the gap between inner and outer is the
optimism of choosing. BM25 itself keeps rank-bm25's defaults. Paired tests over topics compare each step's
held-out scores with BM25's.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from threadpoolctl import threadpool_limits

from argrank.core.text_table import text_table
from argrank.evaluation.folds import draws_summary, draws_text, fold_spread
from argrank.evaluation.fusion_tuning import folds as topic_folds
from argrank.evaluation.fusion_tuning import topic_key
from argrank.evaluation.names import CLASSICAL_TESTS
from argrank.evaluation.significance import paired_p_value
from argrank.index.build import build_index
from argrank.index.store import Index
from argrank.quality.benchmark import MEASURE, NON_ARGUMENT_RELEVANCE, graded, per_topic_scores, run_lines
from argrank.quality.data import QualitySet
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
INNER = 4  # inner folds of an outer fold's training topics, in which the ltr configuration is chosen
REPEATS = 3  # shuffles of the training topics into inner folds, their figures summed: a steadier choice
# The ltr step's models, simplest first (a tie goes to the earlier): linear rankers, most regularised first, then
# LambdaMART, from few shallow trees on large leaves to the step's own defaults.
MODELS: tuple[dict[str, float], ...] = (
    {"ridge": 1000.0}, {"ridge": 100.0}, {"ridge": 10.0}, {"ridge": 1.0},
    {"trees": 100, "leaves": 2, "learning_rate": 0.05, "min_leaf": 100},
    {"trees": 50, "leaves": 4, "learning_rate": 0.05, "min_leaf": 50},
    {"trees": 300, "leaves": 3, "learning_rate": 0.02, "min_leaf": 50},
    {"trees": 100, "leaves": 15, "learning_rate": 0.1, "min_leaf": 5},
)  # fmt: skip
WEIGHTS = (0.25, 0.5, 0.75, 1.0)  # the model's share in its blend with BM25 (BM25 alone is a configuration too)
BM25_ALONE: dict[str, float] = {"weight": 0.0}


@dataclass(frozen=True)
class StepsBenchmark:
    """Per topic, BM25's nDCG@5 and each step's held-out one; per step and outer fold, what was chosen."""

    bm25: dict[str, float]  # topic → nDCG@5
    held_out: dict[str, dict[str, float]]  # step → topic → nDCG@5 under its fold's chosen setting or learnt model
    # step → per outer fold: its `topics`, the `setting` chosen without them, `training_mean` (the choice's mean on
    # the training topics), `inner_mean` (the figure that chose it) and `held_out_mean`
    choices: dict[str, list[dict[str, Any]]]
    premises: int
    draws: dict[str, Any] | None = None  # repeated cross-validation: each step's nDCG@5 per seed (folds.draws_summary)

    def to_json(self) -> dict[str, Any]:
        topics = sorted(self.bm25, key=topic_key)
        baseline = np.array([self.bm25[topic] for topic in topics])
        steps = {}
        for name, scores in self.held_out.items():
            run = np.array([scores[topic] for topic in topics])
            folds = self.choices[name]
            steps[name] = {
                MEASURE: float(run.mean()),  # the outer figure
                "cv_inner_mean": float(np.mean([fold["inner_mean"] for fold in folds])),
                "cv_spread": fold_spread([fold["held_out_mean"] for fold in folds]),
                "wins": int((run > baseline).sum()),
                "ties": int((run == baseline).sum()),
                "losses": int((run < baseline).sum()),
                **{f"p_{test}": paired_p_value(run, baseline, test) for test in CLASSICAL_TESTS},
                "folds": folds,
                "per_topic": scores,
            }
        groups = [fold["topics"] for fold in next(iter(self.choices.values()), [])]
        return {
            f"bm25_{MEASURE}": float(baseline.mean()),
            "bm25_cv_spread": fold_spread([float(np.mean([self.bm25[t] for t in group])) for group in groups]),
            "steps": steps,
            "bm25_per_topic": self.bm25,
            "topics": len(topics),
            "premises": self.premises,
            "inner": {"folds": INNER, "repeats": REPEATS},
            **({"cv_repeats": self.draws} if self.draws is not None else {}),
        }


def steps_benchmark(examples: QualitySet, queries: Mapping[int, str], folds: int = 5, seed: int = 0,
                    repeats: int = 1) -> StepsBenchmark:  # fmt: skip
    """The whole benchmark; `queries` maps every topic of `examples` to its query. `repeats` > 1 also cross-validates
    with the seeds after `seed` (each a whole nested cross-validation; the rankings and the ltr step's features are
    made once) and keeps each step's nDCG@5 of every draw in `draws`; the headline stays `seed`'s."""
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, got {repeats}")
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
    per_setting: dict[str, dict[tuple, dict[str, float]]] = {name: {} for name in GRIDS}
    for name, grid in GRIDS.items():
        for values in itertools.product(*grid.values()):
            setting = dict(zip(grid, values))
            feedback = feedback_rows(first, setting["fb_docs"]).column("doc").to_pylist()
            expanded = expand_queries(query_table, first, {doc: counts[doc] for doc in feedback},
                                      collection_of(index), name, {**EXPANDERS[name].defaults, **setting})  # fmt: skip
            per_setting[name][tuple(values)] = _scores(rank_queries(index, expanded, ranker, DEPTH,
                                                                    warn_unmatched=False), qrels)  # fmt: skip
    data = ltr_candidates(examples, queries, index, analyzer, first, qrels)
    seeds = list(range(seed, seed + repeats))
    runs = []
    for other in seeds:
        groups = topic_folds([str(t) for t in topics], folds, other)
        held_out, choices = {}, {}
        for name, grid in GRIDS.items():
            held_out[name], choices[name] = cross_validated(per_setting[name], groups, list(grid))
        held_out["ltr"], choices["ltr"] = _learnt(data, first, qrels, groups, other)
        runs.append(StepsBenchmark(bm25, held_out, choices, len(examples)))
    if repeats == 1:
        return runs[0]
    drawn = [run.to_json()["steps"] for run in runs]
    return replace(runs[0], draws=draws_summary(seeds, {name: [draw[name][MEASURE] for draw in drawn]
                                                        for name in drawn[0]}))  # fmt: skip


def cross_validated(per_setting: Mapping[tuple, Mapping[str, float]], groups: Sequence[Sequence[str]],
                    names: Sequence[str]) -> tuple[dict[str, float], list[dict[str, Any]]]:  # fmt: skip
    """Each group's topics scored with the setting of highest mean over the other groups' topics (ties: the first
    setting in grid order): topic → score, and per group its topics, the setting chosen, that mean (its
    `training_mean`, which is also the `inner_mean` that chose it) and the group's mean under it."""
    scores: dict[str, float] = {}
    chosen = []
    order = list(per_setting)
    for group in groups:
        training = [topic for other in groups if other is not group for topic in other]
        means = {setting: _mean(per_setting[setting], training) for setting in order}
        best = max(order, key=lambda setting: (means[setting], -order.index(setting)))
        for topic in group:
            scores[topic] = per_setting[best][topic]
        chosen.append({"topics": list(group), "setting": dict(zip(names, best)), "training_mean": means[best],
                       "inner_mean": means[best], "held_out_mean": _mean(per_setting[best], group)})  # fmt: skip
    return scores, chosen


@dataclass(frozen=True)
class Candidates:
    """The ltr step's candidates of every topic (BM25's top LTR_DEPTH), their features and judgments, and the rows
    of each topic."""

    top: pa.Table  # the first ranking's top LTR_DEPTH rows (qid, doc, rank, score), in the features' row order
    features: np.ndarray
    labels: np.ndarray
    names: list[str]
    rows: dict[str, np.ndarray]  # topic → its rows, in order

    def training(self, topics: Sequence[str]) -> tuple[np.ndarray, np.ndarray, list[int]]:
        """The features and labels of the rows of `topics`, and each topic's number of rows (topics in row order)."""
        rows = np.sort(np.concatenate([self.rows[t] for t in topics])) if topics else np.zeros(0, np.int64)
        chosen = set(topics)
        return self.features[rows], self.labels[rows], [len(found) for t, found in self.rows.items() if t in chosen]


def ltr_candidates(examples: QualitySet, queries: Mapping[int, str], index: Index, analyzer: Any, first: pa.Table,
                   qrels: dict[str, dict[str, int]]) -> Candidates:  # fmt: skip
    """The ltr step's candidates of every topic in the first ranking, with their features and judgments."""
    texts = dict(zip(examples.ids.tolist(), examples.texts))
    table = candidates(first, LTR_DEPTH, {str(t): q for t, q in queries.items()},
                       {doc: {"premise": texts[doc]} for doc in set(first.column("doc").to_pylist())}, ["premise"])
    terms = {str(topic): analyzer.analyze(query) for topic, query in queries.items()}
    labels, _ = judgments(table, qrels)
    topic_of_row = np.array(table.column("topic").to_pylist())
    rows = {topic: np.flatnonzero(topic_of_row == topic) for topic in dict.fromkeys(topic_of_row.tolist())}
    return Candidates(first.filter(pc.less_equal(first.column("rank"), LTR_DEPTH)),
                      feature_matrix(table, terms, index, analyzer.analyze_many, ["premise"]),
                      np.asarray(labels, dtype=np.int64), feature_names(["premise"], with_quality=False), rows)


def _learnt(data: Candidates, first: pa.Table, qrels: dict[str, dict[str, int]], groups: Sequence[Sequence[str]],
            seed: int = 0) -> tuple[dict[str, float], list[dict[str, Any]]]:  # fmt: skip
    """Each group's topics re-ranked by the ltr configuration chosen in inner folds of the other groups' topics,
    learnt on all of those: topic → score, and per group what cross_validated gives (its `inner_mean` the inner
    folds' mean of the chosen configuration, its `training_mean` the refitted model's on its training topics)."""
    scores: dict[str, float] = {}
    chosen = []
    # Small products, many of them: more BLAS threads would only wait on each other (and could reorder sums).
    with threadpool_limits(limits=1, user_api="blas"):
        for group in groups:
            training = [topic for other in groups if other is not group for topic in other]
            setting, inner_mean = choose_configuration(data, training, qrels, seed)
            values = _configured(data, setting, training)
            held = _scores(reordered(first, LTR_DEPTH, values), {t: qrels[t] for t in group})
            scores.update(held)
            chosen.append({"topics": list(group), "setting": setting,
                           "training_mean": _mean(_top_scores(data, values, training, qrels)),
                           "inner_mean": inner_mean, "held_out_mean": _mean(held)})  # fmt: skip
    return scores, chosen


def choose_configuration(data: Candidates, training: Sequence[str], qrels: Mapping[str, Mapping[str, int]],
                         seed: int) -> tuple[dict[str, float], float]:  # fmt: skip
    """The ltr configuration (module docstring) of highest mean nDCG@5 over the inner folds of `training` (ties: BM25
    alone, then MODELS' and WEIGHTS' order), and that mean; BM25 alone and its training mean where fewer than 2
    training topics leave nothing to learn from in an inner fold. Reads the judgments of `training` only."""
    settings = [BM25_ALONE, *({**model, "weight": weight} for model in MODELS for weight in WEIGHTS)]
    if len(training) < 2:
        return dict(BM25_ALONE), _mean(_top_scores(data, _bm25(data), training, qrels))
    totals = np.zeros(len(settings))
    for repeat in range(REPEATS):
        for group in topic_folds(list(training), INNER, seed + repeat):
            learning = [topic for topic in training if topic not in set(group)]
            totals[0] += sum(_top_scores(data, _bm25(data), group, qrels).values())
            slot = 1
            for model in MODELS:
                scores = _model_scores(data, model, learning)
                for weight in WEIGHTS:
                    totals[slot] += sum(_top_scores(data, blended(data, scores, weight), group, qrels).values())
                    slot += 1
    best = int(np.argmax(totals))  # the first of the highest
    return dict(settings[best]), float(totals[best] / (len(training) * REPEATS))


def blended(data: Candidates, scores: np.ndarray, weight: float) -> np.ndarray:
    """Per topic, `weight` × the model's standardised `scores` + (1 − weight) × BM25's standardised scores."""
    out = np.zeros(len(scores))
    bm25 = _bm25(data)
    for rows in data.rows.values():
        out[rows] = weight * _standardised(scores[rows]) + (1 - weight) * _standardised(bm25[rows])
    return out


def _configured(data: Candidates, setting: Mapping[str, float], training: Sequence[str]) -> np.ndarray:
    """Every candidate's score under a configuration, its model learnt on the `training` topics."""
    weight = float(setting["weight"])
    if weight == 0:
        return _bm25(data)
    model = {name: value for name, value in setting.items() if name != "weight"}
    return blended(data, _model_scores(data, model, training), weight)


def _model_scores(data: Candidates, model: Mapping[str, float], training: Sequence[str]) -> np.ndarray:
    """Every candidate's score by `model` (ltr's parameters) learnt on the candidates of the `training` topics."""
    features, labels, sizes = data.training(training)
    return ranker_scores(train_ranker(features, labels, sizes, data.names, model), data.features)


def _bm25(data: Candidates) -> np.ndarray:
    """The candidates' first-stage (BM25) scores."""
    return np.asarray(data.top.column("score").to_pylist(), dtype=np.float64)


def _top_scores(data: Candidates, values: np.ndarray, topics: Sequence[str],
                qrels: Mapping[str, Mapping[str, int]]) -> dict[str, float]:  # fmt: skip
    """Topic → nDCG@5 of each of `topics` with its candidates ordered by `values` (as the step orders its top,
    whose rows below never reach the first five)."""
    rows = np.sort(np.concatenate([data.rows[t] for t in topics])) if topics else np.zeros(0, np.int64)
    ranking = reordered(data.top.take(pa.array(rows, pa.int64())), LTR_DEPTH, values[rows])
    return _scores(ranking, {topic: dict(qrels[topic]) for topic in topics})


def _standardised(values: np.ndarray) -> np.ndarray:
    spread_ = values.std()
    return (values - values.mean()) / spread_ if spread_ > 0 else np.zeros(len(values))


def _scores(ranking: pa.Table, qrels: Mapping[str, Mapping[str, int]]) -> dict[str, float]:
    """Topic → nDCG@5 of a ranking (0 for a topic it has no line for)."""
    if not qrels:
        return {}
    found = per_topic_scores(run_lines(ranking, "run"), dict(qrels))
    return {topic: found.get(topic, 0.0) for topic in qrels}


def _mean(scores: Mapping[str, float], topics: Sequence[str] | None = None) -> float:
    """The mean of `scores` over `topics` (all of them where None)."""
    values = list(scores.values()) if topics is None else [scores[topic] for topic in topics]
    return float(np.mean(values)) if values else float("nan")


def format_steps_benchmark(result: StepsBenchmark) -> str:
    """The comparison as a text table, and each fold's choice."""
    data = result.to_json()
    bm25_spread = data["bm25_cv_spread"]
    rows = [["run", f"{MEASURE} held out", "inner", "sd", "min", "max", "wins / ties / losses", "p (t-test)",
             "p (Wilcoxon)"],
            ["BM25", f"{data[f'bm25_{MEASURE}']:.4f}", "", *_spread(bm25_spread), "", "", ""]]  # fmt: skip
    lines = []
    for name, figures in data["steps"].items():
        rows.append([f"BM25 + {name}", f"{figures[MEASURE]:.4f}", f"{figures['cv_inner_mean']:.4f}",
                     *_spread(figures["cv_spread"]), f"{figures['wins']} / {figures['ties']} / {figures['losses']}",
                     _p(figures["p_t"]), _p(figures["p_wilcoxon"])])  # fmt: skip
        for number, fold in enumerate(figures["folds"], start=1):
            setting = ", ".join(f"{key} {value:g}" for key, value in fold["setting"].items())
            lines.append(f"{name}, fold {number} (topics {', '.join(fold['topics'])}): {setting}; inner "
                         f"{fold['inner_mean']:.4f}, held out {fold['held_out_mean']:.4f}")  # fmt: skip
    header = (f"{result.premises} premises, {data['topics']} topics; each step's setting chosen, or model learnt, on "
              f"the other folds' topics (ltr: in {INNER} inner folds of them, {REPEATS} shuffles)")  # fmt: skip
    legend = ["held out: the mean over topics of the outer folds' held-out scores; inner: the mean over folds of the "
              "figure",
              "that chose (an expansion's training mean, ltr's inner folds' mean); sd, min, max: of the outer folds' "
              "means.",
              "ltr: ridge is a linear ranker, trees … LambdaMART; weight is the model's share against BM25 (0: BM25 "
              "alone)."]  # fmt: skip
    if result.draws is not None:
        legend.append(draws_text(result.draws, {name: f"BM25 + {name}" for name in data["steps"]}))
    return "\n".join([header, text_table(rows, rule=True), *legend, "", *lines])


def _spread(figures: Mapping[str, float]) -> list[str]:
    return [f"{figures[key]:.4f}" for key in ("sd", "min", "max")]


def _p(value: float | None) -> str:
    return "-" if value is None else f"{value:.3g}"
