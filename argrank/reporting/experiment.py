"""Write an experiment's report from what it published: `experiments/<name>/report/index.html` and its files
(written into the folder it is given, which tasks.report publishes whole).

Everything comes from the published folders (runs, evaluation.json) and the judgments the runs file names, so
the report says exactly what the submission says. Per ranking track and judgments file: the runs × measures
table against the baseline (the track's first run), cells marked where both corrected tests find a difference,
and the per-topic differences on the first measure, then what the track adds (its adapter's `report_extras`:
stance matrices, images). A track of another shape writes its own section (`TrackAdapter.report_section`); with
nightly records, each measure's trend.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from argrank.config import Experiment, Track
from argrank.core.layout import experiment_folder
from argrank.evaluation.comparison import ALPHA, Comparison, compare
from argrank.evaluation.results import RunScores
from argrank.reporting.html import page, table, text
from argrank.reporting.plots import difference_plot, trend_plot
from argrank.tracks.registry import track as registered

if TYPE_CHECKING:
    from argrank.tracks.adapter import RankingTrack


def write_report(
    experiment: Experiment, output_dir: str | Path, folder: Path, history: list[dict[str, Any]] = ()
) -> list[str]:
    """Write the report of `experiment` (published under `output_dir`) into `folder`; the names of its files,
    relative to it, index.html last."""
    files: list[str] = []
    sections = {}
    for name, track in experiment.tracks.items():
        published = experiment_folder(output_dir, experiment.name) / name
        if not (published / "evaluation.json").is_file():
            sections[name] = '<p class="note">No judgments configured: nothing to compare.</p>'
        else:
            sections[name] = registered(name).report_section(track, published, folder, files)
    if history:
        sections["trend"] = _trend(history, folder, files)
    runs = sum(len(getattr(track, "runs", ())) for track in experiment.tracks.values())
    intro = (
        f'<p class="note">{runs} runs over {len(experiment.tracks)} tracks. Marked cells differ from the baseline '
        f"(the track's first run) in both the paired t-test and the Wilcoxon signed-rank test over topics, "
        f"Holm-corrected per measure, p &lt; {ALPHA}; hover a cell for its p-values and wins/ties/losses.</p>"
    )
    (folder / "index.html").write_text(page(f"Experiment {experiment.name}", sections, intro), encoding="utf-8")
    return [*files, "index.html"]


def ranking_section(adapter: RankingTrack, track: Track, published: Path, folder: Path, files: list[str]) -> str:
    """A ranking track's comparison tables and per-topic difference plots per judgments file, then what the track
    adds (RankingTrack.report_extras)."""
    scores_type = adapter.result_type()
    data = json.loads((published / "evaluation.json").read_text(encoding="utf-8"))
    tags = [spec.tag for spec in track.runs]
    evaluations = {tag: RunScores.from_json(data[tag], scores_type) for tag in tags}
    html = []
    for qrels in [name for name in track.qrels if name in evaluations[tags[0]].judgments]:
        per_topic = {tag: evaluations[tag].judgments[qrels].per_topic for tag in tags}
        measures = evaluations[tags[0]].judgments[qrels].measures
        comparison = compare(track.name, qrels, per_topic, tags[0], measures)
        plot = f"{track.name}-{qrels}-differences.svg"
        differences = {
            tag: {topic: scores[measures[0]] - per_topic[tags[0]][topic][measures[0]] for topic, scores in by.items()}
            for tag, by in per_topic.items()
            if tag != tags[0]
        }
        if differences:
            difference_plot(folder / plot, measures[0], tags[0], differences)
            files.append(plot)
        html.append(f"<h3>{text(qrels)}</h3>{_comparison_table(comparison)}")
        html.append(f'<img class="plot" src="{text(plot)}" alt="per-topic differences">' if differences else "")
    html.append(adapter.report_extras(track, published, evaluations, folder, files))
    return "".join(html)


def _comparison_table(comparison: Comparison) -> str:
    """Runs × measures: means, marked where significantly better or worse than the baseline."""
    rows = []
    for tag, figures in comparison.runs.items():
        cells = [f"<td>{text(tag)}{' (baseline)' if tag == comparison.baseline else ''}</td>"]
        for measure in comparison.measures:
            entry = figures[measure]
            if tag == comparison.baseline:
                cells.append(f'<td class="baseline">{entry["mean"]:.4f}</td>')
                continue
            p_t, p_w = (_p(entry["p_t"]), _p(entry["p_wilcoxon"]))
            tip = f"p (t) {p_t}, p (Wilcoxon) {p_w}, wins/ties/losses {entry['wins']}/{entry['ties']}/{entry['losses']}"
            better = entry["mean"] > comparison.runs[comparison.baseline][measure]["mean"]
            mark = ("better" if better else "worse") if comparison.significant(tag, measure) else ""
            cells.append(f'<td class="{mark}" title="{text(tip)}">{entry["mean"]:.4f}</td>')
        rows.append(cells)
    caption = f"{comparison.topics} topics, baseline {comparison.baseline}"
    return table(["run", *comparison.measures], rows, caption, raw=True)


def _p(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"


def _trend(history: list[dict[str, Any]], folder: Path, files: list[str]) -> str:
    """Each measure's mean over the nightly records, one plot per track, judgments and measure."""
    series: dict[tuple[str, str, str], dict[str, list[tuple[str, float]]]] = {}
    for record in history:
        for (track, qrels, measure, tag), value in _means(record):
            series.setdefault((track, qrels, measure), {}).setdefault(tag, []).append((record["date"], value))
    html = [f'<p class="note">{len(history)} nightly records (outputs/history.jsonl).</p>']
    for (track, qrels, measure), lines in series.items():
        plot = f"trend-{track}-{qrels}-{measure}.svg".replace("/", "_")
        trend_plot(folder / plot, f"{track} / {qrels}: {measure}", lines)
        files.append(plot)
        html.append(f'<img class="plot" src="{text(plot)}" alt="{text(measure)} over time">')
    return "".join(html)


def _means(record: dict[str, Any]):
    """((track, judgments, measure, run), mean) of a history record."""
    for track, runs in record["means"].items():
        for tag, by_qrels in runs.items():
            for qrels, means in by_qrels.items():
                for measure, value in means.items():
                    if value is not None:
                        yield (track, qrels, measure, tag), value
