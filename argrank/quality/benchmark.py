"""`argrank quality-benchmark`: the quality model and the quality-aware re-ranking on Webis-ArgQuality-20, by nested
cross-validation over topics: the topics are dealt into folds (shuffled with a seed); each fold's premises are
scored by a model learnt on the other folds' topics, with the ridge penalty (ALPHAS) those topics' own inner folds
(INNER) chose, and each fold's re-ranking weight (WEIGHTS, unless given) is chosen on the other folds' topics by
the inner folds' predictions for them: the weight of highest quality nDCG@5 that keeps their relevance nDCG@5
within RELEVANCE_SLACK of BM25's (none: weight 0, BM25's order). No figure of a topic comes from a choice made, or
a model learnt, on it. The held-out figures are the headline; the inner ones that made each fold's choice, and
the spread over the folds, stand beside them.

Correlation: every premise's held-out prediction against its combined quality, Spearman's ρ and Kendall's τ,
beside the same for its length in words. Webis-ArgQuality-20 derives its scores per topic from pairwise judgments,
so they are centred per topic; predictions are standardised per topic before the topics are pooled (this never
changes an order within a topic, and length gets the same treatment: its log). The raw pooled figures and the
per-topic ones are reported too.

Re-ranking: per topic, its premises ranked by BM25 against the topic's query (the project's English analyzer,
an index of that topic's premises), then re-ranked (`rerank.py`) with the held-out predictions. nDCG@5 against
relevance and against quality, with Touché-like graded labels: per topic, the arguments' scores split at their
tertiles into 0, 1 and 2, and a premise that is no argument labelled -2 for relevance (Touché's label for
non-arguments, gain 0) and 0 for quality. The mean over topics, and paired tests (t-test, Wilcoxon) over topics.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pyarrow as pa

import argrank.lazylibs as lazylibs
from argrank.core.progress import track
from argrank.core.text_table import text_table
from argrank.evaluation.names import CLASSICAL_TESTS
from argrank.evaluation.ranking import evaluate
from argrank.evaluation.significance import paired_p_value
from argrank.formats.runfile import RunLine
from argrank.index.build import build_index
from argrank.quality.data import QualitySet
from argrank.quality.features import word_counts
from argrank.evaluation.folds import draws_summary, draws_text, fold_spread
from argrank.evaluation.fusion_tuning import folds as topic_folds
from argrank.quality.model import (
    QualityPredictions,
    predict_quality,
    predict_quality_many,
    train_quality_model,
    train_quality_models,
)
from argrank.quality.rerank import Quality, rerank
from argrank.quality.settings import DEFAULTS
from argrank.retrieval.registry import make_ranker
from argrank.retrieval.top_k import top_k
from argrank.text.multilingual import make_analyzer

MEASURE = "nDCG@5"
NON_ARGUMENT_RELEVANCE = -2  # Touché's label for a non-argument (spam), which nDCG counts as gain 0
FOLDS = 5  # outer folds of topics
INNER = 4  # inner folds of an outer fold's training topics
ALPHAS = (1.0, 3.0, 10.0)  # the quality regression's ridge penalties the inner folds choose among
WEIGHTS = (0.25, 0.5, 0.75, 1.0)  # the re-ranking weights the training topics choose among
RELEVANCE_SLACK = 0.01  # how far below BM25's relevance nDCG@5 a chosen weight may take the training topics
# The headline figures kept per draw of the folds, and their labels.
DRAWN = {"spearman": "Spearman", "quality_nDCG@5": "quality nDCG@5", "relevance_nDCG@5": "relevance nDCG@5"}


@dataclass(frozen=True)
class Benchmark:
    """The held-out correlations, and per topic the nDCG@5 of BM25 and of the re-ranking on both judgments."""

    correlations: dict[str, Any]
    ndcg: dict[str, dict[str, dict[str, float]]]  # "bm25" | "reranked" → "relevance" | "quality" → topic → score
    settings: dict[str, float]
    premises: int
    folds: tuple[dict[str, Any], ...] = ()  # per outer fold: its topics, choices, inner and held-out figures
    draws: dict[str, Any] | None = None  # repeated cross-validation: DRAWN over the seeds (folds.draws_summary)

    def to_json(self) -> dict[str, Any]:
        means = {f"{name}_nDCG@5": _mean(self.ndcg["reranked"][name]) for name in ("relevance", "quality")}
        bm25 = {f"bm25_{name}_nDCG@5": _mean(self.ndcg["bm25"][name]) for name in ("relevance", "quality")}
        tests = {}
        for name in ("relevance", "quality"):
            topics = sorted(self.ndcg["bm25"][name], key=int)
            reranked = np.array([self.ndcg["reranked"][name][topic] for topic in topics])
            bm25_scores = np.array([self.ndcg["bm25"][name][topic] for topic in topics])
            tests[name] = {f"p_{test}": paired_p_value(reranked, bm25_scores, test) for test in CLASSICAL_TESTS}
        return {
            **{key: self.correlations[key] for key in ("spearman", "kendall", "length_spearman", "length_kendall")},
            **means,
            **bm25,
            **_nested_figures(self.folds),
            "folds": list(self.folds),
            "paired_tests": tests,
            "correlations": self.correlations,
            "per_topic_nDCG@5": self.ndcg,
            "settings": self.settings,
            "premises": self.premises,
            "topics": len(self.ndcg["bm25"]["relevance"]),
            **({"cv_repeats": self.draws} if self.draws is not None else {}),
        }


def topic_held_out(examples: QualitySet, seed: int = 0) -> QualityPredictions:
    """Each premise's prediction by the model trained on every other topic."""
    predictions = _empty_predictions(word_counts(examples.texts))
    topics = sorted(set(examples.topics.tolist()))
    for topic in track(topics, "topics held out", total=len(topics), unit=" topics"):
        held = examples.topics == topic
        model = train_quality_model(examples.select(~held), seed)
        _place(predictions, held, predict_quality(model, [examples.texts[i] for i in np.flatnonzero(held)]))
    return predictions


def _empty_predictions(words: np.ndarray) -> QualityPredictions:
    """Predictions of zero for every premise of these lengths in `words`, filled in fold by fold (_place)."""
    size = len(words)
    return QualityPredictions(np.zeros(size), np.zeros(size), words, np.zeros(size))


def _place(predictions: QualityPredictions, rows: np.ndarray, found: QualityPredictions) -> None:
    """`found`, the predictions for the premises at `rows`, written into `predictions`."""
    predictions.quality[rows], predictions.argument[rows] = found.quality, found.argument
    predictions.as_argument[rows] = found.as_argument


def correlations(examples: QualitySet, predicted: np.ndarray, with_length: bool = True) -> dict[str, Any]:
    """Spearman and Kendall of the predictions and (`with_length`) of length with combined quality: pooled over
    topics after standardising per topic (the headline figures), pooled raw, and per topic."""
    stats = lazylibs.scipy("stats")
    scored = {"": predicted}
    if with_length:
        scored["length_"] = np.log1p(word_counts(examples.texts))
    figures: dict[str, Any] = {}
    for prefix, values in scored.items():
        standardised = _per_topic(examples.topics, values)
        figures[f"{prefix}spearman"] = float(stats.spearmanr(standardised, examples.quality)[0])
        figures[f"{prefix}kendall"] = float(stats.kendalltau(standardised, examples.quality)[0])
        figures[f"{prefix}spearman_raw"] = float(stats.spearmanr(values, examples.quality)[0])
        figures[f"{prefix}spearman_per_topic"] = {
            str(topic): float(
                stats.spearmanr(values[examples.topics == topic], examples.quality[examples.topics == topic])[0]
            )
            for topic in sorted(set(examples.topics.tolist()))
        }
    if with_length:
        ours, baseline = figures["spearman_per_topic"], figures["length_spearman_per_topic"]
        figures["topics_above_length"] = sum(ours[topic] > baseline[topic] for topic in ours)
    return figures


def ceilings(examples: QualitySet, predicted: QualityPredictions, floor: np.ndarray) -> dict[str, float]:
    """Spearman's ρ (as `correlations`' headline) with one part of the model made perfect, the other as predicted:
    the true argument flag in place of P(argument) (an argument scored by the quality part, the others at the
    model's score for a non-argument, `floor`), or the arguments' true quality in place of the quality part. Which
    part holds the figure back, and how far: a diagnosis, never a result."""
    flag = examples.is_argument
    true_flag = np.where(flag, predicted.as_argument, floor)
    true_quality = (predicted.argument * np.where(flag, examples.quality, predicted.as_argument)
                    + (1 - predicted.argument) * floor)  # fmt: skip
    return {name: correlations(examples, values, with_length=False)["spearman"]
            for name, values in (("true_argument_flag", true_flag), ("true_quality", true_quality))}  # fmt: skip


def graded(examples: QualitySet, scores: np.ndarray, non_argument: int) -> dict[str, dict[str, int]]:
    """Touché-like qrels: per topic, the arguments' `scores` cut at their tertiles into 0, 1, 2; a premise that is
    no argument gets `non_argument`. Topic → premise id → label."""
    qrels: dict[str, dict[str, int]] = {}
    for topic in sorted(set(examples.topics.tolist())):
        rows = np.flatnonzero(examples.topics == topic)
        arguments = rows[examples.is_argument[rows]]
        cuts = np.quantile(scores[arguments], [1 / 3, 2 / 3]) if len(arguments) else np.zeros(2)
        labels = qrels.setdefault(str(topic), {})
        for row in rows:
            label = int(np.digitize(scores[row], cuts)) if examples.is_argument[row] else non_argument
            labels[examples.ids[row]] = label
    return qrels


def quality_benchmark(examples: QualitySet, queries: Mapping[int, str], settings: Mapping[str, float] | None = None,
                      seed: int = 0, folds: int = FOLDS, repeats: int = 1) -> Benchmark:  # fmt: skip
    """The whole benchmark (module docstring); `queries` maps every topic of `examples` to its query, `settings`
    override the re-ranking's DEFAULTS (a weight given is kept, not chosen). `repeats` > 1 also cross-validates with
    the seeds after `seed` (each a whole nested cross-validation; BM25's rankings are made once) and keeps the DRAWN
    figures of every draw in `draws`; the headline stays `seed`'s."""
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, got {repeats}")
    given = dict(settings or {})
    settings = {**DEFAULTS, **given}
    weights = (given["weight"],) if "weight" in given else WEIGHTS
    qrels = {
        "relevance": graded(examples, examples.relevance, NON_ARGUMENT_RELEVANCE),
        "quality": graded(examples, examples.quality, 0),
    }
    analyzer = make_analyzer("en")
    rankings = {str(topic): _bm25_ranking(examples, topic, queries[topic], analyzer) for topic in sorted(queries)}
    bm25 = {name: per_topic_scores([line for topic in rankings for line in run_lines(rankings[topic], "bm25")],
                                   labels) for name, labels in qrels.items()}  # fmt: skip
    seeds = list(range(seed, seed + repeats))
    runs = [_nested(examples, rankings, bm25, qrels, settings, weights, other, folds) for other in seeds]
    if repeats == 1:
        return runs[0]
    drawn = [run.to_json() for run in runs]
    return replace(runs[0], draws=draws_summary(seeds, {name: [draw[name] for draw in drawn] for name in DRAWN}))


def _nested(examples: QualitySet, rankings: Mapping[str, pa.Table], bm25: Mapping[str, dict[str, float]],
            qrels: Mapping[str, dict[str, dict[str, int]]], settings: Mapping[str, float], weights: Sequence[float],
            seed: int, folds: int) -> Benchmark:  # fmt: skip
    """One nested cross-validation of the quality model and the re-ranking, the topics dealt into folds by `seed`."""
    predicted, floor = _empty_predictions(word_counts(examples.texts)), np.zeros(len(examples))
    reranked: dict[str, dict[str, float]] = {"relevance": {}, "quality": {}}
    chosen = []
    topics = [str(topic) for topic in sorted(set(examples.topics.tolist()))]
    groups = topic_folds(topics, folds, seed)
    for group in track(groups, "folds of topics", total=len(groups), unit=" folds"):
        held = np.isin(examples.topics.astype(str), group)
        fold = _fold(examples, held, seed)
        training = [topic for topic in rankings if topic not in group]
        inner = Quality.of(examples.ids[~held], fold.pop("inner_predictions"))
        weight, inner_ndcg = _weight(training, rankings, inner, settings, weights, qrels, bm25)
        outer = fold.pop("predictions")
        _place(predicted, held, outer)
        floor[held] = fold.pop("floor")
        quality = Quality.of(examples.ids[held], outer)
        lines = [line for topic in group if topic in rankings
                 for line in run_lines(rerank(rankings[topic], quality, {**settings, "weight": weight}), "reranked")]
        scores = {name: per_topic_scores(lines, {t: labels[t] for t in group if t in labels})
                  for name, labels in qrels.items()}  # fmt: skip
        for name in reranked:
            reranked[name].update(scores[name])
        chosen.append({**fold, "weight": weight, **{f"inner_{name}_{MEASURE}": value for name, value in
                                                     inner_ndcg.items()},
                       **{f"held_out_{name}_{MEASURE}": _mean(scores[name]) for name in scores}})  # fmt: skip
    ndcg = {"bm25": bm25, "reranked": reranked}
    shown = {**settings, "weight": weights[0]} if len(weights) == 1 else {k: v for k, v in settings.items()
                                                                          if k != "weight"}  # fmt: skip
    figures = {**correlations(examples, predicted.quality), "ceilings": ceilings(examples, predicted, floor)}
    return Benchmark(figures, ndcg, shown, len(examples), tuple(chosen))


def _fold(examples: QualitySet, held: np.ndarray, seed: int) -> dict[str, Any]:
    """One outer fold: the ridge penalty its training topics' inner folds choose (by the standardised pooled
    Spearman of their held-out predictions), the held-out topics' predictions by the model of that penalty learnt
    on all training topics, and the inner predictions of the training premises under it."""
    training = examples.select(~held)
    words = word_counts(training.texts)
    inner = {alpha: _empty_predictions(words) for alpha in ALPHAS}
    names = [str(topic) for topic in sorted(set(training.topics.tolist()))]
    for group in topic_folds(names, INNER, seed):
        part = np.isin(training.topics.astype(str), group)
        models = train_quality_models(training.select(~part), ALPHAS, seed)
        for alpha, found in predict_quality_many(models, [training.texts[i] for i in np.flatnonzero(part)]).items():
            _place(inner[alpha], part, found)
    figures = {alpha: correlations(training, inner[alpha].quality, with_length=False)["spearman"] for alpha in ALPHAS}
    alpha = max(ALPHAS, key=lambda value: (figures[value], -ALPHAS.index(value)))
    model = train_quality_model(training, seed, alpha)
    outer = predict_quality(model, [examples.texts[i] for i in np.flatnonzero(held)])
    topics = sorted(set(examples.topics[held].tolist()))
    return {"topics": [str(topic) for topic in topics], "alpha": alpha, "inner_spearman": figures[alpha],
            "held_out_spearman": correlations(examples.select(held), outer.quality, with_length=False)["spearman"],
            "predictions": outer, "floor": model["floor"], "inner_predictions": inner[alpha]}  # fmt: skip


def _weight(training: list[str], rankings: Mapping[str, pa.Table], quality: Quality, settings: Mapping[str, float],
            weights: Sequence[float], qrels: Mapping[str, dict[str, dict[str, int]]],
            bm25: Mapping[str, Mapping[str, float]]) -> tuple[float, dict[str, float]]:  # fmt: skip
    """The re-ranking weight the training topics choose (module docstring) and their figures under it."""
    floor = _mean({topic: bm25["relevance"][topic] for topic in training}) - RELEVANCE_SLACK
    best: tuple[float, dict[str, float]] | None = None
    for weight in weights:
        lines = [line for topic in training for line in run_lines(rerank(rankings[topic], quality,
                                                                         {**settings, "weight": weight}), "w")]
        figures = {name: _mean(per_topic_scores(lines, {t: labels[t] for t in training})) for name, labels in
                   qrels.items()}  # fmt: skip
        allowed = figures["relevance"] >= floor or len(weights) == 1  # a weight given is kept whatever it costs
        if allowed and (best is None or figures["quality"] > best[1]["quality"]):
            best = (weight, figures)
    if best is None:  # every weight costs the training topics more relevance than allowed: BM25's order
        return 0.0, {name: _mean({topic: bm25[name][topic] for topic in training}) for name in qrels}
    return best


def _nested_figures(folds: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The inner figures beside the held-out ones (their mean over the folds) and the folds' spread."""
    if not folds:
        return {}
    out: dict[str, Any] = {"spearman_inner": float(np.mean([fold["inner_spearman"] for fold in folds])),
                           "spearman_spread": fold_spread([fold["held_out_spearman"] for fold in folds])}  # fmt: skip
    for name in ("relevance", "quality"):
        out[f"{name}_{MEASURE}_inner"] = float(np.mean([fold[f"inner_{name}_{MEASURE}"] for fold in folds]))
        out[f"{name}_{MEASURE}_spread"] = fold_spread([fold[f"held_out_{name}_{MEASURE}"] for fold in folds])
    return out


def _bm25_ranking(examples: QualitySet, topic: int, query: str, analyzer) -> pa.Table:
    """The topic's premises that match its query, by BM25 (rank-bm25's defaults), ties by premise id."""
    rows = np.flatnonzero(examples.topics == topic)
    ids = pa.array([examples.ids[row] for row in rows], pa.string())
    index = build_index(ids, analyzer.analyze_many([examples.texts[row] for row in rows]))
    candidates, scores = make_ranker(index, "bm25", {}).score(index.vocabulary.ids(analyzer.analyze(query)))
    docs, scores = top_k(candidates, scores, len(rows))
    return pa.table(
        {"qid": [str(topic)] * len(docs), "doc": index.doc_ids.take(pa.array(docs)).to_pylist(),
         "rank": list(range(1, len(docs) + 1)), "score": scores.tolist()},
        schema=pa.schema([("qid", pa.string()), ("doc", pa.string()), ("rank", pa.int32()), ("score", pa.float64())]),
    )  # fmt: skip


def per_topic_scores(lines: list[RunLine], qrels: dict[str, dict[str, int]]) -> dict[str, float]:
    """Topic → nDCG@5 (0 for a topic the run has no line for: its query matched nothing)."""
    return {topic: scores[MEASURE] for topic, scores in evaluate(lines, qrels, measures=[MEASURE]).per_topic.items()}


def run_lines(ranking: pa.Table, tag: str) -> list[RunLine]:
    """A ranking table's rows as run lines of `tag`."""
    columns = ranking.to_pydict()
    return [
        RunLine(qid=q, q0="Q0", doc=d, rank=r, score=s, tag=tag)
        for q, d, r, s in zip(columns["qid"], columns["doc"], columns["rank"], columns["score"])
    ]


def _per_topic(topics: np.ndarray, values: np.ndarray) -> np.ndarray:
    out = np.zeros(len(values))
    for topic in np.unique(topics):
        chosen = topics == topic
        spread = values[chosen].std()
        out[chosen] = (values[chosen] - values[chosen].mean()) / spread if spread > 0 else 0.0
    return out


def _mean(scores: Mapping[str, float]) -> float:
    return float(np.mean(list(scores.values()))) if scores else float("nan")


def format_benchmark(result: Benchmark) -> str:
    """The correlation table and the re-ranking table, as text: held-out figures first, the inner ones and the
    folds' spread beside them, then each fold's choices."""
    data = result.to_json()
    c = result.correlations
    topics = len(c["spearman_per_topic"])
    nested = bool(result.folds)
    rows = [["predictor", "Spearman", *(["inner", "folds (min–max, sd)"] if nested else []), "Kendall",
             "Spearman (raw pooled)", "mean per topic"],
            ["quality model", f"{c['spearman']:.4f}", *(_beside(data, "spearman") if nested else []),
             *(f"{c[k]:.4f}" for k in ("kendall", "spearman_raw")),
             f"{np.mean(list(c['spearman_per_topic'].values())):.4f}"],
            ["length (words)", f"{c['length_spearman']:.4f}", *(["", ""] if nested else []),
             *(f"{c[k]:.4f}" for k in ("length_kendall", "length_spearman_raw")),
             f"{np.mean(list(c['length_spearman_per_topic'].values())):.4f}"]]  # fmt: skip
    tests = data["paired_tests"]
    ranking = [
        ["ranking", "relevance nDCG@5", "quality nDCG@5"],
        ["BM25", f"{data['bm25_relevance_nDCG@5']:.4f}", f"{data['bm25_quality_nDCG@5']:.4f}"],
        ["BM25 + quality re-ranking", f"{data['relevance_nDCG@5']:.4f}", f"{data['quality_nDCG@5']:.4f}"],
    ]
    if nested:
        ranking.append(["  inner (training topics)", *(f"{data[f'{n}_nDCG@5_inner']:.4f}" for n in ("relevance",
                                                                                               "quality"))])
        ranking.append(["  folds (min–max, sd)", *(_spread_text(data[f"{n}_nDCG@5_spread"]) for n in ("relevance",
                                                                                                   "quality"))])
    ranking.append(["p (t-test / Wilcoxon)", *(f"{_p(tests[n]['p_t'])} / {_p(tests[n]['p_wilcoxon'])}"
                                               for n in ("relevance", "quality"))])  # fmt: skip
    settings = ", ".join(f"{name} {value:g}" for name, value in result.settings.items())
    how = (f"{topics} topics in {len(result.folds)} folds; each fold scored by what the other folds' topics chose in "
           f"{INNER} inner folds" if nested else f"{topics} topics, each held out in turn")  # fmt: skip
    lines = [f"{result.premises} premises, {how}", text_table(rows, rule=True)]
    if "topics_above_length" in c:
        lines.append(f"the model beats length on {c['topics_above_length']} of {topics} topics")
    if "ceilings" in c:
        lines.append("a diagnosis, not a result: Spearman with the true argument flag in place of P(argument) "
                     f"{c['ceilings']['true_argument_flag']:.4f}, with the arguments' true quality in place of the "
                     f"quality part {c['ceilings']['true_quality']:.4f}")  # fmt: skip
    if result.draws is not None:
        lines.append(draws_text(result.draws, DRAWN))
    weight = "" if "weight" in result.settings else "weight chosen per fold, "
    lines += ["", f"re-ranking ({weight}{settings}), mean over {topics} topics", text_table(ranking, rule=True)]
    for number, fold in enumerate(result.folds, start=1):
        lines.append(f"fold {number} (topics {', '.join(fold['topics'])}): ridge penalty {fold['alpha']:g} (inner "
                     f"Spearman {fold['inner_spearman']:.4f}, held out {fold['held_out_spearman']:.4f}), weight "
                     f"{fold['weight']:g} (quality nDCG@5 inner {fold[f'inner_quality_{MEASURE}']:.4f}, held out "
                     f"{fold[f'held_out_quality_{MEASURE}']:.4f})")  # fmt: skip
    return "\n".join(lines)


def _beside(data: Mapping[str, Any], name: str) -> list[str]:
    return [f"{data[f'{name}_inner']:.4f}", _spread_text(data[f"{name}_spread"])]


def _spread_text(spread: Mapping[str, float]) -> str:
    return f"{spread['min']:.4f}–{spread['max']:.4f}, {spread['sd']:.4f}"


def _p(value: float | None) -> str:
    return "-" if value is None else f"{value:.3g}"
