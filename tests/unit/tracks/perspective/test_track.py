"""tracks/perspective/track.py: the perspective track as registered, a track of its own shape: its section read by
its own reader, its report and nightly means from what it publishes (scored here on the embedded release), and the
command-line parts it names."""

from __future__ import annotations

import argparse
import importlib
import json
from pathlib import Path

import pytest

from argrank.core.errors import InputError
from argrank.tracks import perspective, registry
from argrank.tracks.perspective.data import query_file, read_corpus, read_queries
from argrank.tracks.perspective.evaluation import evaluate_perspective
from argrank.tracks.perspective.section import NAME, read_perspective_section
from argrank.tracks.perspective.track import TRACK, PerspectiveTrack
from argrank.tracks.track import RankingTrack, Track
from workflows.commands import evaluate

DATA = Path(__file__).resolve().parents[4] / "data" / "perspective"


def _function(where: str):
    module, _, name = where.partition(":")
    return getattr(importlib.import_module(module), name)


def test_the_registry_gives_the_perspective_packages_track_of_its_own_shape():
    assert registry.track("perspective") is TRACK is perspective.TRACK
    assert isinstance(TRACK, PerspectiveTrack) and isinstance(TRACK, Track) and not isinstance(TRACK, RankingTrack)
    assert TRACK.run_rules is None and TRACK.name == NAME  # no TREC runs; its section calls itself by its name


def test_its_section_is_read_by_its_own_reader_whether_or_not_it_is_a_submission(tmp_path):
    runs_file = tmp_path / "runs.yaml"
    settings = {"data": "release", "splits": ["dev"]}
    expected = read_perspective_section(runs_file, settings)
    assert TRACK.read_section(runs_file, settings, False) == expected == TRACK.read_section(runs_file, settings, True)
    with pytest.raises(InputError) as caught:
        TRACK.read_section(runs_file, {"splits": ["dev"]}, True)
    assert (caught.value.path, caught.value.where) == (str(runs_file), "perspective.data")


@pytest.fixture(scope="module")
def published(tmp_path_factory) -> tuple[Path, dict]:
    """A published folder whose evaluation.json holds the embedded release's dev queries, each answered with its
    relevant arguments, per scenario as the track publishes it."""
    corpus = read_corpus(DATA)
    evaluation = {}
    for scenario in ("baseline", "explicit"):
        queries = read_queries(query_file(DATA, scenario, "dev"), corpus)
        answers = {query.query_id: list(query.relevant_candidates) for query in queries}
        evaluation[f"{scenario}/dev"] = evaluate_perspective(corpus, queries, answers, scenario).summary_json()
    folder = tmp_path_factory.mktemp("published")
    (folder / "evaluation.json").write_text(json.dumps(evaluation), encoding="utf-8")
    return folder, evaluation


def test_the_nightly_means_keep_each_listed_measure_of_each_ranking_and_nothing_else(published):
    _, evaluation = published
    means = TRACK.means(None, evaluation)
    assert list(means) == list(evaluation)
    for name, result in evaluation.items():
        assert means[name] == {"scores": {measure: result[measure] for measure in result["measures"]}}
        assert set(TRACK.gate_measures) <= set(means[name]["scores"])
        assert "queries" not in means[name]["scores"] and "scenario" not in means[name]["scores"]


def test_the_report_section_tables_every_published_ranking_and_writes_no_file(published, tmp_path):
    folder, evaluation = published
    files: list[str] = []
    html = TRACK.report_section(None, folder, tmp_path / "report", files)
    for name, result in evaluation.items():
        assert f"<h3>{name}</h3>" in html and f"{result['queries']} queries" in html
    assert files == [] and not (tmp_path / "report").exists()


def test_the_evaluate_options_it_adds_are_ones_it_reads_and_every_one_it_reads_exists():
    own = argparse.ArgumentParser()
    _function(TRACK.evaluate_arguments)(own)
    added = set(vars(own.parse_args([])))
    assert added and added <= set(TRACK.evaluate_options) and added <= set(evaluate.EVALUATE_OPTIONS)
    full = argparse.ArgumentParser()
    evaluate.add_arguments(full)
    assert set(TRACK.evaluate_options) <= set(vars(full.parse_args([])))


def test_its_command_line_module_and_its_own_command_are_found_by_the_names_it_gives():
    module = importlib.import_module(TRACK.command_line)
    assert callable(module.evaluate) and callable(module.compare)
    for name, (where, about) in TRACK.commands.items():
        parser = argparse.ArgumentParser(prog=f"argrank {name}")
        _function(where)(parser)
        assert about and callable(parser.parse_args(["--data", str(DATA)]).handler)
