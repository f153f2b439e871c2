"""Where would my run have stood that year? Our runs placed among a year's published participants' runs.

Every run, ours and theirs, is ranked by the mean of the first measure over the same judged topics, with a confidence
interval of that mean (Student's t over topics, as trec_eval-based overviews report it), and every other measure's
mean is shown beside it (a pooled figure such as stance F1 too, untested). Each of our runs is then tested against
every participant's run on each measure with the comparison's test and correction (comparison.compare, with our run
as the baseline, corrected per measure over the participants' runs), so a row says whether ours is significantly
better or worse than that participant's run. Written for the terminal, as CSV rows, and as a paper's table (LaTeX,
Markdown, HTML: evaluation.paper_table's writers), with the marks of names: SIGNIFICANT, OURS, the best in bold.
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
from argrank.evaluation.comparison_text import method, number
from argrank.evaluation.names import (
    BEST_LEGEND,
    DECIMALS,
    OURS,
    OURS_LEGEND,
    SIGNIFICANT,
    SIGNIFICANT_LEGEND,
    best_value,
    lower_is_better,
)
from argrank.evaluation.paper_table import Grid, Shown, latex_grid, markdown_grid
from argrank.formats.participant_runs import ParticipantRuns, participant_runs

CONFIDENCE = 0.95
# The rows of the standings as CSV: one per run and measure, and per run of ours where a participant's is tested.
STANDINGS_COLUMNS = ("rank", "run", "ours", "measure", "mean", "ci_low", "ci_high", "against", "difference", "p",
                     "p_corrected", "reject", "wins", "ties", "losses")  # fmt: skip
TESTED = ("each run of ours against every participant's run", "the participants' runs")  # method's pairs and over


@dataclass(frozen=True)
class Standings:
    """The runs in order of their mean on the first of `measures` (best first); `rows[i]` holds "rank", "run",
    "ours", that measure's "mean", "ci_low", "ci_high" and, for a participant's run, "against": our tag → our run
    against it ("difference" of ours from theirs, "p", "p_corrected", "reject", our "wins"/"ties"/"losses";
    "identical" where the same on every topic); and "by_measure": the same figures for every measure ("mean" alone
    for a pooled one)."""

    track: str
    qrels: str
    measures: list[str]
    topics: int
    ours: list[str]
    significance: Significance
    confidence: float
    rows: list[dict[str, Any]] = field(default_factory=list)

    @property
    def measure(self) -> str:
        """The measure the runs are ranked by."""
        return self.measures[0]

    def to_json(self) -> dict[str, Any]:
        settings = self.significance
        return {"track": self.track, "qrels": self.qrels, "measure": self.measure, "measures": self.measures,
                "topics": self.topics, "ours": self.ours, "test": settings.test, "correction": settings.correction,
                "alpha": settings.alpha, "permutations": settings.permutations, "seed": settings.seed,
                "confidence": self.confidence, "standings": self.rows}  # fmt: skip

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Standings:
        """The standings `to_json` wrote."""
        settings = Significance(**{key: data[key] for key in ("test", "correction", "alpha", "permutations", "seed")})
        return cls(data["track"], data["qrels"], list(data["measures"]), data["topics"], list(data["ours"]), settings,
                   data["confidence"], list(data["standings"]))  # fmt: skip


def standings(
    track: str, qrels: str, per_topic: PerTopic, ours: list[str], measures: str | list[str],
    significance: Significance = Significance(), confidence: float = CONFIDENCE,
    pooled: dict[str, dict[str, float | None]] | None = None,
) -> Standings:  # fmt: skip
    """Every run of `per_topic` ranked by the first of `measures` (ties by tag), our runs (`ours`, tags in
    `per_topic`) marked and each tested against every other run that is not ours on each measure; `pooled` adds
    figures without per-topic scores (tag → name → value), means only. ValueError for an unknown tag of ours, or
    no participant."""
    measures = [measures] if isinstance(measures, str) else list(measures)
    unknown = [tag for tag in ours if tag not in per_topic]
    if unknown:
        raise ValueError(f"no run tagged {', '.join(unknown)} among the runs scored")
    theirs = [tag for tag in per_topic if tag not in ours]
    if not theirs:
        raise ValueError("no participant's run to place ours among")
    tests = {}
    for tag in ours:
        runs = {tag: per_topic[tag], **{other: per_topic[other] for other in theirs}}
        tests[tag] = compare(track, qrels, runs, tag, measures, significance).runs
    topics = list(per_topic[ours[0]])
    rows = []
    for tag, by_topic in per_topic.items():
        by_measure: dict[str, dict[str, Any]] = {}
        for measure in measures:
            scores = np.array([by_topic[topic][measure] for topic in topics], dtype=float)
            low, high = _interval(scores, confidence)
            by_measure[measure] = {"mean": math.fsum(scores.tolist()) / len(scores), "ci_low": low, "ci_high": high}
            if tag not in ours:
                by_measure[measure]["against"] = {mine: _ours_against(tests[mine][tag][measure]) for mine in ours}
        for name, value in (pooled or {}).get(tag, {}).items():
            by_measure[name] = {"mean": value}
        rows.append({"run": tag, "ours": tag in ours, **by_measure[measures[0]], "by_measure": by_measure})
    sign = 1 if lower_is_better(measures[0]) else -1
    rows.sort(key=lambda row: (sign * row["mean"], row["run"]))
    for rank, row in enumerate(rows, start=1):
        rows[rank - 1] = {"rank": rank, **row}
    names = measures + [name for figures in (pooled or {}).values() for name in figures if name not in measures]
    return Standings(track, qrels, list(dict.fromkeys(names)), len(topics), list(ours), significance, confidence, rows)


def participant_files(folder: Path, ours: list[str]) -> ParticipantRuns:
    """The runs of a folder of published runs (formats.participant_runs: the organizers' layout or a flat folder),
    named by stem or, where stems repeat, by their path below it. ValueError for a folder that is none or holds no
    run, and for a participant's run named like one of `ours`."""
    found = participant_runs(folder)
    shared = sorted(set(found.runs) & set(ours))
    if shared:
        raise ValueError(f"two runs would be named {shared[0]!r}: yours and {found.runs[shared[0]]} (rename yours)")
    return found


def format_standings(result: Standings, decimals: int = DECIMALS) -> str:
    """The standings as a terminal table: rank, run (ours followed by OURS), the ranking measure's mean and
    interval, every other measure's mean, and per run of ours and measure its difference from each participant's
    with the corrected p-value (SIGNIFICANT where significant)."""
    head = (f"{result.track} / {result.qrels}: {len(result.rows)} runs ranked by {result.measure} over "
            f"{result.topics} topics, {result.confidence:.0%} confidence intervals (t); {OURS_LEGEND}; per run of "
            f"ours, its difference from each participant's run and the corrected p-value, {SIGNIFICANT_LEGEND} "
            f"({method(result.significance, *TESTED)})")  # fmt: skip
    header, rows = _table(result, decimals)
    return f"{head}\n\n{text_table([header, *([cell.text for cell in row] for row in rows)], rule=True)}"


def standings_grid(result: Standings, decimals: int = DECIMALS) -> Grid:
    """The standings as a paper's table (paper_table.Grid): the terminal's columns, the best mean per measure in
    bold, and a caption that says what is ranked, how it was tested and what the marks mean; no file named."""
    header, rows = _table(result, decimals)
    caption = (f"Runs ranked by {result.measure}: mean over {result.topics} topics with its {result.confidence:.0%} "
               f"confidence interval (Student's t); {BEST_LEGEND}; {OURS_LEGEND}. Per run of ours, its difference "
               f"from each participant's run and the corrected p-value; {SIGNIFICANT_LEGEND} "
               f"({method(result.significance, *TESTED)}).")  # fmt: skip
    return Grid(caption, header, rows)


def standings_latex(result: Standings, label: str = "tab:standings", decimals: int = DECIMALS) -> str:
    """The standings as a LaTeX table (booktabs)."""
    return latex_grid(standings_grid(result, decimals), label)


def standings_markdown(result: Standings, decimals: int = DECIMALS) -> str:
    """The standings as a Markdown pipe table."""
    return markdown_grid(standings_grid(result, decimals))


def standings_rows(result: Standings) -> list[dict[str, Any]]:
    """The standings as rows of STANDINGS_COLUMNS (CSV): one per run and measure, one per run of ours against a
    participant's run where it was tested (`against` our tag)."""
    out = []
    for row in result.rows:
        for measure, figures in row["by_measure"].items():
            base = {"rank": row["rank"], "run": row["run"], "ours": row["ours"], "measure": measure,
                    **{key: figures.get(key) for key in ("mean", "ci_low", "ci_high")}}  # fmt: skip
            against = figures.get("against") or {None: {}}
            out += [{**base, "against": mine, **{key: entry.get(key) for key in STANDINGS_COLUMNS[8:]}}
                    for mine, entry in against.items()]  # fmt: skip
    return out


def _table(result: Standings, decimals: int) -> tuple[list[str], list[list[Shown]]]:
    """The header and the cells of the standings, the best mean per measure bold."""
    ranked, others = result.measure, result.measures[1:]
    tested = [m for m in result.measures if any("against" in row["by_measure"].get(m, {}) for row in result.rows)]
    versus = [(mine, m) for mine in result.ours for m in tested]
    header = ["rank", "run", ranked, f"{result.confidence:.0%} interval", *others,
              *(f"{mine} vs it (p)" if len(tested) == 1 else f"{mine} vs it, {m} (p)" for mine, m in versus)]
    best = {m: best_value((row["by_measure"].get(m, {}).get("mean") for row in result.rows), m)
            for m in result.measures}  # fmt: skip
    rows = []
    for row in result.rows:
        by = row["by_measure"]
        low, high = number(row["ci_low"], decimals), number(row["ci_high"], decimals)
        interval = "-" if row["ci_low"] is None else f"[{low}, {high}]"
        cells = [Shown(str(row["rank"])), Shown(f"{row['run']} {OURS}" if row["ours"] else row["run"]),
                 _mean(by, ranked, best, decimals), Shown(interval), *(_mean(by, m, best, decimals) for m in others)]
        for mine, m in versus:
            entry = by[m].get("against", {}).get(mine)
            cells.append(Shown("" if entry is None else "identical" if entry.get("identical") else
                               f"{entry['difference']:+.{decimals}f} ({number(entry['p_corrected'], decimals)})"
                               f"{' ' + SIGNIFICANT if entry['reject'] else ''}"))  # fmt: skip
        rows.append(cells)
    return header, rows


def _mean(by_measure: dict[str, dict[str, Any]], measure: str, best: dict[str, float | None], decimals: int) -> Shown:
    value = by_measure.get(measure, {}).get("mean")
    return Shown(number(value, decimals), value is not None and value == best[measure])


def _ours_against(entry: dict[str, Any]) -> dict[str, Any]:
    """A comparison entry of their run against ours (the baseline), turned to say how ours fares against theirs."""
    turned = {**entry, "difference": -entry["difference"], "wins": entry["losses"], "losses": entry["wins"]}
    return {key: turned[key] for key in entry}


def _interval(scores: np.ndarray, confidence: float) -> tuple[float | None, float | None]:
    """Student's t interval of the mean of `scores`; None where fewer than two topics make it undefined."""
    if len(scores) < 2:
        return None, None
    spread = float(np.std(scores, ddof=1)) / math.sqrt(len(scores))
    if spread == 0:
        return float(scores.mean()), float(scores.mean())
    low, high = lazylibs.scipy("stats").t.interval(confidence, len(scores) - 1, loc=float(scores.mean()), scale=spread)
    return float(low), float(high)
