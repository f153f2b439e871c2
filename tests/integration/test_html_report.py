"""The experiment's HTML report: written by the graph, self-contained, complete, and drawn by a real browser."""

from __future__ import annotations

import json
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
    """What a structural check needs: every referenced file, every text, and that tags nest."""

    def __init__(self) -> None:
        super().__init__()
        self.sources: list[str] = []
        self.texts: list[str] = []
        self.open: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        for key in ("src", "href"):
            if attributes.get(key):
                self.sources.append(attributes[key])
        if tag not in ("meta", "img", "br"):
            self.open.append(tag)

    def handle_endtag(self, tag):
        assert self.open and self.open.pop() == tag, f"</{tag}> closes nothing open"

    def handle_data(self, data):
        self.texts.append(data)


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> tuple[Path, Path, Path]:
    """(report folder, runs file, outputs) of the embedded data's every track."""
    tmp_path = tmp_path_factory.mktemp("report")
    runs_file, outputs = copy_project(tmp_path, "args", "comparative", "images", "perspective")
    build(runs_file, outputs)
    return outputs / "experiments" / "runs" / "report", runs_file, outputs


def test_the_report_is_self_contained_and_names_every_run_and_measure(report):
    folder, runs_file, outputs = report
    parser = _Page()
    parser.feed((folder / "index.html").read_text(encoding="utf-8"))
    parser.close()
    assert parser.open == [], f"unclosed tags: {parser.open}"
    for source in parser.sources:
        if source.startswith("#"):
            continue
        assert "://" not in source and not source.startswith("//"), f"{source}: the report must work offline"
        assert (folder / source).is_file(), source
    text = " ".join(parser.texts)
    config = yaml.safe_load(runs_file.read_text())
    for track in ("args", "comparative", "images"):
        published = json.loads((outputs / "experiments" / "runs" / track / "evaluation.json").read_text())
        for tag in config[track]["runs"]:
            assert tag in text, tag
            for qrels, result in published[tag].items():
                if qrels != "stance":
                    assert all(measure in text for measure in result["measures"])
                    assert f"{result[result['measures'][0]]:.4f}" in text
    assert "stance confusion" in text and "judged FIRST" in text
    first = next(iter(config["images"]["runs"]))  # the baseline: its every PRO and CON image, as a thumbnail
    listed = (outputs / "experiments" / "runs" / "images" / f"{first}.txt").read_text().splitlines()
    assert sum(source.startswith("thumbs/") for source in parser.sources) == len(listed) > 40
    for scenario in ("baseline/dev", "explicit/dev", "implicit/dev"):
        assert scenario in text
    manifest = json.loads((folder / "manifest.json").read_text())
    assert sorted(manifest["files"]) == sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                                                if p.is_file() and p.name != "manifest.json")  # fmt: skip


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


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium here: `make browser` installs Debian's chromium")
def test_a_real_browser_draws_the_report(report, tmp_path):
    folder, _, _ = report
    shot = tmp_path / "report.png"
    done = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1280,2000",
         f"--screenshot={shot}", (folder / "index.html").as_uri()],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0 and shot.is_file(), done.stderr
    with Image.open(shot) as image:
        assert image.size == (1280, 2000)
        grey = image.convert("L")
        assert ImageStat.Stat(grey).stddev[0] > 20  # tables, plots and text, not a blank page
        marked = image.convert("RGB").getcolors(2**24)
        assert any(rgb == (0xDA, 0xFB, 0xE1) for _, rgb in marked) or any(
            rgb == (0xFF, 0xEB, 0xE9) for _, rgb in marked
        )
