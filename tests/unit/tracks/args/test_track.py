"""tracks/args/track.py: the args track as registered, its corpus checked when the runs file is read (the mistake
named at the runs file's key, with the folder's own problem), and its gate measured by its default scoring."""

from __future__ import annotations

from pathlib import Path

import pytest

from argrank.core.errors import InputError
from argrank.evaluation.ranking import DEPTH
from argrank.formats.runfile import RunLine
from argrank.formats.topics import read_topics
from argrank.tracks import args, registry
from argrank.tracks.args.layout import SINGLE_FILE, SOURCE_FILES
from argrank.tracks.args.track import TRACK, ArgsTrack
from argrank.tracks.section import TrackSection

EMBEDDED = Path(__file__).resolve().parents[4] / "data" / "args"


def _check(tmp_path: Path, corpus: Path) -> Path:
    """The runs file `check_section` is told about; raises what it raises for `corpus`."""
    runs_file = tmp_path / "runs.yaml"
    TRACK.check_section(runs_file, TrackSection(name="args", corpus=corpus, topics=EMBEDDED / "topics.xml"))
    return runs_file


def test_the_registry_gives_the_args_packages_track_by_its_name():
    assert registry.track("args") is TRACK is args.TRACK
    assert isinstance(TRACK, ArgsTrack) and TRACK.name == "args" and TRACK.tasks == "tasks.tracks.args"


def test_its_fields_and_quality_text_are_fields_an_argument_has():
    assert set(TRACK.default_fields) <= set(TRACK.allowed_fields)
    assert TRACK.quality_text in TRACK.allowed_fields


def test_the_embedded_corpus_folder_and_a_single_args_me_file_pass(tmp_path):
    _check(tmp_path, EMBEDDED / "corpus")
    _check(tmp_path, EMBEDDED / "corpus" / "idebate.json")
    single = tmp_path / "old"
    single.mkdir()
    (single / SINGLE_FILE).write_text('{"arguments": []}', encoding="utf-8")
    _check(tmp_path, single)


def test_an_incomplete_corpus_folder_is_the_runs_files_mistake_naming_the_missing_files(tmp_path):
    folder = tmp_path / "corpus"
    folder.mkdir()
    for name in SOURCE_FILES[:2]:
        (folder / name).write_text('{"arguments": []}', encoding="utf-8")
    with pytest.raises(InputError) as caught:
        _check(tmp_path, folder)
    assert (caught.value.path, caught.value.where) == (str(tmp_path / "runs.yaml"), "args.corpus")
    assert caught.value.problem.startswith(f"{folder}: incomplete args.me corpus: missing ")
    assert all(name in caught.value.problem for name in SOURCE_FILES[2:])
    assert not any(name in caught.value.problem for name in SOURCE_FILES[:2])


@pytest.mark.parametrize("make, problem", [(None, "no such folder or file"), ("folder", "neither")])
def test_a_corpus_that_is_no_args_me_corpus_is_named_before_any_task_runs(tmp_path, make, problem):
    corpus = tmp_path / "elsewhere"
    if make:
        corpus.mkdir()
        (corpus / "notes.txt").write_text("not a corpus\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        _check(tmp_path, corpus)
    assert caught.value.where == "args.corpus"
    assert caught.value.problem.startswith(f"{corpus}: no args.me corpus") and problem in caught.value.problem


def test_the_gate_measure_is_one_its_default_scoring_gives_and_the_ideal_run_scores_one_on_it():
    topics = [topic.number for topic in read_topics(EMBEDDED / "topics.xml")]
    qrels = TRACK.read_qrels(EMBEDDED / "qrels-relevance.qrels", topics)
    ideal = [
        RunLine(topic, "Q0", doc, rank, -rank, "ideal")
        for topic, judged in qrels.items()
        for rank, doc in enumerate(sorted(judged, key=lambda doc: -judged[doc]), start=1)
    ]
    scores = TRACK.score(ideal, qrels, None, DEPTH, None)
    assert set(TRACK.gate_measures) <= set(scores.measures)
    judged_relevant = [topic for topic, judged in qrels.items() if max(judged.values()) > 0]
    assert judged_relevant
    for measure in TRACK.gate_measures:
        assert all(scores.per_topic[topic][measure] == pytest.approx(1.0) for topic in judged_relevant)
