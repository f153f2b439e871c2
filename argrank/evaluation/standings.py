"""Where would my run have stood that year? Our runs placed among a year's published participants' runs.

Every run, ours and theirs, is ranked by the mean of one measure over the same judged topics, with a confidence
interval of that mean (Student's t over topics, as trec_eval-based overviews report it). Each of our runs is then
tested against every participant's run with the comparison's test and correction (comparison.compare, with our
run as the baseline), so a row says whether ours is significantly better or worse than that participant's run.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import argrank.lazylibs as lazylibs
from argrank.core.text_table import text_table
from argrank.evaluation.comparison import PerTopic, Significance, compare
from argrank.evaluation.names import lower_is_better
from argrank.formats.participant_runs import ParticipantRuns, participant_runs

CONFIDENCE = 0.95


@dataclass(frozen=True)
class Standings:
    """The runs in order of their mean on `measure` (best first); `rows[i]` holds "rank", "run", "ours", "mean",
    "ci_low", "ci_high" and, for a participant's run, "against": our tag → our run against it ("difference" of
    ours from theirs, "p", "p_corrected", "reject", our "wins"/"ties"/"losses"; "identical" where the same on every
    topic)."""

    track: str
    qrels: str
    measure: str
    topics: int
    ours: list[str]
    significance: Significance
    confidence: float
    rows: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"track": self.track, "qrels": self.qrels, "measure": self.measure, "topics": self.topics,
                "ours": self.ours, "test": self.significance.test, "correction": self.significance.correction,
                "alpha": self.significance.alpha, "confidence": self.confidence, "standings": self.rows}  # fmt: skip


def standings(
    track: str, qrels: str, per_topic: PerTopic, ours: list[str], measure: str,
    significance: Significance = Significance(), confidence: float = CONFIDENCE,
) -> Standings:  # fmt: skip
    """Every run of `per_topic` ranked by `measure` (ties by tag), our runs (`ours`, tags in `per_topic`) marked and
    each tested against every other run that is not ours. ValueError for an unknown tag of ours, or no participant."""
    unknown = [tag for tag in ours if tag not in per_topic]
    if unknown:
        raise ValueError(f"no run tagged {', '.join(unknown)} among the runs scored")
    theirs = [tag for tag in per_topic if tag not in ours]
    if not theirs:
        raise ValueError("no participant's run to place ours among")
    tests = {}
    for tag in ours:
        runs = {tag: per_topic[tag], **{other: per_topic[other] for other in theirs}}
        tests[tag] = compare(track, qrels, runs, tag, [measure], significance).runs
    topics = list(per_topic[ours[0]] if ours else per_topic[theirs[0]])
    rows = []
    for tag, by_topic in per_topic.items():
        scores = np.array([by_topic[topic][measure] for topic in topics], dtype=float)
        low, high = _interval(scores, confidence)
        row: dict[str, Any] = {"run": tag, "ours": tag in ours, "mean": math.fsum(scores.tolist()) / len(scores),
                               "ci_low": low, "ci_high": high}  # fmt: skip
        if tag not in ours:
            row["against"] = {mine: _ours_against(tests[mine][tag][measure]) for mine in ours}
        rows.append(row)
    sign = 1 if lower_is_better(measure) else -1
    rows.sort(key=lambda row: (sign * row["mean"], row["run"]))
    for rank, row in enumerate(rows, start=1):
        rows[rank - 1] = {"rank": rank, **row}
    return Standings(track, qrels, measure, len(topics), list(ours), significance, confidence, rows)


def participant_files(folder: Path, ours: list[str]) -> ParticipantRuns:
    """The runs of a folder of published runs (formats.participant_runs: the organizers' layout or a flat folder),
    named by stem or, where stems repeat, by their path below it. ValueError for a folder that is none or holds no
    run, and for a participant's run named like one of `ours`."""
    found = participant_runs(folder)
    shared = sorted(set(found.runs) & set(ours))
    if shared:
        raise ValueError(f"two runs would be named {shared[0]!r}: yours and {found.runs[shared[0]]} (rename yours)")
    return found


def format_standings(result: Standings) -> str:
    """The standings as a terminal table: rank, run (ours marked `*`), mean, interval, and per run of ours its
    difference from each participant's with the corrected p-value (`*` where significant)."""
    head = (f"{result.track} / {result.qrels}: {len(result.rows)} runs ranked by {result.measure} over "
            f"{result.topics} topics, {result.confidence:.0%} confidence intervals (t); ours marked *; "
            f"{result.significance.test} test, {result.significance.correction}-corrected over the participants, "
            f"* where significant at alpha {result.significance.alpha}")  # fmt: skip
    table = [["rank", "run", result.measure, "interval", *(f"{mine} vs it (p)" for mine in result.ours)]]
    for row in result.rows:
        cells = [str(row["rank"]), f"* {row['run']}" if row["ours"] else row["run"], f"{row['mean']:.4f}",
                 "-" if row["ci_low"] is None else f"[{row['ci_low']:.4f}, {row['ci_high']:.4f}]"]  # fmt: skip
        for mine in result.ours:
            entry = row.get("against", {}).get(mine)
            cells.append("" if entry is None else "identical" if entry.get("identical") else
                         f"{entry['difference']:+.4f} ({_p(entry['p_corrected'])}){' *' if entry['reject'] else ''}")
        table.append(cells)
    return f"{head}\n\n{text_table(table, rule=True)}"


def _ours_against(entry: dict[str, Any]) -> dict[str, Any]:
    """A comparison entry of their run against ours (the baseline), turned to say how ours fares against theirs."""
    turned = {**entry, "difference": -entry["difference"], "wins": entry["losses"], "losses": entry["wins"]}
    return {key: turned[key] for key in entry}


def _p(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"


def _interval(scores: np.ndarray, confidence: float) -> tuple[float | None, float | None]:
    """Student's t interval of the mean of `scores`; None where fewer than two topics make it undefined."""
    if len(scores) < 2:
        return None, None
    spread = float(np.std(scores, ddof=1)) / math.sqrt(len(scores))
    if spread == 0:
        return float(scores.mean()), float(scores.mean())
    low, high = lazylibs.scipy("stats").t.interval(confidence, len(scores) - 1, loc=float(scores.mean()), scale=spread)
    return float(low), float(high)
