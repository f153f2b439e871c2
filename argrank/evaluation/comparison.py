"""Runs against a baseline, measure by measure: means, differences, a paired test over topics, wins and losses.

What a researcher reads after an experiment, in the shape of PyTerrier's `Experiment` with ir_measures' names: for
every run and measure the mean and, for each run but the baseline, the difference from the baseline, the raw and
the corrected p-value of the paired test (`significance`), whether that rejects "no difference" at alpha, and how
many topics it wins, ties and loses. A run whose scores equal the baseline's on every topic is not tested (it does
not count in the correction either). With every pair tested (`pairs_tested` all, as ranx's Report; Tukey's HSD
always), `pairs` holds each pair's corrected p-value, the correction taken over all pairs per measure, and the
baseline's entries are those pairs'. A figure without per-topic scores (stance F1 is pooled over all pairs) has
its mean only. `reject` is the one significance rule: the text table, the JSON, the CSV and the HTML report all
show it.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from argrank.evaluation.names import (
    ALL_PAIRS,
    ALPHA,
    BASELINE_PAIRS,
    CORRECTIONS,
    HOLM,
    PAIRS,
    PERMUTATIONS,
    T_TEST,
    TESTS,
    TUKEY,
    TUKEY_HSD,
)
from argrank.evaluation.significance import corrected, paired_p_value, tukey_p_values

PerTopic = dict[str, dict[str, dict[str, float]]]  # run tag → topic → measure → score
# The columns of a comparison's summary rows (CSV, Arrow tables): one row per run and measure.
SUMMARY_COLUMNS = ("run", "measure", "baseline", "mean", "difference", "p", "p_corrected", "reject", "wins", "ties",
                   "losses")  # fmt: skip
PER_QUERY_COLUMNS = ("run", "topic", "measure", "value")


@dataclass(frozen=True)
class Significance:
    """How differences are tested: the paired test, the correction per measure, the level, the randomization
    test's number of sign flips and their seed, and which pairs are tested (each run against the baseline, or every
    pair). Tukey's HSD tests every pair and adjusts for all of them itself: its correction reads TUKEY_HSD and its
    pairs ALL_PAIRS, whatever was asked."""

    test: str = T_TEST
    correction: str = HOLM
    alpha: float = ALPHA
    permutations: int = PERMUTATIONS
    seed: int = 0
    pairs_tested: str = BASELINE_PAIRS

    def __post_init__(self) -> None:
        if self.test not in TESTS:
            raise ValueError(f"unknown test {self.test!r}; expected one of {', '.join(TESTS)}")
        if self.test == TUKEY:
            object.__setattr__(self, "correction", TUKEY_HSD)
            object.__setattr__(self, "pairs_tested", ALL_PAIRS)
        elif self.correction not in CORRECTIONS:
            raise ValueError(f"unknown correction {self.correction!r}; expected one of {', '.join(CORRECTIONS)}")
        if self.pairs_tested not in PAIRS:
            raise ValueError(f"unknown pairs {self.pairs_tested!r}; expected one of {', '.join(PAIRS)}")
        if not 0 < self.alpha < 1:
            raise ValueError(f"alpha {self.alpha} is not between 0 and 1")
        if self.permutations < 1:
            raise ValueError(f"permutations {self.permutations}: expected at least 1")


@dataclass(frozen=True)
class Comparison:
    """Runs × measures against `baseline` on one judgments file; `runs[tag][measure]` holds "mean" and, for runs
    other than the baseline, "difference", "p", "p_corrected", "reject", "wins", "ties" and "losses" ("identical"
    where it equals the baseline on every topic). Where every pair is tested, `pairs[measure][tag][other]` is each
    pair's corrected p-value (None where untested or undefined), and a run's entries are its pair with the baseline;
    with Tukey's HSD `p_corrected` is `p`, adjusted for all pairs by the test itself."""

    track: str
    qrels: str
    baseline: str
    measures: list[str]
    significance: Significance
    topics: int
    runs: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    pairs: dict[str, dict[str, dict[str, float | None]]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "track": self.track,
            "qrels": self.qrels,
            "baseline": self.baseline,
            "measures": self.measures,
            **asdict(self.significance),
            "topics": self.topics,
            "runs": self.runs,
            **({"pairs": self.pairs} if self.pairs else {}),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Comparison:
        """The comparison `to_json` wrote."""
        keys = ("test", "correction", "alpha", "permutations", "seed", "pairs_tested")
        settings = Significance(**{key: data[key] for key in keys if key in data})
        return cls(data["track"], data["qrels"], data["baseline"], list(data["measures"]), settings, data["topics"],
                   data["runs"], data.get("pairs", {}))  # fmt: skip

    def significant(self, tag: str, measure: str) -> bool:
        """Whether `tag`'s difference from the baseline on `measure` rejects "no difference"."""
        return bool(self.runs[tag][measure].get("reject"))

    def summary_rows(self) -> list[dict[str, Any]]:
        """One row per run and measure, SUMMARY_COLUMNS (None where a figure does not apply)."""
        return [
            {
                "run": tag,
                "measure": measure,
                "baseline": tag == self.baseline,
                **{key: entry.get(key) for key in SUMMARY_COLUMNS[3:]},
            }
            for tag, figures in self.runs.items()
            for measure in self.measures
            if (entry := figures.get(measure)) is not None
        ]


def compare(
    track: str,
    qrels: str,
    per_topic: PerTopic,
    baseline: str,
    measures: list[str],
    significance: Significance = Significance(),
    pooled: dict[str, dict[str, float | None]] | None = None,
) -> Comparison:
    """The comparison of the runs in `per_topic` (every run on the same topics) with `baseline`; `pooled` adds
    figures without per-topic scores (tag → name → value), means only. ValueError names an unknown baseline or a
    run whose topics differ from the baseline's."""
    if baseline not in per_topic:
        raise ValueError(f"no run tagged {baseline!r} to compare with (runs: {', '.join(per_topic)})")
    topics = list(per_topic[baseline])
    for tag, scores in per_topic.items():
        if set(scores) != set(topics):
            raise ValueError(f"run {tag} is scored on other topics than the baseline {baseline}")
    table = {tag: np.array([[scores[t][m] for m in measures] for t in topics]) for tag, scores in per_topic.items()}
    others = [tag for tag in per_topic if tag != baseline]
    runs: dict[str, dict[str, dict[str, Any]]] = {tag: {} for tag in per_topic}
    pairs: dict[str, dict[str, dict[str, float | None]]] = {}
    for column, measure in enumerate(measures):
        base = table[baseline][:, column]
        base_mean = _mean(base)
        runs[baseline][measure] = {"mean": base_mean}
        if significance.pairs_tested == ALL_PAIRS:
            columns = {tag: scores[:, column] for tag, scores in table.items()}
            raw_pairs, pairs[measure] = _every_pair(columns, significance)
            raw = [raw_pairs[tag][baseline] if np.any(table[tag][:, column] != base) else None for tag in others]
            adjusted = [pairs[measure][tag][baseline] if p is not None else None for tag, p in zip(others, raw)]
        else:
            raw = [paired_p_value(table[tag][:, column], base, significance.test, significance.permutations,
                                  significance.seed) for tag in others]  # fmt: skip
            adjusted = corrected(raw, significance.correction)
        for tag, p, p_corrected in zip(others, raw, adjusted):
            scores = table[tag][:, column]
            entry = {
                "mean": _mean(scores),
                "difference": _mean(scores) - base_mean,
                "p": p,
                "p_corrected": p_corrected,
                "reject": p_corrected is not None and p_corrected < significance.alpha,
                "wins": int(np.sum(scores > base)),
                "ties": int(np.sum(scores == base)),
                "losses": int(np.sum(scores < base)),
            }
            runs[tag][measure] = {**entry, "identical": True} if not np.any(scores != base) else entry
    names = list(measures)
    for tag, figures in (pooled or {}).items():
        for name, value in figures.items():
            runs[tag][name] = {"mean": value}
            names += [name] if name not in names else []
    return Comparison(track, qrels, baseline, names, significance, len(topics), runs, pairs)


def _every_pair(scores: dict[str, np.ndarray], significance: Significance) -> tuple[dict, dict]:
    """(raw, corrected) p-value of every pair of the runs (tag → per-topic scores on one measure), each as tag →
    other → p, None where untested or undefined: Tukey's HSD (raw and corrected the same), else the paired test on
    each pair, corrected over all pairs tested."""
    tags = list(scores)
    if significance.test == TUKEY:
        p = tukey_p_values(np.array([scores[tag] for tag in tags]))
        tukey = {a: {b: None if np.isnan(p[i, j]) else float(p[i, j]) for j, b in enumerate(tags) if j != i}
                 for i, a in enumerate(tags)}  # fmt: skip
        return tukey, tukey
    pairs = [(a, b) for i, a in enumerate(tags) for b in tags[i + 1 :]]
    p = [paired_p_value(scores[a], scores[b], significance.test, significance.permutations, significance.seed)
         for a, b in pairs]  # fmt: skip
    both = []
    for values in (p, corrected(p, significance.correction)):
        by_tag: dict[str, dict[str, float | None]] = {tag: {} for tag in tags}
        for (a, b), value in zip(pairs, values):
            by_tag[a][b] = by_tag[b][a] = value
        both.append({tag: {other: by_tag[tag][other] for other in tags if other != tag} for tag in tags})
    return both[0], both[1]


def per_query_rows(per_topic: PerTopic) -> list[dict[str, Any]]:
    """The per-topic scores in long format (PER_QUERY_COLUMNS), as PyTerrier's `Experiment(perquery=True)` gives
    them: runs in order, topics in the baseline's order, measures in order."""
    return [
        {"run": tag, "topic": topic, "measure": measure, "value": value}
        for tag, by_topic in per_topic.items()
        for topic, scores in by_topic.items()
        for measure, value in scores.items()
    ]


def _mean(scores: np.ndarray) -> float:
    """The mean as the evaluations compute it (exactly rounded sum), so the same run shows the same figure."""
    return math.fsum(scores.tolist()) / len(scores)
