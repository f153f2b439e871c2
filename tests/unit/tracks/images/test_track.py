"""tracks/images/track.py: the images track as registered, its own runs-file keys and run settings checked by key,
its TIRA section's training set, its PRO and CON run rules, and its judgments, scores and report extras on the
embedded collection."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import pytest

from argrank.core.errors import InputError
from argrank.evaluation.results import JUDGED_TOPICS, RunScores
from argrank.formats.runfile import Q0, RunLine
from argrank.formats.validation import validate_run
from argrank.tracks import images, registry
from argrank.tracks.images.evaluation import AVERAGE, ImageScores
from argrank.tracks.images.stance_in_sample import image_stance_in_sample
from argrank.tracks.images.track import (
    NEAR_DUPLICATE_BITS,
    TRACK,
    TRAINING_FILE,
    ImageRun,
    ImageSection,
    ImagesTrack,
)
from argrank.tracks.stance_settings import STANCE_MODEL_DEFAULTS
from argrank.tracks.track import RunProblem

EMBEDDED = Path(__file__).resolve().parents[4] / "data" / "images"
COLLECTION = EMBEDDED / "collection"
RUNS_FILE = Path("runs.yaml")


def _located(key: str, value) -> Path:
    return Path("/data") / value


def _section(*stances: bool, **fields) -> ImageSection:
    runs = tuple(ImageRun(f"r{i}", "bm25", {}, "title", stance=stance) for i, stance in enumerate(stances))
    return ImageSection(**{"name": "images", "corpus": COLLECTION, "topics": COLLECTION / "topics.xml",
                           "runs": runs, **fields})  # fmt: skip


def test_the_registry_gives_the_images_packages_track_by_its_name():
    assert registry.track("images") is TRACK is images.TRACK
    assert isinstance(TRACK, ImagesTrack) and TRACK.tasks == "tasks.tracks.images"
    assert TRACK.section_type is ImageSection and TRACK.run_type is ImageRun
    assert not TRACK.named_measures and not TRACK.rerank_steps


def test_its_own_keys_default_to_no_training_set_the_shared_classifier_and_the_near_duplicate_bits():
    own = TRACK.read_own(RUNS_FILE, "images", {}, _located)
    assert own == {"stance_training": None, "stance_model": STANCE_MODEL_DEFAULTS,
                   "near_duplicate_bits": NEAR_DUPLICATE_BITS}  # fmt: skip
    given = TRACK.read_own(RUNS_FILE, "images", {"stance_training": "t.txt", "near_duplicate_bits": 0}, _located)
    assert (given["stance_training"], given["near_duplicate_bits"]) == (Path("/data/t.txt"), 0)
    assert TRACK.read_own(RUNS_FILE, "images", {"near_duplicate_bits": 64}, _located)["near_duplicate_bits"] == 64


@pytest.mark.parametrize("bits", [-1, 65, 2.5, True, "10", None])
def test_near_duplicate_bits_outside_0_to_64_are_named(bits):
    with pytest.raises(InputError) as caught:
        TRACK.read_own(RUNS_FILE, "images", {"near_duplicate_bits": bits}, _located)
    assert (caught.value.path, caught.value.where) == (str(RUNS_FILE), "images.near_duplicate_bits")
    assert caught.value.problem == "expected an integer from 0 (off) to 64"


def test_the_stance_model_is_named_under_the_images_section():
    with pytest.raises(InputError) as caught:
        TRACK.read_own(RUNS_FILE, "images", {"stance_model": {"c": -1}}, _located)
    assert caught.value.where == "images.stance_model.c"


def test_a_runs_found_weight_is_a_float_of_at_least_zero_and_its_stance_is_read():
    where = "images.runs.r"
    assert TRACK.read_run(RUNS_FILE, where, {}) == {"stance": False, "found_weight": 0.0}
    read = TRACK.read_run(RUNS_FILE, where, {"stance": True, "found_weight": 2})
    assert read == {"stance": True, "found_weight": 2.0} and type(read["found_weight"]) is float
    for weight in (-0.1, math.inf, math.nan, True, "0.5", 1e9):
        with pytest.raises(InputError) as caught:
            TRACK.read_run(RUNS_FILE, where, {"found_weight": weight})
        assert caught.value.where == f"{where}.found_weight"
        assert caught.value.problem == "expected a number of at least 0"


def test_a_stance_run_needs_a_training_set():
    TRACK.check_section(RUNS_FILE, _section(True, stance_training=COLLECTION / TRAINING_FILE))
    TRACK.check_section(RUNS_FILE, _section(False))
    with pytest.raises(InputError, match="images.stance_training: runs with stance need"):
        TRACK.check_section(RUNS_FILE, _section(False, True))


def test_for_tira_takes_the_training_set_the_input_folder_brings_or_none(tmp_path):
    configured = _section(True, qrels={"relevance": EMBEDDED / "qrels.qrels"}, stance_training=tmp_path / "own.txt")
    brought = TRACK.for_tira(configured, COLLECTION, COLLECTION / "topics.xml")
    assert type(brought) is ImageSection and brought.qrels == {} and brought.corpus == COLLECTION
    assert brought.stance_training == COLLECTION / TRAINING_FILE
    bare = TRACK.for_tira(configured, tmp_path, tmp_path / "topics.xml")
    assert bare.stance_training is None and bare.near_duplicate_bits == configured.near_duplicate_bits


def _run_file(tmp_path: Path, lines: list[tuple[str, int]]) -> Path:
    path = tmp_path / "run.txt"
    path.write_text("".join(f"1 {stance} I{i:04d} {rank} {100 - i} tag\n" for i, (stance, rank) in enumerate(lines)),
                    encoding="utf-8")  # fmt: skip
    return path


def test_a_run_lists_at_most_ten_pro_and_ten_con_images_per_topic(tmp_path):
    full = [("PRO", rank) for rank in range(1, 11)] + [("CON", rank) for rank in range(1, 11)]
    assert validate_run(_run_file(tmp_path, full), rules=TRACK.run_rules) == 20
    with pytest.raises(InputError, match="line 11: more than 10 documents for topic 1 PRO"):
        validate_run(_run_file(tmp_path, [("PRO", rank) for rank in range(1, 12)]), rules=TRACK.run_rules)
    with pytest.raises(InputError, match="line 1: column 2 is 'Q0'"):
        validate_run(_run_file(tmp_path, [(Q0, 1)]), rules=TRACK.run_rules)


@pytest.fixture(scope="module")
def qrels() -> dict:
    return TRACK.read_qrels(EMBEDDED / "qrels.qrels")


def _on_stance_run(qrels: dict, topics=None) -> list[RunLine]:
    """Each topic's images judged on topic and for one stance, listed under that stance."""
    lines = []
    for topic in topics or qrels:
        for image, labels in sorted(qrels[topic].items()):
            for stance in ("PRO", "CON"):
                if labels["ONTOPIC"] == 1 and labels[stance] == 1 and labels["PRO"] != labels["CON"]:
                    lines.append(RunLine(topic, stance, image, len(lines) + 1, -len(lines), "r1"))
    return lines


def test_the_embedded_judgments_judge_every_image_on_all_three_aspects_and_unknown_topics_are_named(qrels):
    assert qrels and all(set(labels) == {"ONTOPIC", "PRO", "CON"} for by in qrels.values() for labels in by.values())
    with pytest.raises(InputError) as caught:
        TRACK.read_qrels(EMBEDDED / "qrels.qrels", ["1"])
    assert caught.value.path == str(EMBEDDED / "qrels.qrels") and caught.value.where.startswith("line ")


def test_scores_are_the_image_precisions_whatever_measures_or_depth_are_asked(qrels):
    run = _on_stance_run(qrels)
    scores = TRACK.score(run, qrels, None, None, None)
    assert isinstance(scores, TRACK.result_type()) and TRACK.result_type() is ImageScores
    assert set(TRACK.gate_measures) <= set(scores.measures)
    assert scores.means["on_stance@10"] > 0 and scores.means["on_stance@10"] == scores.means["on_topic@10"]
    assert TRACK.score(run, qrels, ["nDCG@5"], 3, None).means == scores.means


def test_the_mean_is_over_the_runs_topics_unless_told_every_judged_topic(qrels):
    run = _on_stance_run(qrels, ["1"])
    assert TRACK.score(run, qrels, None, None, None).average == AVERAGE
    assert list(TRACK.score(run, qrels, None, None, None).per_topic) == ["1"]
    every = TRACK.score(run, qrels, None, None, JUDGED_TOPICS)
    assert list(every.per_topic) == list(qrels) and set(every.missing) == set(qrels) - {"1"}


def test_a_run_it_cannot_score_is_the_runs_problem(qrels):
    with pytest.raises(RunProblem, match="column 2 is 'Q0', expected PRO or CON"):
        TRACK.score([RunLine("1", Q0, "I0", 1, 1.0, "r")], qrels, None, None, None)
    with pytest.raises(RunProblem, match="no judged topics"):
        TRACK.score(_on_stance_run(qrels), {}, None, None, None)


def test_the_report_shows_in_sample_notes_then_the_runs_images_judged_by_the_first_qrels(qrels, tmp_path):
    published, folder, files = tmp_path / "published", tmp_path / "report", []
    published.mkdir()
    run = _on_stance_run(qrels, ["1"])[:1]
    (published / "r0.txt").write_text(f"1 {run[0].q0} {run[0].doc} 1 1.0 r0\n", encoding="utf-8")
    assert TRACK.report_extras(_section(False), published, {}, folder, files) == ""  # no judgments: nothing
    section = _section(False, qrels={"relevance": EMBEDDED / "qrels.qrels", "other": tmp_path / "absent.qrels"})
    scores = TRACK.score(run, qrels, None, None, None)
    marked = dataclasses.replace(scores, in_sample=image_stance_in_sample({"1"}, scores.per_topic))
    html = TRACK.report_extras(section, published, {"r0": RunScores({"relevance": marked})}, folder, files)
    assert html.startswith("<p>r0 / relevance, on_stance@10: ") and html.index("</p>") < html.index("<h3>")
    assert run[0].doc in html and "onstance" in html
    assert files and all((folder / name).is_file() for name in files)
