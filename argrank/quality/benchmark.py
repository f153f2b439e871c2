"""`argrank quality-benchmark`: the quality model and the quality-aware re-ranking on Webis-ArgQuality-20, each
topic held out in turn (the model never sees the topic it scores).

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

from collections.abc import Mapping
from dataclasses import dataclass
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
from argrank.quality.model import QualityPredictions, predict_quality, train_quality_model
from argrank.quality.rerank import Quality, rerank
from argrank.quality.settings import DEFAULTS
from argrank.retrieval.registry import make_ranker
from argrank.retrieval.top_k import top_k
from argrank.text.multilingual import make_analyzer

MEASURE = "nDCG@5"
NON_ARGUMENT_RELEVANCE = -2  # Touché's label for a non-argument (spam), which nDCG counts as gain 0


@dataclass(frozen=True)
class Benchmark:
    """The held-out correlations, and per topic the nDCG@5 of BM25 and of the re-ranking on both judgments."""

    correlations: dict[str, Any]
    ndcg: dict[str, dict[str, dict[str, float]]]  # "bm25" | "reranked" → "relevance" | "quality" → topic → score
    settings: dict[str, float]
    premises: int

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
            "paired_tests": tests,
            "correlations": self.correlations,
            "per_topic_nDCG@5": self.ndcg,
            "settings": self.settings,
            "premises": self.premises,
            "topics": len(self.ndcg["bm25"]["relevance"]),
        }


def topic_held_out(examples: QualitySet, seed: int = 0) -> QualityPredictions:
    """Each premise's prediction by the model trained on every other topic."""
    quality, argument = np.zeros(len(examples)), np.zeros(len(examples))
    topics = sorted(set(examples.topics.tolist()))
    for topic in track(topics, "topics held out", total=len(topics), unit=" topics"):
        held = examples.topics == topic
        model = train_quality_model(examples.select(~held), seed)
        predicted = predict_quality(model, [examples.texts[i] for i in np.flatnonzero(held)])
        quality[held], argument[held] = predicted.quality, predicted.argument
    return QualityPredictions(quality, argument, word_counts(examples.texts))


def correlations(examples: QualitySet, predicted: np.ndarray) -> dict[str, Any]:
    """Spearman and Kendall of the predictions and of length with combined quality: pooled over topics after
    standardising per topic (the headline figures), pooled raw, and per topic."""
    stats = lazylibs.scipy("stats")
    length = np.log1p(word_counts(examples.texts))
    scored = {"": predicted, "length_": length}
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
    ours, baseline = figures["spearman_per_topic"], figures["length_spearman_per_topic"]
    figures["topics_above_length"] = sum(ours[topic] > baseline[topic] for topic in ours)
    return figures


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


def quality_benchmark(
    examples: QualitySet, queries: Mapping[int, str], settings: Mapping[str, float] | None = None, seed: int = 0
) -> Benchmark:
    """The whole benchmark; `queries` maps every topic of `examples` to its query, `settings` override the
    re-ranking's DEFAULTS."""
    settings = {**DEFAULTS, **(settings or {})}
    predicted = topic_held_out(examples, seed)
    quality = Quality.of(examples.ids, predicted)
    qrels = {
        "relevance": graded(examples, examples.relevance, NON_ARGUMENT_RELEVANCE),
        "quality": graded(examples, examples.quality, 0),
    }
    bm25_lines, reranked_lines = [], []
    analyzer = make_analyzer("en")
    for topic in sorted(queries):
        ranking = _bm25_ranking(examples, topic, queries[topic], analyzer)
        bm25_lines += run_lines(ranking, "bm25")
        reranked_lines += run_lines(rerank(ranking, quality, settings), "reranked")
    ndcg = {
        name: {judgments: per_topic_scores(lines, qrels[judgments]) for judgments in qrels}
        for name, lines in (("bm25", bm25_lines), ("reranked", reranked_lines))
    }
    return Benchmark(correlations(examples, predicted.quality), ndcg, settings, len(examples))


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
    """The correlation table and the re-ranking table, as text."""
    data = result.to_json()
    c = result.correlations
    topics = len(c["spearman_per_topic"])
    rows = [
        ["predictor", "Spearman", "Kendall", "Spearman (raw pooled)", "mean per topic"],
        ["quality model", *(f"{c[k]:.4f}" for k in ("spearman", "kendall", "spearman_raw")),
         f"{np.mean(list(c['spearman_per_topic'].values())):.4f}"],
        ["length (words)", *(f"{c[k]:.4f}" for k in ("length_spearman", "length_kendall", "length_spearman_raw")),
         f"{np.mean(list(c['length_spearman_per_topic'].values())):.4f}"],
    ]  # fmt: skip
    tests = data["paired_tests"]
    ranking = [
        ["ranking", "relevance nDCG@5", "quality nDCG@5"],
        ["BM25", f"{data['bm25_relevance_nDCG@5']:.4f}", f"{data['bm25_quality_nDCG@5']:.4f}"],
        ["BM25 + quality re-ranking", f"{data['relevance_nDCG@5']:.4f}", f"{data['quality_nDCG@5']:.4f}"],
        ["p (t-test / Wilcoxon)", *(f"{_p(tests[n]['p_t'])} / {_p(tests[n]['p_wilcoxon'])}"
                                    for n in ("relevance", "quality"))],
    ]  # fmt: skip
    settings = ", ".join(f"{name} {value:g}" for name, value in result.settings.items())
    return "\n".join([
        f"{result.premises} premises, {topics} topics, each held out in turn",
        text_table(rows, rule=True),
        f"the model beats length on {c['topics_above_length']} of {topics} topics",
        "",
        f"re-ranking ({settings}), mean over {topics} topics",
        text_table(ranking, rule=True),
    ])  # fmt: skip


def _p(value: float | None) -> str:
    return "-" if value is None else f"{value:.3g}"
