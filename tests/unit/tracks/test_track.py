"""tracks/track.py: what a track is to the shared parts, with a RankingTrack built here: its defaults, the hooks
a track of its own shape must define, and the ranking track's TIRA section, judgments, scoring, extras and means."""

from __future__ import annotations

from pathlib import Path

import pytest

from argrank.core.errors import InputError
from argrank.evaluation.names import STANCE
from argrank.evaluation.ranking import AVERAGE, RankingScores
from argrank.evaluation.results import RUN_TOPICS
from argrank.formats.runfile import RunLine
from argrank.formats.validation import TREC
from argrank.retrieval.formulations import SHARED_QUERIES
from argrank.tracks.section import RunSpec, TrackSection
from argrank.tracks.track import (
    RANKING_COMPARE_OPTIONS,
    RANKING_EVALUATE_OPTIONS,
    RankingTrack,
    RunProblem,
    StanceJudgments,
    Track,
)


def _track(**fields) -> RankingTrack:
    """A ranking track of the tests' own, named `demo` unless told otherwise."""
    return RankingTrack(**{"name": "demo", "about": "a test track", "corpus_key": "docs", "default_fields": ("text",),
                           **fields})  # fmt: skip


def _section(tmp_path: Path, **fields) -> TrackSection:
    runs = (RunSpec("r1", "bm25", {"k1": 1.2}, "title"), RunSpec("r2", "dirichlet", {"mu": 10.0}, "title"))
    return TrackSection(**{"name": "demo", "corpus": tmp_path / "docs.tsv", "topics": tmp_path / "topics.xml",
                           "qrels": {"relevance": tmp_path / "rel.qrels"}, "fields": ("text",), "depth": 50,
                           "runs": runs, **fields})  # fmt: skip


def test_a_ranking_track_finds_its_tasks_by_its_name_unless_it_names_its_own_module():
    assert _track().tasks == "tasks.tracks.demo"
    assert _track(name="other").tasks == "tasks.tracks.other"
    assert _track(tasks="elsewhere.tasks").tasks == "elsewhere.tasks"


def test_a_ranking_track_defaults_to_trec_runs_the_shared_options_and_a_query_mapping_of_its_own():
    first, second = _track(), _track()
    assert first.run_rules is TREC and first.section_type is TrackSection and first.run_type is RunSpec
    assert (first.evaluate_options, first.compare_options) == (RANKING_EVALUATE_OPTIONS, RANKING_COMPARE_OPTIONS)
    assert first.queries == SHARED_QUERIES and first.queries is not SHARED_QUERIES
    first.queries["mine"] = SHARED_QUERIES["title"]  # one track's formulations never reach another's
    assert "mine" not in second.queries and "mine" not in SHARED_QUERIES


def test_measures_are_named_only_where_evaluate_reads_the_measure_option():
    assert _track().named_measures
    assert not _track(evaluate_options=tuple(o for o in RANKING_EVALUATE_OPTIONS if o != "measure")).named_measures


def test_a_track_of_its_own_shape_must_define_how_its_section_is_read_reported_and_remembered(tmp_path):
    plain = Track()
    with pytest.raises(NotImplementedError):
        plain.read_section(tmp_path / "runs.yaml", {}, False)
    with pytest.raises(NotImplementedError):
        plain.report_section(None, tmp_path, tmp_path, [])
    with pytest.raises(NotImplementedError):
        plain.means(None, {})
    assert issubclass(RunProblem, ValueError)  # callers that catch scoring's ValueErrors catch a run's problem too


def test_a_ranking_track_without_keys_of_its_own_reads_none_and_checks_nothing_more(tmp_path):
    track, section = _track(), _section(tmp_path)
    assert track.read_own(tmp_path / "runs.yaml", "demo", {"docs": "d"}, lambda key, value: tmp_path / value) == {}
    assert track.read_run(tmp_path / "runs.yaml", "demo.runs.r1", {"method": "bm25"}) == {}
    assert track.check_section(tmp_path / "runs.yaml", section) is None


def test_for_tira_ranks_the_given_documents_and_topics_without_judgments_and_keeps_the_runs(tmp_path):
    section = _section(tmp_path)
    given = tmp_path / "input"
    tira = _track().for_tira(section, given, given / "topics.xml")
    assert (tira.corpus, tira.topics, tira.qrels) == (given, given / "topics.xml", {})
    assert (tira.runs, tira.depth, tira.fields, tira.name) == (section.runs, section.depth, section.fields, "demo")
    assert section.qrels and section.corpus == tmp_path / "docs.tsv"  # the configured section is left as it was


def test_judgments_are_read_as_trec_qrels_and_an_unknown_topic_names_the_file(tmp_path):
    path = tmp_path / "rel.qrels"
    path.write_text("1 0 a 2\n1 0 b 0\n2 0 c 1\n", encoding="utf-8")
    assert _track().read_qrels(path) == {"1": {"a": 2.0, "b": 0.0}, "2": {"c": 1.0}}
    with pytest.raises(InputError) as caught:
        _track().read_qrels(path, ["1"])
    assert caught.value.path == str(path) and caught.value.where == "line 3"


QRELS = {"1": {"a": 2.0, "b": 0.0, "c": 1.0}, "2": {"x": 1.0}}
RUN = [RunLine("1", "Q0", doc, rank, 10.0 - rank, "t") for rank, doc in enumerate(["c", "a", "b"], start=1)]


def test_scoring_takes_the_default_measures_at_the_depth_or_the_named_ones_without_it():
    track = _track()
    defaults = track.score(RUN, QRELS, None, 3, None)
    assert isinstance(defaults, track.result_type()) and track.result_type() is RankingScores
    assert defaults.depth == 3 and defaults.measures and all(name.endswith("@3") for name in defaults.measures)
    named = track.score(RUN, QRELS, ["P@1", "RR"], 3, None)
    assert named.depth is None and named.measures == ["P@1", "RR"]


def test_scoring_averages_over_every_judged_topic_unless_told_to_keep_the_runs():
    track = _track()
    every = track.score(RUN, QRELS, ["P@1"], None, None)
    assert every.average == AVERAGE and every.missing == ("2",) and every.means["P@1"] == pytest.approx(0.5)
    runs_only = track.score(RUN, QRELS, ["P@1"], None, RUN_TOPICS)
    assert runs_only.average == RUN_TOPICS and list(runs_only.per_topic) == ["1"]
    assert runs_only.means["P@1"] == pytest.approx(1.0)


def _stance_judgments(reported: list) -> StanceJudgments:
    def report(section, published, evaluations) -> str:
        reported.append((section, published, evaluations))
        return "<p>stance</p>"

    return StanceJudgments(read=dict, evaluate=len, kept=list, format=str, report=report)


def test_stance_judgments_and_their_report_come_only_from_a_track_that_has_them(tmp_path):
    section = _section(tmp_path)
    with_stance = type("StanceSection", (), {"stance_qrels": tmp_path / "stance.qrels"})()
    assert _track().stance_qrels(with_stance) is None
    assert _track().report_extras(section, tmp_path, {}, tmp_path, []) == ""
    reported: list = []
    stance_track = _track(stance_judgments=_stance_judgments(reported))
    assert stance_track.stance_qrels(with_stance) == tmp_path / "stance.qrels"
    assert stance_track.stance_qrels(section) is None  # a section that names none
    evaluations = {"r1": object()}
    assert stance_track.report_extras(section, tmp_path / "published", evaluations, tmp_path, []) == "<p>stance</p>"
    assert reported == [(section, tmp_path / "published", evaluations)]


def test_the_nightly_record_keeps_each_listed_measure_and_only_the_stance_f1_of_stance_results():
    evaluation = {
        "r1": {
            "relevance": {"measures": ["nDCG@5", "Judged@5"], "nDCG@5": 0.5, "Judged@5": 0.75, "ndcg_cut_5": 0.5,
                          "per_topic": {"1": {"nDCG@5": 0.5}}},
            STANCE: {"stance_f1": 0.25, "pairs": 12, "per_label": {"FIRST": 0.5}},
        },
        "r2": {"quality": {"measures": ["P@1"], "P@1": 1.0}},
    }  # fmt: skip
    assert _track().means(None, evaluation) == {
        "r1": {"relevance": {"nDCG@5": 0.5, "Judged@5": 0.75}, STANCE: {"stance_f1": 0.25}},
        "r2": {"quality": {"P@1": 1.0}},
    }
