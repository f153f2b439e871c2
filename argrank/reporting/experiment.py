"""Write an experiment's report from what it published: `experiments/<name>/report/index.html` and its files
(written into the folder it is given, which tasks.report publishes whole).

Everything comes from the published folders (runs, evaluation.json) and the judgments the runs file names, so
the report says exactly what the submission says. Per ranking track and judgments file: the runs × measures
table against the baseline (the track's `baseline:`, else its first run), with each difference's corrected
p-value and significance (comparison.Comparison's `reject`), per measure the per-topic differences of every run
on one scale, each sweep's means as heat maps, then what the track adds (RankingTrack.report_extras: stance
matrices, images). A ranking track's section is reporting.ranking_section's; a track of another shape writes its
own (`Track.report_section`). With nightly records, each track's trend as small multiples.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from argrank.config import Experiment
from argrank.core.layout import experiment_folder
from argrank.evaluation.comparison_text import CORRECTION_NAMES, TEST_NAMES
from argrank.evaluation.names import ALPHA, HOLM, SIGNIFICANT, T_TEST
from argrank.formats.html import text
from argrank.reporting.html import page
from argrank.reporting.plots import plot_file_name, trend_plot
from argrank.reporting.ranking_section import ranking_section
from argrank.tracks.registry import track as registered
from argrank.tracks.track import RankingTrack


def write_report(
    experiment: Experiment, output_dir: str | Path, folder: Path, history: list[dict[str, Any]] = ()
) -> list[str]:
    """Write the report of `experiment` (published under `output_dir`) into `folder`; the names of its files,
    relative to it, index.html last."""
    files: list[str] = []
    sections = {}
    for name, section in experiment.tracks.items():
        published = experiment_folder(output_dir, experiment.name) / name
        track = registered(name)
        if not (published / "evaluation.json").is_file():
            sections[name] = '<p class="note">No judgments configured: nothing to compare.</p>'
        elif isinstance(track, RankingTrack):
            sections[name] = ranking_section(track, section, published, folder, files)
        else:
            sections[name] = track.report_section(section, published, folder, files)
    if history:
        sections["trend"] = _trend(history, folder, files)
    runs = sum(len(getattr(section, "runs", ())) for section in experiment.tracks.values())
    intro = (  # the comparison's defaults (evaluation.comparison.Significance)
        f'<p class="note">{runs} runs over {len(experiment.tracks)} tracks. Each run is compared with its track\'s '
        f"baseline (<code>baseline:</code> in the runs file, else the first run) by the "
        f"{TEST_NAMES[T_TEST]} over topics, p-values {CORRECTION_NAMES[HOLM]}-corrected per "
        "measure over the runs tested. "
        f"Under each mean: its difference from the baseline, the corrected p-value and {SIGNIFICANT} where it is "
        "significant "
        f"(p &lt; {ALPHA}); such cells are green (better) or red (worse). Hover a cell for the raw "
        "p-value and wins/ties/losses.</p>"
    )
    (folder / "index.html").write_text(page(f"Experiment {experiment.name}", sections, intro), encoding="utf-8")
    return [*files, "index.html"]


def _trend(history: list[dict[str, Any]], folder: Path, files: list[str]) -> str:
    """Each mean over the nightly records: per track one figure, a small chart per judgments and measure."""
    series: dict[tuple[str, str, str], dict[str, list[tuple[str, float]]]] = {}
    for record in history:
        for (track, qrels, measure, tag), value in _means(record):
            series.setdefault((track, qrels, measure), {}).setdefault(tag, []).append((record["date"], value))
    charts: dict[str, dict[str, dict[str, list[tuple[str, float]]]]] = {}
    for (track, qrels, measure), lines in series.items():
        charts.setdefault(track, {})[f"{qrels}: {measure}"] = lines
    html = [f'<p class="note">{len(history)} nightly records (outputs/history.jsonl).</p>']
    for track, by_chart in charts.items():
        plot = plot_file_name(f"trend-{track}", files)
        trend_plot(folder / plot, f"{track}: each mean over the nightly runs", by_chart)
        files.append(plot)
        html.append(f'<img class="plot trend" src="{text(plot)}" alt="{text(track)}: means over time">')
    return "".join(html)


def _means(record: dict[str, Any]):
    """((track, judgments, measure, run), mean) of a history record."""
    for track, runs in record["means"].items():
        for tag, by_qrels in runs.items():
            for qrels, means in by_qrels.items():
                for measure, value in means.items():
                    if value is not None:
                        yield (track, qrels, measure, tag), value
