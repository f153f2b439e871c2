"""The recipe of docs/extending.md, proved: a fifth track defined only in tests/integration/toytrack (its Track,
its reader and its ingest task), registered through the `argrank.tracks` entry-point group as another distribution
would register it, runs through the graph, publishes, evaluates, shows in the report and in `compare`, with no
line of argrank, tasks or workflows naming it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from argrank.core import entry_point_groups
from argrank.tracks import registry
from tasks.track_tasks import track_tasks
from workflows.cli import main

DOCUMENTS = {
    "d1": "school uniforms reduce bullying in school",
    "d2": "uniforms cost families money every school year",
    "d3": "nuclear energy is clean and reliable energy",
    "d4": "nuclear waste stays dangerous for a long time",
    "d5": "a recipe for bread with flour and water",
    "d6": "school lunches should be free for every pupil",
    "d7": "energy prices rise when reactors close",
    "d8": "students express themselves through clothes at school",
}
TOPICS = {"1": "Should school uniforms be required?", "2": "Is nuclear energy good?", "3": "Should lunch be free?"}
QRELS = [("1", "d1", 2), ("1", "d2", 1), ("1", "d8", 1), ("1", "d6", 0), ("2", "d3", 2), ("2", "d4", 1),
         ("2", "d7", 1), ("3", "d6", 2), ("3", "d5", 0)]  # fmt: skip
RUNS_FILE = """\
experiment: toy-experiment
toy:
  documents: documents.tsv
  topics: topics.xml
  qrels: {relevance: qrels.txt}
  runs:
    toy-bm25: {method: bm25}
    toy-dirichlet: {method: dirichlet, params: {mu: 10}}
"""


@pytest.fixture
def toy_track(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The toy track installed as a distribution's entry point, and its data and runs file in `tmp_path`."""
    site = tmp_path / "site"
    info = site / "toytrack-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toytrack\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[{registry.GROUP}]\ntoy = toytrack:TRACK\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))
    _forget_tracks()
    data = tmp_path / "data"
    data.mkdir()
    (data / "documents.tsv").write_text("".join(f"{d}\t{t}\n" for d, t in DOCUMENTS.items()), encoding="utf-8")
    topics = "".join(f"<topic><number>{n}</number><title>{t}</title></topic>" for n, t in TOPICS.items())
    (data / "topics.xml").write_text(f"<topics>{topics}</topics>\n", encoding="utf-8")
    (data / "qrels.txt").write_text("".join(f"{q} 0 {d} {label}\n" for q, d, label in QRELS), encoding="utf-8")
    (data / "toy.yaml").write_text(RUNS_FILE, encoding="utf-8")
    yield data
    _forget_tracks()  # the other tests see the four tracks only


def _forget_tracks() -> None:
    entry_point_groups.forget()
    registry.locations.cache_clear()
    registry._load.cache_clear()
    track_tasks.cache_clear()


def test_a_track_defined_outside_argrank_runs_end_to_end(toy_track: Path, tmp_path: Path, capsys) -> None:
    assert "toy" in registry.track_names()
    outputs = tmp_path / "outputs"
    runs_file = str(toy_track / "toy.yaml")
    assert main(["run", "--runs-file", runs_file, "--outputs", str(outputs)]) == 0
    published = outputs / "experiments" / "toy-experiment" / "toy"
    assert {p.name for p in published.glob("*.txt")} == {"toy-bm25.txt", "toy-dirichlet.txt", "evaluation.txt"}
    scores = json.loads((published / "evaluation.json").read_text(encoding="utf-8"))
    assert set(scores) == {"toy-bm25", "toy-dirichlet"}
    # Topic 1's best document holds two of its words, so BM25 ranks a relevant document first there.
    assert scores["toy-bm25"]["relevance"]["per_topic"]["1"]["nDCG@5"] > 0.5
    assert main(["validate", "--track", "toy", str(published / "toy-bm25.txt")]) == 0

    capsys.readouterr()
    qrels = str(toy_track / "qrels.txt")
    run = str(published / "toy-bm25.txt")
    assert main(["evaluate", "--track", "toy", "--run", run, "--qrels", qrels, "--json"]) == 0
    evaluated = json.loads(capsys.readouterr().out)
    assert evaluated["nDCG@5"] == pytest.approx(scores["toy-bm25"]["relevance"]["nDCG@5"])

    command = ["compare", "--track", "toy", "--runs-file", runs_file, "--outputs", str(outputs)]
    assert main([*command, "--baseline", "toy-bm25", "--json"]) == 0
    compared = json.loads(capsys.readouterr().out)
    assert set(compared["runs"]) == {"toy-bm25", "toy-dirichlet"} and compared["baseline"] == "toy-bm25"

    report = (outputs / "experiments" / "toy-experiment" / "report" / "index.html").read_text(encoding="utf-8")
    assert '<section id="toy">' in report and "toy-dirichlet" in report and "baseline toy-bm25" in report


def test_an_unknown_track_is_named_with_the_known_ones(tmp_path: Path) -> None:
    (tmp_path / "runs.yaml").write_text("toy: {}\n", encoding="utf-8")
    from argrank.config import load_experiment
    from argrank.core.errors import InputError

    with pytest.raises(InputError, match=r"unknown track or setting \(known: args, comparative, images, perspective"):
        load_experiment(tmp_path / "runs.yaml")
