"""A ranking track's section of the experiment's report (reporting.experiment): per judgments file, the runs ×
measures table against the baseline with each difference's corrected p-value and significance
(comparison.Comparison's `reject`), the same as a paper's table (`argrank compare --latex`'s), the standings among
the participants' runs (`argrank compare --participants`'s), per measure the per-topic differences of every run on
one scale, each sweep's means as heat maps, then what the track adds (RankingTrack.report_extras). The marks are
the command line's (evaluation.names): the best mean per measure in bold, SIGNIFICANT a significant difference,
OURS our runs."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from argrank.evaluation.comparison import Comparison, compare
from argrank.evaluation.comparison_text import comparison_method, number
from argrank.evaluation.names import BEST_LEGEND, SIGNIFICANT, SIGNIFICANT_LEGEND, best_value
from argrank.evaluation.paper_table import MAX_RUNS, html_grid, paper_table
from argrank.evaluation.paper_table import html as paper_html
from argrank.evaluation.results import JUDGED_TOPICS, RunScores
from argrank.evaluation.standings import participant_files, standings, standings_grid
from argrank.formats.html import table, text
from argrank.formats.runfile import read_run
from argrank.reporting.plots import difference_plot, plot_file_name, sweep_plot
from argrank.reporting.sweep import Sweep, sweeps, tables
from argrank.tracks.section import TrackSection
from argrank.tracks.track import RankingTrack


def ranking_section(
    track: RankingTrack, section: TrackSection, published: Path, folder: Path, files: list[str]
) -> str:
    """A ranking track's comparison tables and per-topic difference plots per judgments file, then what the track
    adds (RankingTrack.report_extras)."""
    scores_type = track.result_type()
    data = json.loads((published / "evaluation.json").read_text(encoding="utf-8"))
    tags = [spec.tag for spec in section.runs]
    evaluations = {tag: RunScores.from_json(data[tag], scores_type) for tag in tags}
    html = []
    for qrels in [name for name in section.qrels if name in evaluations[tags[0]].judgments]:
        per_topic = {tag: evaluations[tag].judgments[qrels].per_topic for tag in tags}
        measures = evaluations[tags[0]].judgments[qrels].measures
        comparison = compare(section.name, qrels, per_topic, section.baseline_tag, measures)
        html.append(f"<h3>{text(qrels)}</h3>{_comparison_table(comparison)}{_paper_table(comparison)}")
        if section.participants is not None:
            html.append(_standings(track, section, qrels, per_topic, measures))
        html.append(_differences(f"{section.name}-{qrels}", comparison.baseline, per_topic, measures, folder, files))
        means = {tag: evaluations[tag].judgments[qrels].means for tag in tags}
        for found in sweeps(section.runs):
            html.append(_sweep(f"{section.name}-{qrels}", found, means, measures, folder, files))
    html.append(track.report_extras(section, published, evaluations, folder, files))
    return "".join(html)


def _standings(track: RankingTrack, section: TrackSection, qrels: str, per_topic: dict, measures: list[str]) -> str:
    """The runs among the participants' of `participants:` (evaluation.standings), as `compare --participants`
    writes them: ranked by the first measure with t intervals, every measure shown, ours tested against every
    participant's on each."""
    judged = track.read_qrels(section.qrels[qrels])
    theirs = {tag: track.score(read_run(path), judged, measures, None, JUDGED_TOPICS).per_topic
              for tag, path in participant_files(section.participants, list(per_topic)).runs.items()}  # fmt: skip
    result = standings(section.name, qrels, {**per_topic, **theirs}, list(per_topic), measures)
    grid = standings_grid(result)
    caption = f"Among the {len(theirs)} runs of {section.participants.name}. {grid.caption}"
    return f"<h4>among the participants</h4>{html_grid(replace(grid, caption=caption))}"


def _differences(
    name: str, baseline: str, per_topic: dict[str, dict[str, dict[str, float]]], measures: list[str], folder: Path,
    files: list[str],
) -> str:  # fmt: skip
    """Per measure one plot, a panel per run: its per-topic differences from the baseline, all on one scale."""
    html = []
    for measure in measures:
        differences = {
            tag: {topic: scores[measure] - per_topic[baseline][topic][measure] for topic, scores in by.items()}
            for tag, by in per_topic.items()
            if tag != baseline
        }
        if not differences:
            continue
        plot = plot_file_name(f"{name}-differences-{measure}", files)
        difference_plot(folder / plot, measure, baseline, differences)
        files.append(plot)
        html.append(f'<img class="plot" src="{text(plot)}" alt="{text(measure)}: per-topic differences">')
    return "".join(html)


def _sweep(
    name: str, found: Sweep, means: dict[str, dict[str, float]], measures: list[str], folder: Path, files: list[str]
) -> str:
    """A sweep's means as heat maps, a panel per measure (and per pair of its parameters where it lists more)."""
    panels = {}
    for measure in measures:
        for grid in tables(found, {tag: by_measure.get(measure) for tag, by_measure in means.items()}):
            pair = f" · {grid.row} × {grid.column}" if len(found.names) > 2 else ""
            panels[f"{measure}{pair}"] = grid
    plot = plot_file_name(f"{name}-sweep-{found.entry}", files)
    sweep_plot(folder / plot, f"sweep {found.entry}: mean per {' × '.join(found.names)}", panels)
    files.append(plot)
    return (
        f'<h4>sweep {text(found.entry)}</h4><p class="note">{len(found.runs)} runs of one entry; the best mean '
        f'per measure is framed.</p><img class="plot sweep" src="{text(plot)}" alt="sweep {text(found.entry)}">'
    )


def _comparison_table(comparison: Comparison) -> str:
    """Runs × measures: each mean (the best per measure in bold) with its difference, corrected p-value and
    SIGNIFICANT under it, the cell coloured where the difference is significant (the text table's and the JSON's
    `reject`)."""
    best = {m: best_value((figures.get(m, {}).get("mean") for figures in comparison.runs.values()), m)
            for m in comparison.measures}  # fmt: skip
    rows = []
    for tag, figures in comparison.runs.items():
        cells = [f"<td>{text(tag)}{' (baseline)' if tag == comparison.baseline else ''}</td>"]
        for measure in comparison.measures:
            entry = figures.get(measure, {})
            mean = number(entry.get("mean"))
            mean = f"<b>{mean}</b>" if entry.get("mean") is not None and entry["mean"] == best[measure] else mean
            if "wins" not in entry:
                cells.append(f'<td class="baseline">{mean}</td>')
                continue
            if entry.get("identical"):
                detail, tip = "identical to the baseline", "not tested: the same score on every topic"
            else:
                mark = SIGNIFICANT if entry["reject"] else ""
                detail = f"{entry['difference']:+.4f}, p {number(entry['p_corrected'])}{mark}"
                tip = f"raw p {number(entry['p'])}, wins/ties/losses {entry['wins']}/{entry['ties']}/{entry['losses']}"
            colour = ("better" if entry["difference"] > 0 else "worse") if entry["reject"] else ""
            cells.append(f'<td class="{colour}" title="{text(tip)}">{mean}<small>{text(detail)}</small></td>')
        rows.append(cells)
    caption = (
        f"{comparison.topics} topics, baseline {comparison.baseline}; under each mean its difference from the "
        f"baseline and the corrected p-value; {BEST_LEGEND}; {SIGNIFICANT_LEGEND}, green where better, red where "
        f"worse ({comparison_method([comparison])})."
    )
    return table(["run", *comparison.measures], rows, caption, raw=True)


def _paper_table(comparison: Comparison) -> str:
    """The same comparison as `argrank compare --latex` writes it for a paper (evaluation.paper_table)."""
    if len(comparison.runs) > MAX_RUNS:
        return f'<p class="note">{len(comparison.runs)} runs: too many for a paper\'s table (at most {MAX_RUNS}).</p>'
    return f"<h4>as a paper's table</h4>{paper_html(paper_table([comparison]))}"
