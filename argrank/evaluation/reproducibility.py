"""Does my run reproduce the published one? The measures of Breuer et al. (SIGIR 2020), as repro_eval computes them.

Against a reference run (the original) a run (the reproduction) is judged at three levels:

- **document order**, per topic of the run and averaged: Kendall's τ Union (τ over the ranks both lists give the
  union of their documents, both cut at `depth` or the shorter one's length) and rank-biased overlap (Clarke et al.'s form, as the TREC
  Health Misinformation track's: the overlap at each depth weighted by p^(d−1), normalised by those weights,
  p = 0.95 to depth 1,000);
- **effectiveness**: the root mean square error of the per-topic scores, over the reference's topics;
- **overall effects**, against a baseline each: the effect ratio, the reproduction's mean per-topic improvement
  over its baseline divided by the original's over its own, and ΔRI, the original's relative improvement of the
  means minus the reproduction's.

Rankings are read as trec_eval reads a run: by score, ties broken by document id in reverse order. The figures are
shown as a terminal table or, as a paper prints them, a LaTeX or Markdown table (`Reproducibility`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

import argrank.lazylibs as lazylibs
from argrank.core.text_table import text_table
from argrank.evaluation.comparison_text import number
from argrank.evaluation.names import DECIMALS
from argrank.evaluation.paper_table import Grid, Shown
from argrank.formats.runfile import RunLine

RBO_P = 0.95
DEPTH = 1000

Ranking = Mapping[str, list[str]]  # topic → document ids, best first
Scores = Mapping[str, Mapping[str, float]]  # topic → measure → score


def trec_order(run: Mapping[str, Mapping[str, float]]) -> dict[str, list[str]]:
    """topic → document → score as topic → documents in trec_eval's order (score descending, then id descending)."""
    return {topic: [doc for doc, _ in sorted(docs.items(), key=lambda item: (item[1], item[0]), reverse=True)]
            for topic, docs in run.items()}  # fmt: skip


class TopRanked:
    """Each topic's top `depth` documents of a run shown one line at a time (formats.runfile.watched), in
    trec_order's order: all the document-order measures read, without holding a longer run's every line."""

    def __init__(self, depth: int = DEPTH) -> None:
        self.depth = depth
        self._scored: dict[str, list[tuple[float, str]]] = {}

    def __call__(self, line: RunLine) -> None:
        scored = self._scored.setdefault(line.qid, [])
        scored.append((line.score, line.doc))
        if len(scored) >= 2 * self.depth:  # cut back to the top now and then: each line is sorted a few times at most
            scored.sort(reverse=True)
            del scored[self.depth :]

    def ranking(self) -> dict[str, list[str]]:
        """topic → its top documents, best first (score descending, then id descending, as trec_order)."""
        return {topic: [doc for _, doc in sorted(scored, reverse=True)[: self.depth]]
                for topic, scored in self._scored.items()}  # fmt: skip


def kendall_tau_union(reference: Ranking, run: Ranking, depth: int = DEPTH) -> dict[str, float]:
    """Kendall's τ Union per topic of `run`: τ-b between the positions the lists' documents take in the sorted
    union of both, rank by rank. Both lists are cut at `depth`, and at the shorter one's length where they differ
    (repro_eval, which pairs them rank by rank, fails there). A topic where that leaves fewer than two ranks has no
    τ and is left out (undefined_tau names them)."""
    kendalltau = lazylibs.scipy("stats").kendalltau
    taus = {}
    for topic, docs in run.items():
        original, reproduced = list(reference.get(topic, [])), list(docs)
        length = min(depth, len(original), len(reproduced))
        if length < 2:
            continue
        original, reproduced = original[:length], reproduced[:length]
        union = {doc: i for i, doc in enumerate(sorted(set(original) | set(reproduced)))}
        tau = kendalltau([union[doc] for doc in original], [union[doc] for doc in reproduced]).statistic
        taus[topic] = float(round(tau, 14))
    return taus


def undefined_tau(reference: Ranking, run: Ranking, depth: int = DEPTH) -> list[str]:
    """The topics of `run` without Kendall's τ Union: fewer than two ranks in both lists (the reference lacks the
    topic, or one of them holds one document)."""
    return [topic for topic, docs in run.items() if min(depth, len(reference.get(topic, [])), len(docs)) < 2]


def rank_biased_overlap(
    reference: Ranking, run: Ranking, p: float = RBO_P, depth: int | None = DEPTH
) -> dict[str, float]:
    """Rank-biased overlap per topic of `run` with the reference's list, to `depth`, normalised by the weights;
    `depth` None: each topic's longer list (identical lists then score 1 whatever their length)."""
    overlaps = {}
    for topic, docs in run.items():
        original, reproduced = list(reference.get(topic, [])), list(docs)
        seen_original: set[str] = set()
        seen_reproduced: set[str] = set()
        score = weights = 0.0
        weight = 1.0
        for i in range(depth if depth is not None else max(len(original), len(reproduced), 1)):
            if i < len(reproduced):
                seen_reproduced.add(reproduced[i])
            if i < len(original):
                seen_original.add(original[i])
            score += weight * len(seen_original & seen_reproduced) / (i + 1)
            weights += weight
            weight *= p
        overlaps[topic] = score / weights
    return overlaps


def rmse(reference: Scores, run: Scores, measure: str) -> float:
    """The root mean square error of `measure`'s per-topic scores, over the reference's topics (0 where the run
    lacks one)."""
    differences = np.array([scores[measure] - run.get(topic, {}).get(measure, 0.0) for topic, scores in reference.items()])
    return math.sqrt(float(np.sum(np.square(differences))) / len(differences))


def effect_ratio(reference: Scores, reference_baseline: Scores, run: Scores, baseline: Scores, measure: str) -> float:
    """The reproduction's mean per-topic improvement over its baseline divided by the original's over its own
    (1: the same effect; inf or nan where the original improved nothing)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(np.float64(_mean_improvement(run, baseline, measure)) /
                     _mean_improvement(reference, reference_baseline, measure))  # fmt: skip


def delta_ri(reference: Scores, reference_baseline: Scores, run: Scores, baseline: Scores, measure: str) -> float:
    """ΔRI: the original's relative improvement of the means over its baseline minus the reproduction's (0: the
    same relative effect)."""
    return _relative_improvement(reference, reference_baseline, measure) - _relative_improvement(run, baseline, measure)


def _mean_improvement(run: Scores, baseline: Scores, measure: str) -> float:
    return float(np.mean([scores[measure] - baseline[topic][measure] for topic, scores in run.items()]))


def _relative_improvement(run: Scores, baseline: Scores, measure: str) -> float:
    mean = float(np.mean([scores[measure] for scores in run.values()]))
    base = float(np.mean([scores[measure] for scores in baseline.values()]))
    with np.errstate(divide="ignore", invalid="ignore"):
        return float((np.float64(mean) - base) / base)


def against_reference(
    reference: Ranking, reference_scores: Scores, reference_baseline: Scores, rankings: Mapping[str, Ranking],
    scores: Mapping[str, Scores], baseline: Scores, measures: list[str],
) -> dict[str, dict]:  # fmt: skip
    """Per run (tag → ranking and per-topic scores): "ktu" and "rbo" averaged over its topics ("ktu" over those
    with a τ: "ktu_undefined" lists the others; None where none has one), and per measure
    "rmse", "er" and "delta_ri", each run's improvement taken over `baseline` and the reference's over
    `reference_baseline`."""
    result = {}
    for tag, ranking in rankings.items():
        run = scores[tag]
        result[tag] = {
            "ktu": _mean(kendall_tau_union(reference, ranking)),
            "ktu_undefined": undefined_tau(reference, ranking),
            "rbo": _mean(rank_biased_overlap(reference, ranking)),
            "rmse": {m: rmse(reference_scores, run, m) for m in measures},
            "er": {m: effect_ratio(reference_scores, reference_baseline, run, baseline, m) for m in measures},
            "delta_ri": {m: delta_ri(reference_scores, reference_baseline, run, baseline, m) for m in measures},
        }
    return result


@dataclass(frozen=True)
class Reproducibility:
    """against_reference's figures (`result`), to show: for the terminal, naming the reference's files; as a
    paper's table (paper_table.Grid), naming none."""

    reference: str
    reference_baseline: str
    baseline: str
    result: dict[str, dict]
    measures: list[str]
    label: str = "tab:reproducibility"

    def text(self, decimals: int = DECIMALS) -> str:
        head = (f"against the reference {self.reference}: Kendall's tau Union and RBO (p {RBO_P}) of the rankings, "
                f"averaged over topics; per measure the RMSE of per-topic scores, the effect ratio and delta RI (the "
                f"runs over {self.baseline}, the reference over {self.reference_baseline})")  # fmt: skip
        header, rows = self._table(decimals)
        return f"{head}\n\n{text_table([header, *([cell.text for cell in row] for row in rows)], rule=True)}"

    def grid(self, decimals: int = DECIMALS) -> Grid:
        caption = (f"Against the original run: Kendall's tau Union (KTU) and rank-biased overlap (RBO, p {RBO_P}, "
                   f"depth {DEPTH:,}) of each topic's ranking, averaged over topics; per measure the root mean square "
                   f"error of the per-topic scores (RMSE), the effect ratio (ER) and delta RI (dRI) of each run's "
                   f"improvement over the baseline {self.baseline} and the original's over its own "
                   "baseline.")  # fmt: skip
        header, rows = self._table(decimals)
        return Grid(caption, header, rows, names=1)

    def _table(self, decimals: int) -> tuple[list[str], list[list[Shown]]]:
        header = ["run", "KTU", "RBO", *(f"{label} {m}" for m in self.measures for label in ("RMSE", "ER", "dRI"))]
        keys = [(key, m) for m in self.measures for key in ("rmse", "er", "delta_ri")]
        rows = [[Shown(tag), Shown(number(figures["ktu"], decimals)), Shown(number(figures["rbo"], decimals)),
                 *(Shown(number(figures[key][m], decimals)) for key, m in keys)]
                for tag, figures in self.result.items()]  # fmt: skip
        return header, rows


def undefined_note(reference: str, result: Mapping[str, dict]) -> str | None:
    """One warning naming the reference and why a run's KTU leaves topics out or is missing ("-"), or None."""
    parts = []
    for tag, figures in result.items():
        undefined = figures.get("ktu_undefined", [])
        if undefined:
            shown = ", ".join(undefined[:10]) + (f" … ({len(undefined)})" if len(undefined) > 10 else "")
            parts.append(f"{tag}: {'no topic, so KTU is shown as -' if figures['ktu'] is None else 'averaged without'}"
                         f" {shown}")  # fmt: skip
    if not parts:
        return None
    return (f"against the reference {reference}, Kendall's tau Union needs two ranks in both lists of a topic, and "
            f"these have fewer (the reference lacks the topic, or one list holds one document): {'; '.join(parts)}")


def _mean(per_topic: dict[str, float]) -> float | None:
    return float(np.mean(list(per_topic.values()))) if per_topic else None
