"""Write an experiment's report from what it published: `experiments/<name>/report/index.html` and its files
(written into the folder it is given, which tasks.report publishes whole).

Everything comes from the published folders (runs, evaluation.json) and the judgments the runs file names, so
the report says exactly what the submission says. Per ranking track and judgments file: the runs × measures
table against the baseline (the track's first run), cells marked where both corrected tests find a difference,
and the per-topic differences on the first measure. The comparative track adds stance F1 and a confusion matrix
per stance run, the images track the baseline's PRO and CON images per topic with their judgments, the
perspective track its scores per scenario and split; with nightly records, each measure's trend.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from PIL import Image

from argrank.config import Experiment, PerspectiveTrack, Track
from argrank.core.layout import experiment_folder
from argrank.evaluation.comparison import ALPHA, Comparison, compare
from argrank.evaluation.ranking import RankingScores
from argrank.evaluation.results import RunScores, TopicScores
from argrank.formats.runfile import read_run
from argrank.reporting.html import page, table, text
from argrank.reporting.plots import difference_plot, trend_plot
from argrank.tracks.comparative.stance_evaluation import confusion, stance_pairs
from argrank.tracks.comparative.stance_labels import LABELS
from argrank.tracks.comparative.stance_qrels import read_stance_qrels
from argrank.tracks.images.collection import collection_root
from argrank.tracks.images.evaluation import ImageScores
from argrank.tracks.images.qrels import STANCES, read_image_qrels
from argrank.tracks.perspective.evaluation import DIVERSITY, RELEVANCE, K

THUMBS = "thumbs"
THUMB_SIZE = (160, 120)


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
        elif isinstance(track, PerspectiveTrack):
            sections[name] = _perspective(published)
        else:
            sections[name] = _ranking_track(track, published, folder, files)
    if history:
        sections["trend"] = _trend(history, folder, files)
    runs = sum(len(track.runs) for track in experiment.tracks.values() if isinstance(track, Track))
    intro = (
        f'<p class="note">{runs} runs over {len(experiment.tracks)} tracks. Marked cells differ from the baseline '
        f"(the track's first run) in both the paired t-test and the Wilcoxon signed-rank test over topics, "
        f"Holm-corrected per measure, p &lt; {ALPHA}; hover a cell for its p-values and wins/ties/losses.</p>"
    )
    (folder / "index.html").write_text(page(f"Experiment {experiment.name}", sections, intro), encoding="utf-8")
    return [*files, "index.html"]


def _ranking_track(track: Track, published: Path, folder: Path, files: list[str]) -> str:
    scores_type: type[TopicScores] = ImageScores if track.name == "images" else RankingScores
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
    if track.name == "comparative":
        html.append(_stance(track, published, evaluations))
    if track.name == "images" and track.qrels:
        html.append(_images(track, published, tags[0], folder, files))
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


def _stance(track: Track, published: Path, evaluations: dict[str, RunScores]) -> str:
    """Stance F1 per run, and for each run with stance the confusion of its labels with the judged ones."""
    rows = [
        [tag, _p(run.stance.macro) if run.stance else "-", str(run.stance.pairs) if run.stance else "-",
         _p((run.classifier or {}).get("cv_macro_f1"))]
        for tag, run in evaluations.items()
    ]  # fmt: skip
    html = ["<h3>stance</h3>", table(["run", "stance macro-F1", "pairs", "classifier CV macro-F1"], rows)]
    if track.stance_qrels is None:
        return "".join(html)
    judged = read_stance_qrels(track.stance_qrels)
    for tag, run in evaluations.items():
        if run.stance is None or run.stance.macro is None:
            continue
        matrix = confusion(stance_pairs(read_run(published / f"{tag}.txt"), judged))
        body = [[f"judged {label}", *(str(matrix[label][predicted]) for predicted in LABELS)] for label in LABELS]
        html.append(table(["", *(f"run says {label}" for label in LABELS)], body, f"{tag}: stance confusion"))
    return "".join(html)


def _images(track: Track, published: Path, tag: str, folder: Path, files: list[str]) -> str:
    """The baseline's PRO and CON images per topic as thumbnails, each with its judgments."""
    judgments = read_image_qrels(next(iter(track.qrels.values())))
    images = collection_root(track.corpus) / "images"
    lists: dict[str, dict[str, list[tuple[int, str]]]] = {}
    for line in read_run(published / f"{tag}.txt"):
        lists.setdefault(line.qid, {}).setdefault(line.q0, []).append((line.rank, line.doc))
    legend = "Green: on topic and judged for the stance it is listed under; red: judged off topic; plain: other."
    html = [f"<h3>{text(tag)}: its images</h3>", f'<p class="note">{legend}</p>']
    for topic in sorted(lists, key=lambda t: (len(t), t)):
        for stance in STANCES:
            figures = []
            for _, image in sorted(lists[topic].get(stance, [])):
                labels = judgments.get(topic, {}).get(image)
                name = f"{THUMBS}/{image}.jpg"
                if name not in files:  # an image listed for several topics is drawn once
                    _thumbnail(images / image[:3] / image / "image.webp", folder / name)
                    files.append(name)
                kind = "" if not labels else "offtopic" if labels.get("ONTOPIC") == 0 else (
                    "onstance" if labels.get("ONTOPIC") == 1 and labels.get(stance) == 1 else "")  # fmt: skip
                said = ", ".join(f"{k} {v}" for k, v in sorted(labels.items())) if labels else "unjudged"
                figures.append(
                    f'<figure class="{kind}"><img src="{text(name)}" alt="{text(image)}">'
                    f"<figcaption>{text(image)}<br>{text(said)}</figcaption></figure>"
                )
            html.append(f'<h4>topic {text(topic)}, {stance}</h4><div class="thumbs">{"".join(figures)}</div>')
    return "".join(html)


def _thumbnail(source: Path, target: Path) -> None:
    with Image.open(source) as image:
        small = image.convert("RGB")
        small.thumbnail(THUMB_SIZE)
        target.parent.mkdir(parents=True, exist_ok=True)
        small.save(target, format="JPEG", quality=80)


def _perspective(published: Path) -> str:
    """Per scenario and split: relevance and diversity at every k."""
    data = json.loads((published / "evaluation.json").read_text(encoding="utf-8"))
    html = []
    measures = [*RELEVANCE, *DIVERSITY]
    for name, result in data.items():
        rows = [[str(k), *(f"{result[f'{m}@{k}']:.4f}" for m in measures)] for k in K]
        caption = f"{result['queries']} queries; rKL: lower is better"
        html.append(f"<h3>{text(name)}</h3>{table(['k', *measures], rows, caption)}")
    return "".join(html)


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
