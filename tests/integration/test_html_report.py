"""The experiment's HTML report: written by the graph, self-contained, complete, and drawn by a real browser."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml
from graph import build, copy_project
from PIL import Image, ImageStat

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


class _Page(HTMLParser):
    """What a structural check needs: every referenced file, every text, every tag, and that tags nest."""

    def __init__(self) -> None:
        super().__init__()
        self.sources: list[str] = []
        self.texts: list[str] = []
        self.open: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self.tags.append(tag)
        for key in ("src", "href"):
            if attributes.get(key):
                self.sources.append(attributes[key])
        if tag not in ("meta", "img", "br"):
            self.open.append(tag)

    def handle_endtag(self, tag):
        assert self.open and self.open.pop() == tag, f"</{tag}> closes nothing open"

    def handle_data(self, data):
        self.texts.append(data)


SWEEP = "argrank-bm25-quality-grid"  # k1 × quality weight: four runs, with the baseline a submission's five
NIGHTS = ("2025-01-01T02:30:00Z", "2025-01-02T02:30:00Z", "2025-01-03T02:30:00Z")


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> tuple[Path, Path, Path]:
    """(report folder, runs file, outputs) of the embedded data's every track, the args track as its baseline and
    a sweep of k1 × the quality re-ranking's weight, with three nightly records of earlier means."""
    tmp_path = tmp_path_factory.mktemp("report")
    runs_file, outputs = copy_project(tmp_path, "args", "comparative", "images", "perspective")
    config = yaml.safe_load(runs_file.read_text())
    runs = config["args"]["runs"]
    quality = runs["argrank-bm25-quality"]
    sweep = {**quality, "params": {"k1": [0.9, 1.2], "b": 0.75}, "quality": {"weight": [0.5, 1.0], "depth": 100}}
    config["args"]["runs"] = {"argrank-bm25": runs["argrank-bm25"], SWEEP: sweep}
    config["comparative"]["baseline"] = list(config["comparative"]["runs"])[-1]  # the runs file chooses it
    runs_file.write_text(yaml.safe_dump(config, sort_keys=False))  # k1, then weight: the rows, then the columns
    outputs.mkdir()
    with (outputs / "history.jsonl").open("w") as history:
        for night, date in enumerate(NIGHTS):
            means = {
                track: {tag: {"relevance": {"nDCG@5": 0.3 + 0.01 * night, "P@10": 0.2}} for tag in ("a", "b", "c")}
                for track in ("args", "comparative")
            }
            history.write(json.dumps({"date": date, "means": means}) + "\n")
    build(runs_file, outputs)
    return outputs / "experiments" / "runs" / "report", runs_file, outputs


def _read(folder: Path) -> _Page:
    parser = _Page()
    parser.feed((folder / "index.html").read_text(encoding="utf-8"))
    parser.close()
    return parser


def _svg_texts(svg: Path) -> list[str]:
    return [html.unescape(found) for found in re.findall(r"<text[^>]*>([^<]*)</text>", svg.read_text())]


def test_the_report_is_self_contained_and_names_every_run_and_measure(report):
    folder, runs_file, outputs = report
    parser = _read(folder)
    assert parser.open == [], f"unclosed tags: {parser.open}"
    for source in parser.sources:
        if source.startswith("#"):
            continue
        assert "://" not in source and not source.startswith("//"), f"{source}: the report must work offline"
        assert (folder / source).is_file(), source
    text = " ".join(parser.texts)
    for track in ("args", "comparative", "images"):
        published = json.loads((outputs / "experiments" / "runs" / track / "evaluation.json").read_text())
        for tag in published:
            assert tag in text, tag
            for qrels, result in published[tag].items():
                if qrels != "stance":
                    assert all(measure in text for measure in result["measures"])
                    assert f"{result[result['measures'][0]]:.4f}" in text
    assert "stance confusion" in text and "judged FIRST" in text
    for scenario in ("baseline/dev", "explicit/dev", "implicit/dev"):
        assert scenario in text
    manifest = json.loads((folder / "manifest.json").read_text())
    assert sorted(manifest["files"]) == sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                                                if p.is_file() and p.name != "manifest.json")  # fmt: skip


def test_every_measure_has_one_difference_plot_with_a_panel_per_run(report):
    folder, runs_file, outputs = report
    sources = _read(folder).sources
    config = yaml.safe_load(runs_file.read_text())
    for track in ("args", "comparative", "images"):
        published = json.loads((outputs / "experiments" / "runs" / track / "evaluation.json").read_text())
        baseline = config[track].get("baseline", next(iter(published)))
        others = [tag for tag in published if tag != baseline]
        for qrels, result in published[baseline].items():
            if qrels == "stance":
                continue
            for measure in result["measures"]:
                plot = f"{track}-{qrels}-differences-{measure}.svg".replace("/", "_")
                assert plot in sources, plot
                texts = _svg_texts(folder / plot)
                assert all(texts.count(tag) == 1 for tag in others), plot  # a panel per run, titled by its tag
                assert measure in " ".join(texts)
    assert not any(source.endswith("-differences.svg") for source in sources)


def test_the_runs_files_baseline_is_the_reports_and_each_cell_shows_its_corrected_p(report):
    folder, runs_file, _ = report
    chosen = yaml.safe_load(runs_file.read_text())["comparative"]["baseline"]
    page = (folder / "index.html").read_text(encoding="utf-8")
    comparative = page[page.index('<section id="comparative">'):page.index('<section id="images">')]
    assert f"baseline {chosen};" in comparative and f"<td>{chosen} (baseline)</td>" in comparative
    assert re.search(r"<small>[+-]\d\.\d{4}, p \d\.\d{4}\*?</small>", comparative)
    # The paper's table (compare --latex's) under the comparison: letters, the best mean per measure in bold.
    published = json.loads((folder.parent / "comparative" / "evaluation.json").read_text())
    best = max(result["relevance"]["nDCG@5"] for result in published.values())
    assert "as a paper's table" in comparative and f"<b>{best:.4f}</b>" in comparative
    plot = folder / "comparative-relevance-differences-nDCG@5.svg"
    assert f"each run − {chosen}, per topic" in " ".join(_svg_texts(plot))


def test_a_sweep_is_a_heat_map_per_measure_with_its_means_written_and_the_best_framed_in_bold(report):
    folder, _, outputs = report
    published = json.loads((outputs / "experiments" / "runs" / "args" / "evaluation.json").read_text())
    swept = [tag for tag in published if tag.startswith(f"{SWEEP}-k1_")]  # tagged in the order written
    assert len(swept) == 4
    for qrels in ("relevance", "quality"):
        plot = f"args-{qrels}-sweep-{SWEEP}.svg"
        assert plot in _read(folder).sources
        texts, svg = _svg_texts(folder / plot), (folder / plot).read_text()
        best = []
        for measure in published[swept[0]][qrels]["measures"]:
            means = [published[tag][qrels][measure] for tag in swept]
            assert all(f"{mean:.4f}" in texts for mean in means)
            best += [f"{max(means):.4f}"] * means.count(max(means))  # every cell of the best mean, where they tie
        assert sorted(re.findall(r"<text[^>]*font(?:-weight)?: 700[^>]*>([^<]*)</text>", svg)) == sorted(best)
        assert {"k1", "weight", "0.9", "1.2", "0.5", "1.0"} <= set(texts)


def test_every_images_run_has_its_thumbnails_and_an_image_two_runs_list_is_one_file(report):
    folder, runs_file, outputs = report
    parser = _read(folder)
    tags = list(yaml.safe_load(runs_file.read_text())["images"]["runs"])
    listed = [
        line.split()[2]
        for tag in tags
        for line in (outputs / "experiments" / "runs" / "images" / f"{tag}.txt").read_text().splitlines()
    ]
    thumbs = [source for source in parser.sources if source.startswith("thumbs/")]
    assert len(thumbs) == len(listed) > 40 * len(tags)
    assert sorted(set(thumbs)) == sorted(f"thumbs/{image}.jpg" for image in set(listed))
    assert len(set(listed)) < len(listed)  # the runs share images, and each is written once
    assert sorted(p.name for p in (folder / "thumbs").iterdir()) == sorted(f"{image}.jpg" for image in set(listed))
    assert parser.tags.count("details") == len(tags)  # one fold per run, headed by its tag
    assert all(f"{tag}: " in " ".join(parser.texts) for tag in tags)


def test_the_trend_is_one_figure_of_small_multiples_per_track_with_one_legend(report):
    folder, _, _ = report
    sources = _read(folder).sources
    assert [source for source in sources if source.startswith("trend-")] == ["trend-args.svg", "trend-comparative.svg"]
    texts = _svg_texts(folder / "trend-args.svg")
    assert texts.count("relevance: nDCG@5") == texts.count("relevance: P@10") == 1
    assert texts.count("a") == texts.count("b") == texts.count("c") == 1  # the legend, once for both charts


def test_an_unchanged_experiment_keeps_its_report_and_a_changed_one_rewrites_it(report):
    folder, runs_file, outputs = report
    index = folder / "index.html"
    before, written = index.read_bytes(), index.stat().st_mtime_ns
    build(runs_file, outputs)
    assert index.stat().st_mtime_ns == written
    config = yaml.safe_load(runs_file.read_text())
    config["args"]["runs"]["argrank-bm25"]["params"]["k1"] = 0.9
    runs_file.write_text(yaml.safe_dump(config))
    build(runs_file, outputs)
    assert index.read_bytes() != before


def _screenshot(page: Path, shot: Path, size: str = "1280,2000") -> Image.Image:
    done = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", f"--window-size={size}",
         f"--screenshot={shot}", page.as_uri()],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0 and shot.is_file(), done.stderr
    return Image.open(shot)


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium here: `make browser` installs Debian's chromium")
def test_a_real_browser_draws_the_report(report, tmp_path):
    folder, _, _ = report
    with _screenshot(folder / "index.html", tmp_path / "report.png") as image:
        assert image.size == (1280, 2000)
        grey = image.convert("L")
        assert ImageStat.Stat(grey).stddev[0] > 20  # tables, plots and text, not a blank page
        marked = image.convert("RGB").getcolors(2**24)
        assert any(rgb == (0xDA, 0xFB, 0xE1) for _, rgb in marked) or any(
            rgb == (0xFF, 0xEB, 0xE9) for _, rgb in marked
        )
    # The heat map as the browser draws it: coloured cells and the red frame around the best.
    with _screenshot(folder / f"args-relevance-sweep-{SWEEP}.svg", tmp_path / "sweep.png", "1280,600") as image:
        colours = {rgb for _, rgb in image.convert("RGB").getcolors(2**24)}
        assert (0xCF, 0x22, 0x2E) in colours and len(colours) > 50
