"""Write an experiment's report from what it published: `experiments/<name>/report/index.html` and its files
(written into the folder it is given, which tasks.report publishes whole).

Everything comes from the published folders (runs, evaluation.json) and the judgments the runs file names, so
the report says exactly what the submission says. Per ranking track and judgments file: the runs × measures
table against the baseline (the track's `baseline:`, else its first run), with each difference's corrected
p-value and significance (comparison.Comparison's `reject`), and the per-topic differences on the first measure, then what the track adds (its adapter's `report_extras`:
stance matrices, images). A track of another shape writes its own section (`TrackAdapter.report_section`); with
nightly records, each measure's trend.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from argrank.config import Experiment, Track
from argrank.core.layout import experiment_folder
from argrank.evaluation.comparison import Comparison, Significance, compare
from argrank.evaluation.comparison_text import CORRECTION_NAMES, TEST_NAMES
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
    settings = Significance()
    intro = (
        f'<p class="note">{runs} runs over {len(experiment.tracks)} tracks. Each run is compared with its track\'s '
        f"baseline (`baseline:` in the runs file, else the first run) by the {TEST_NAMES[settings.test]} over "
        f"topics, p-values {CORRECTION_NAMES[settings.correction]}-corrected per measure over the runs tested. "
        f"Under each mean: its difference from the baseline, the corrected p-value and * where it is significant "
        f"(p &lt; {settings.alpha}); such cells are green (better) or red (worse). Hover a cell for the raw "
        "p-value and wins/ties/losses.</p>"
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
        comparison = compare(track.name, qrels, per_topic, track.baseline_tag, measures)
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
    """Runs × measures: each mean with its difference, corrected p-value and significance mark under it, the cell
    coloured where the difference is significant (the text table's and the JSON's `reject`)."""
    rows = []
    for tag, figures in comparison.runs.items():
        cells = [f"<td>{text(tag)}{' (baseline)' if tag == comparison.baseline else ''}</td>"]
        for measure in comparison.measures:
            entry = figures[measure]
            if "wins" not in entry:
                cells.append(f'<td class="baseline">{_number(entry["mean"])}</td>')
                continue
            if entry.get("identical"):
                detail, tip = "identical to the baseline", "not tested: the same score on every topic"
            else:
                mark = "*" if entry["reject"] else ""
                detail = f"{entry['difference']:+.4f}, p {_number(entry['p_corrected'])}{mark}"
                tip = f"raw p {_number(entry['p'])}, wins/ties/losses {entry['wins']}/{entry['ties']}/{entry['losses']}"
            colour = ("better" if entry["difference"] > 0 else "worse") if entry["reject"] else ""
            cells.append(
                f'<td class="{colour}" title="{text(tip)}">{entry["mean"]:.4f}<small>{text(detail)}</small></td>'
            )
        rows.append(cells)
    settings = comparison.significance
    caption = (
        f"{comparison.topics} topics, baseline {comparison.baseline}; under each mean: difference, "
        f"{CORRECTION_NAMES[settings.correction]}-corrected p ({TEST_NAMES[settings.test]}), * p < {settings.alpha}"
    )
    return table(["run", *comparison.measures], rows, caption, raw=True)


def _number(value: float | None) -> str:
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
