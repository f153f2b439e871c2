"""tracks/comparative/track.py: the comparative track as registered, its own runs-file keys read through the
section's `located`, its TIRA section, its run rules and its stance judgments wired to the embedded data."""

from __future__ import annotations

import argparse
import importlib
from pathlib import Path

import pytest

from argrank.core.errors import InputError
from argrank.formats.runfile import Q0, RunLine
from argrank.formats.topics import read_topics
from argrank.formats.validation import validate_run
from argrank.retrieval.formulations import SHARED_QUERIES
from argrank.tracks import comparative, registry
from argrank.tracks.comparative.stance_labels import LABELS
from argrank.tracks.comparative.track import (
    STANCE_MODEL,
    TRACK,
    ComparativeRun,
    ComparativeSection,
    ComparativeTrack,
)
from argrank.tracks.stance_settings import STANCE_MODEL_DEFAULTS

EMBEDDED = Path(__file__).resolve().parents[4] / "data" / "comparative"


class Located:
    """The runs-file reader's `located`, keeping each key it was asked for."""

    def __init__(self, base: Path):
        self.base, self.keys = base, []

    def __call__(self, key: str, value) -> Path:
        self.keys.append(key)
        if not isinstance(value, str) or not value:
            raise InputError(self.base / "runs.yaml", f"comparative.{key}", "expected a path")
        return (self.base / value).resolve()


def _section(tmp_path: Path, *stances: bool, **fields) -> ComparativeSection:
    runs = tuple(ComparativeRun(f"r{i}", "bm25", {}, "title", stance=stance) for i, stance in enumerate(stances))
    return ComparativeSection(name="comparative", corpus=tmp_path / "passages.jsonl.gz", topics=tmp_path / "t.xml",
                              runs=runs, **fields)  # fmt: skip


def test_the_registry_gives_the_comparative_packages_track_by_its_name():
    assert registry.track("comparative") is TRACK is comparative.TRACK
    assert isinstance(TRACK, ComparativeTrack) and TRACK.tasks == "tasks.tracks.comparative"
    assert TRACK.section_type is ComparativeSection and TRACK.run_type is ComparativeRun


def test_title_and_objects_joins_an_embedded_topics_title_and_its_two_objects():
    topic = read_topics(EMBEDDED / "topics.xml")[0]
    query = TRACK.queries["title+objects"](topic)
    assert query.startswith(topic.title) and query.split()[-2:] == ["bicycle", "car"]
    assert {name: TRACK.queries[name] for name in SHARED_QUERIES} == SHARED_QUERIES


def test_its_own_keys_default_to_no_stance_files_and_the_tracks_tuned_classifier(tmp_path):
    located = Located(tmp_path)
    own = TRACK.read_own(tmp_path / "runs.yaml", "comparative", {}, located)
    assert own == {"stance_qrels": None, "stance_training": (), "stance_model": STANCE_MODEL}
    assert STANCE_MODEL != STANCE_MODEL_DEFAULTS and located.keys == []
    own["stance_model"]["c"] = 99.0
    assert TRACK.read_own(tmp_path / "runs.yaml", "comparative", {}, located)["stance_model"] == STANCE_MODEL


def test_stance_files_are_located_each_under_its_own_key(tmp_path):
    located = Located(tmp_path)
    settings = {"stance_qrels": "s.qrels", "stance_training": ["a.tsv", "b.csv"], "stance_model": {"folds": 3}}
    own = TRACK.read_own(tmp_path / "runs.yaml", "comparative", settings, located)
    assert own["stance_qrels"] == tmp_path / "s.qrels"
    assert own["stance_training"] == (tmp_path / "a.tsv", tmp_path / "b.csv")
    assert own["stance_model"] == {"c": STANCE_MODEL["c"], "folds": 3}
    assert located.keys == ["stance_qrels", "stance_training[0]", "stance_training[1]"]
    located.keys.clear()
    assert TRACK.read_own(tmp_path / "runs.yaml", "comparative", {"stance_training": "one.jsonl"}, located)[
        "stance_training"
    ] == (tmp_path / "one.jsonl",)
    assert located.keys == ["stance_training"]


def test_a_runs_stance_is_read_and_a_stance_run_needs_a_training_set(tmp_path):
    assert TRACK.read_run(tmp_path / "runs.yaml", "comparative.runs.r", {"stance": True}) == {"stance": True}
    assert TRACK.read_run(tmp_path / "runs.yaml", "comparative.runs.r", {}) == {"stance": False}
    TRACK.check_section(tmp_path / "runs.yaml", _section(tmp_path, False))
    TRACK.check_section(tmp_path / "runs.yaml", _section(tmp_path, True, stance_training=(tmp_path / "a.tsv",)))
    with pytest.raises(InputError) as caught:
        TRACK.check_section(tmp_path / "runs.yaml", _section(tmp_path, False, True))
    assert caught.value.where == "comparative.stance_training"


def test_for_tira_drops_both_judgments_and_keeps_the_stance_training_set(tmp_path):
    section = _section(tmp_path, True, qrels={"relevance": tmp_path / "r.qrels"}, stance_qrels=tmp_path / "s.qrels",
                       stance_training=(tmp_path / "a.tsv",))  # fmt: skip
    assert TRACK.stance_qrels(section) == tmp_path / "s.qrels"
    given = tmp_path / "input"
    tira = TRACK.for_tira(section, given, given / "topics.xml")
    assert type(tira) is ComparativeSection and (tira.corpus, tira.qrels, tira.stance_qrels) == (given, {}, None)
    assert tira.stance_training == section.stance_training and tira.stance_model == section.stance_model
    assert TRACK.stance_qrels(tira) is None


def _run_file(tmp_path: Path, labels: list[str]) -> Path:
    path = tmp_path / "run.txt"
    lines = (f"1 {label} p{rank} {rank} {10 - rank} tag\n" for rank, label in enumerate(labels, start=1))
    path.write_text("".join(lines), encoding="utf-8")
    return path


def test_its_runs_carry_a_stance_label_or_q0_in_column_2_and_nothing_else(tmp_path):
    assert validate_run(_run_file(tmp_path, list(LABELS)), rules=TRACK.run_rules) == len(LABELS)
    assert validate_run(_run_file(tmp_path, [Q0, Q0]), rules=TRACK.run_rules) == 2
    with pytest.raises(InputError) as caught:
        validate_run(_run_file(tmp_path, ["FIRST", "PRO"]), rules=TRACK.run_rules)
    assert caught.value.where == "line 2"


def test_its_stance_judgments_read_the_embedded_qrels_and_score_a_run_that_repeats_them_perfectly():
    topics = [topic.number for topic in read_topics(EMBEDDED / "topics.xml")]
    judgments = TRACK.stance_judgments.read(EMBEDDED / "qrels-stance.qrels", topics)
    run = [
        RunLine(topic, label, doc, rank, -rank, "echo")
        for topic, judged in judgments.items()
        for rank, (doc, label) in enumerate(judged.items(), start=1)
    ]
    result = TRACK.stance_judgments.evaluate(run, judgments)
    assert result.pairs == sum(map(len, judgments.values())) and result.macro == pytest.approx(1.0)
    kept = TRACK.stance_judgments.kept(judgments)
    for line in [*run, *(RunLine(topic, "NO", "unjudged", 999, -999.0, "echo") for topic in judgments)]:
        kept(line)
    assert kept.lines == run  # only the judged passages' lines are held
    assert TRACK.stance_judgments.evaluate(kept.lines, judgments) == result
    assert "macro-F1 1.0000" in TRACK.stance_judgments.format("echo", result)


def test_its_own_command_builds_its_arguments_from_the_module_it_names():
    for name, (where, about) in TRACK.commands.items():
        module, _, function = where.partition(":")
        parser = argparse.ArgumentParser(prog=f"argrank {name}")
        getattr(importlib.import_module(module), function)(parser)
        assert about and callable(parser.parse_args(["--train", "train.tsv"]).handler)
