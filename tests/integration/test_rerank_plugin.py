"""docs/reranking.md's and docs/query-rewriters.md's entry-point route, proved: a re-ranker and a query rewriter
registered by another distribution (the package in tests/integration/rerankplugin) are swept over one of their
parameters, run through the graph, compared and shown in the report, and run by the nightly and the TIRA contract,
with no line of argrank naming them; a value outside a declared range is refused up front."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from graph import copy_project

from argrank.core import entry_point_groups
from argrank.retrieval.steps import GROUP, REWRITERS
from workflows.cli import main


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    site = tmp_path / "site"
    info = site / "rerankplugin-0.2.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: rerankplugin\nVersion: 0.2\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[{GROUP}]\nlengthy = rerankplugin:by_length\n\n"
                                           f"[{REWRITERS}]\nshorter = rerankplugin:first_terms\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))
    entry_point_groups.forget()
    yield
    entry_point_groups.forget()


def _runs_file(tmp_path: Path, weights) -> tuple[Path, Path]:
    runs_file, outputs = copy_project(tmp_path, "args")
    config = yaml.safe_load(runs_file.read_text())
    config["args"]["runs"] = {
        "bm25": {"method": "bm25"},
        "mine": {"method": "bm25", "rerank": [{"use": "lengthy", "depth": 10, "params": {"weight": weights}}]},
    }
    config["args"]["baseline"] = "bm25"
    config.pop("submission", None)
    runs_file.write_text(yaml.safe_dump(config), encoding="utf-8")
    return runs_file, outputs


def test_an_installed_reranker_is_swept_compared_and_reported(installed, tmp_path, capsys):
    runs_file, outputs = _runs_file(tmp_path, [1.0, -1.0])
    assert main(["run", "--runs-file", str(runs_file), "--outputs", str(outputs)]) == 0
    published = outputs / "experiments" / "runs" / "args"
    assert {p.name for p in published.glob("mine*.txt")} == {"mine-weight_1.0.txt", "mine-weight_-1.0.txt"}
    capsys.readouterr()
    command = ["compare", "--track", "args", "--runs-file", str(runs_file), "--outputs", str(outputs), "--json"]
    assert main(command) == 0
    compared = json.loads(capsys.readouterr().out)
    assert set(compared["runs"]) == {"bm25", "mine-weight_1.0", "mine-weight_-1.0"}
    report = (outputs / "experiments" / "runs" / "report" / "index.html").read_text(encoding="utf-8")
    assert "mine-weight_-1.0" in report


def test_a_value_outside_the_declared_range_is_refused_when_the_runs_file_is_read(installed, tmp_path, capsys):
    runs_file, outputs = _runs_file(tmp_path, 50.0)
    assert main(["run", "--runs-file", str(runs_file), "--outputs", str(outputs)]) != 0
    assert "parameter weight of the re-ranker lengthy must be a number from -10 to 10" in capsys.readouterr().err
    assert not (outputs / "cache").exists()


def test_an_installed_query_rewriter_is_swept_compared_and_reported(installed, tmp_path, capsys):
    runs_file, outputs = copy_project(tmp_path, "args")
    config = yaml.safe_load(runs_file.read_text())
    config["args"]["runs"] = {
        "bm25": {"method": "bm25"},
        "short": {"method": "bm25", "expand": [{"use": "shorter", "params": {"count": [1, 2]}}]},
    }
    config["args"]["baseline"] = "bm25"
    config.pop("submission", None)
    runs_file.write_text(yaml.safe_dump(config), encoding="utf-8")
    assert main(["run", "--runs-file", str(runs_file), "--outputs", str(outputs)]) == 0
    published = outputs / "experiments" / "runs" / "args"
    runs = {p.name: p.read_text() for p in published.glob("*.txt") if p.name != "evaluation.txt"}
    assert set(runs) == {"bm25.txt", "short-count_1.txt", "short-count_2.txt"}
    assert runs["short-count_1.txt"].replace("short-count_1", "bm25") != runs["bm25.txt"]
    capsys.readouterr()
    command = ["compare", "--track", "args", "--runs-file", str(runs_file), "--outputs", str(outputs), "--json"]
    assert main(command) == 0
    assert set(json.loads(capsys.readouterr().out)["runs"]) == {"bm25", "short-count_1", "short-count_2"}
    report = (outputs / "experiments" / "runs" / "report" / "index.html").read_text(encoding="utf-8")
    assert "short-count_2" in report


def test_the_nightly_and_tira_run_installed_steps(installed, tmp_path, capsys):
    """The installed re-ranker and query rewriter in one run, through the nightly and the TIRA contract."""
    runs_file, outputs = copy_project(tmp_path, "args")
    config = yaml.safe_load(runs_file.read_text())
    config["args"]["runs"] = {
        "bm25": {"method": "bm25"},
        "mine": {"method": "bm25", "expand": [{"use": "shorter", "params": {"count": 2}}],
                 "rerank": [{"use": "lengthy", "depth": 10}]},
    }  # fmt: skip
    config["args"].pop("baseline", None)
    runs_file.write_text(yaml.safe_dump(config), encoding="utf-8")
    assert main(["nightly", "--runs-file", str(runs_file), "--outputs", str(outputs)]) == 0
    (record,) = [json.loads(line) for line in (outputs / "history.jsonl").read_text().splitlines()]
    assert set(record["means"]["args"]) == {"bm25", "mine"}

    given = tmp_path / "input"
    shutil.copytree(tmp_path / "data" / "args" / "corpus", given)
    shutil.copy(tmp_path / "data" / "args" / "topics.xml", given / "topics.xml")
    command = ["tira", "-i", str(given), "-o", str(tmp_path / "out"), "--run", "mine", "--runs-file", str(runs_file),
               "--outputs", str(tmp_path / "tira-outputs")]  # fmt: skip
    assert main(command) == 0, capsys.readouterr().err
    lines = (tmp_path / "out" / "run.txt").read_text().splitlines()
    assert lines and {line.split()[5] for line in lines} == {"mine"}
    cache = tmp_path / "tira-outputs" / "cache" / "args"
    assert any((cache / "rerank").iterdir()) and any((cache / "expanded-queries").iterdir())
