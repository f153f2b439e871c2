"""Runs against a baseline, measure by measure: means, paired tests over topics, wins, ties and losses.

What a researcher reads after an experiment, in the shape of PyTerrier's `Experiment` with ir_measures' names:
every run's mean per measure and, for each run but the baseline, the difference's p-values from the paired t-test
and the Wilcoxon signed-rank test (corrected per measure over the runs, `significance`) and how many topics it
wins, ties and loses. A figure without per-topic scores (stance F1 is pooled over all pairs) has its mean only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from argrank.core.text_table import text_table
from argrank.evaluation.significance import BONFERRONI, HOLM, corrected, paired_p_values
from argrank.evaluation.names import ALPHA



@dataclass(frozen=True)
class Comparison:
    """Runs × measures against `baseline` on one judgments file; `runs[tag][measure]` holds "mean" and, for runs
    other than the baseline, "p_t", "p_wilcoxon", "wins", "ties" and "losses"."""

    track: str
    qrels: str
    baseline: str
    measures: list[str]
    correction: str
    topics: int
    runs: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "track": self.track,
            "qrels": self.qrels,
            "baseline": self.baseline,
            "measures": self.measures,
            "correction": self.correction,
            "topics": self.topics,
            "runs": self.runs,
        }

    def significant(self, tag: str, measure: str, alpha: float = ALPHA) -> bool:
        """Whether both corrected tests put `tag`'s difference on `measure` below `alpha`."""
        entry = self.runs[tag][measure]
        return all(entry.get(key) is not None and entry[key] < alpha for key in ("p_t", "p_wilcoxon"))


def compare(
    track: str,
    qrels: str,
    per_topic: dict[str, dict[str, dict[str, float]]],
    baseline: str,
    measures: list[str],
    correction: str = HOLM,
    pooled: dict[str, dict[str, float | None]] | None = None,
) -> Comparison:
    """The comparison of the runs in `per_topic` (tag → topic → measure → score, every run on the same topics)
    with `baseline`; `pooled` adds figures without per-topic scores (tag → name → value), means only. ValueError
    names an unknown baseline or a run whose topics differ from the baseline's."""
    if baseline not in per_topic:
        raise ValueError(f"no run tagged {baseline!r} to compare with (runs: {', '.join(per_topic)})")
    topics = list(per_topic[baseline])
    for tag, scores in per_topic.items():
        if set(scores) != set(topics):
            raise ValueError(f"run {tag} is scored on other topics than the baseline {baseline}")
    table = {tag: np.array([[scores[t][m] for m in measures] for t in topics]) for tag, scores in per_topic.items()}
    others = [tag for tag in per_topic if tag != baseline]
    runs: dict[str, dict[str, dict[str, Any]]] = {tag: {} for tag in per_topic}
    for column, measure in enumerate(measures):
        base = table[baseline][:, column]
        runs[baseline][measure] = {"mean": _mean(base)}
        tests = [paired_p_values(table[tag][:, column], base) for tag in others]
        p_t = corrected([p for p, _ in tests], correction)
        p_wilcoxon = corrected([p for _, p in tests], correction)
        for i, tag in enumerate(others):
            scores = table[tag][:, column]
            runs[tag][measure] = {
                "mean": _mean(scores),
                "p_t": p_t[i],
                "p_wilcoxon": p_wilcoxon[i],
                "wins": int(np.sum(scores > base)),
                "ties": int(np.sum(scores == base)),
                "losses": int(np.sum(scores < base)),
            }
    names = list(measures)
    for tag, figures in (pooled or {}).items():
        for name, value in figures.items():
            runs[tag][name] = {"mean": value}
            names += [name] if name not in names else []
    return Comparison(track, qrels, baseline, names, correction, len(topics), runs)


def format_comparison(comparison: Comparison, alpha: float = ALPHA) -> str:
    """One block per measure: each run's mean, its difference from the baseline, the corrected p-values (a *
    below `alpha`) and wins/ties/losses over topics."""
    how = {HOLM: "Holm", BONFERRONI: "Bonferroni"}[comparison.correction]
    head = f"{comparison.track} / {comparison.qrels}: {comparison.topics} topics, baseline {comparison.baseline}"
    lines = [f"{head}; p-values {how}-corrected per measure, * below {alpha}"]
    for measure in comparison.measures:
        rows = [[measure, "mean", "vs baseline", "p (t-test)", "p (Wilcoxon)", "wins/ties/losses"]]
        for tag, figures in comparison.runs.items():
            entry = figures.get(measure)
            if entry is None:
                continue
            name = f"{tag} (baseline)" if tag == comparison.baseline else tag
            if "wins" not in entry:
                rows.append([name, _number(entry["mean"]), "", "", "", ""])
                continue
            difference = entry["mean"] - comparison.runs[comparison.baseline][measure]["mean"]
            rows.append(
                [
                    name,
                    _number(entry["mean"]),
                    f"{difference:+.4f}",
                    _p(entry["p_t"], alpha),
                    _p(entry["p_wilcoxon"], alpha),
                    f"{entry['wins']}/{entry['ties']}/{entry['losses']}",
                ]
            )
        lines += ["", text_table(rows)]
    return "\n".join(lines)


def _mean(scores: np.ndarray) -> float:
    """The mean as the evaluations compute it (exactly rounded sum), so the same run shows the same figure."""
    return math.fsum(scores.tolist()) / len(scores)


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"


def _p(value: float | None, alpha: float) -> str:
    return "-" if value is None else f"{value:.4f}{'*' if value < alpha else ' '}"
