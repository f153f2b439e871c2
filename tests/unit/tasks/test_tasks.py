"""The graph's tasks as the publishers build them from runs.yaml: each track's tasks take only their own settings,
so a run's cache path names only what made it. Nothing is run here."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from argrank.config import load_config
from tasks.evaluate import EvaluateRanking
from tasks.publish import run_tasks
from tasks.quality import RerankQuality, TrainQualityModel
from tasks.rank import RankTopics
from tasks.runs import WriteRanking
from tasks.tracks.comparative import EvaluateComparativeRun, EvaluateStanceRun, WriteStanceRun
from tasks.tracks.images import EvaluateImageRun, WriteImageRun

REPO = Path(__file__).resolve().parents[3]
IMAGE_SETTINGS = {"found_weight", "near_duplicate_bits"}
STANCE_SETTINGS = {"stance_training", "stance_model"}


def tasks_of(track: str) -> dict[str, dict]:
    return run_tasks(load_config(REPO / "runs.yaml")[track])


def test_args_runs_carry_no_image_or_stance_setting():
    for tasks in tasks_of("args").values():
        run, evaluation = tasks["run"], tasks["evaluation"]
        assert type(run) is WriteRanking and type(evaluation) is EvaluateRanking
        for task in (run, evaluation):
            assert not set(task.param_kwargs) & (IMAGE_SETTINGS | STANCE_SETTINGS | {"stance_qrels"})
            assert not any(name in task.own_params() for name in IMAGE_SETTINGS)


def test_comparative_runs_take_stance_settings_only_where_they_have_stance():
    writers = {tag: type(tasks["run"]) for tag, tasks in tasks_of("comparative").items()}
    assert writers == {
        "argrank-cmp-bm25-objects": WriteStanceRun,
        "argrank-cmp-bm25": WriteStanceRun,
        "argrank-cmp-dirichlet-nostance": WriteRanking,
        "argrank-cmp-bm25-objects-quality": WriteStanceRun,
    }
    for tag, tasks in tasks_of("comparative").items():
        assert not set(tasks["run"].param_kwargs) & IMAGE_SETTINGS
        evaluator = EvaluateStanceRun if writers[tag] is WriteStanceRun else EvaluateComparativeRun
        assert type(tasks["evaluation"]) is evaluator and tasks["evaluation"].stance_qrels
    nostance = tasks_of("comparative")["argrank-cmp-dirichlet-nostance"]["evaluation"]
    assert not set(nostance.param_kwargs) & STANCE_SETTINGS and "model" not in nostance.requires()


def test_image_runs_take_the_selection_settings_and_a_model_only_when_trained():
    for tag, tasks in tasks_of("images").items():
        run = tasks["run"]
        assert type(run) is WriteImageRun and type(tasks["evaluation"]) is EvaluateImageRun
        assert IMAGE_SETTINGS <= set(run.param_kwargs)
        assert ("model" in tasks["evaluation"].requires()) == (tag != "argrank-img-bm25-untrained")


def test_configured_measures_reach_the_ranking_evaluations_and_their_cache_paths():
    track = load_config(REPO / "runs.yaml")["args"]
    default = run_tasks(track)["argrank-bm25"]["evaluation"]
    named = run_tasks(dataclasses.replace(track, measures=("nDCG@10", "P@10")))["argrank-bm25"]["evaluation"]
    assert default.measures == () and named.measures == ("nDCG@10", "P@10")
    assert named.signature != default.signature and named.output_path != default.output_path
    # Images score their own precisions, not named measures: nothing about measures in their evaluations' paths.
    assert "measures" not in tasks_of("images")["argrank-img-bm25-text"]["evaluation"].own_params()


def test_a_quality_run_reranks_the_ranking_its_twin_without_quality_writes():
    tasks = tasks_of("args")
    plain, reranked = tasks["argrank-bm25"]["run"], tasks["argrank-bm25-quality"]["run"]
    assert type(plain.requires()) is RankTopics and type(reranked.requires()) is RerankQuality
    # One ranking for both: the re-ranking reads argrank-bm25's very target.
    assert reranked.requires().requires()["ranking"].output_path == plain.requires().output_path
    assert type(reranked.requires().requires()["model"]) is TrainQualityModel
    # Runs without quality name none of it, so their cache paths are those they had before quality existed (the
    # target's own name: the output folder is whatever an earlier test in this process left luigi.cfg saying).
    for task in (plain, tasks["argrank-bm25"]["evaluation"]):
        assert "quality" not in task.own_params() and "quality" not in task.output_path.name
    assert "quality" in reranked.own_params() and "quality" in tasks["argrank-bm25-quality"]["evaluation"].own_params()
    # Another weight: another re-ranking, run and evaluation; the same ranking and model.
    spec = next(spec for spec in load_config(REPO / "runs.yaml")["args"].runs if spec.tag == "argrank-bm25-quality")
    track = dataclasses.replace(load_config(REPO / "runs.yaml")["args"], runs=(
        dataclasses.replace(spec, quality={**spec.quality, "weight": 0.8}),))  # fmt: skip
    heavier = run_tasks(track)["argrank-bm25-quality"]["run"]
    assert heavier.requires().output_path != reranked.requires().output_path
    assert heavier.requires().requires()["ranking"].output_path == plain.requires().output_path
    assert heavier.requires().requires()["model"].output_path == reranked.requires().requires()["model"].output_path


def test_a_comparative_quality_run_labels_stance_on_the_reranked_ranking():
    stance = tasks_of("comparative")["argrank-cmp-bm25-objects-quality"]["run"].requires()
    assert type(stance.requires()["ranking"]) is RerankQuality
    plain = tasks_of("comparative")["argrank-cmp-bm25-objects"]["run"].requires()
    assert type(plain.requires()["ranking"]) is RankTopics and "quality" not in plain.own_params()


def test_every_listed_stance_training_file_reaches_the_one_model_and_its_signature(tmp_path):
    track = load_config(REPO / "runs.yaml")["comparative"]
    extra = tmp_path / "more.jsonl"
    extra.write_text('{"question": "a or b?", "object_1": "a", "object_2": "b", "text": "a wins", "label": "FIRST"}\n')
    one = run_tasks(track)["argrank-cmp-bm25"]["run"].requires().model()
    both = run_tasks(dataclasses.replace(track, stance_training=(*track.stance_training, extra)))
    model = both["argrank-cmp-bm25"]["run"].requires().model()
    assert model.stance_training == (*one.stance_training, str(extra))
    assert model.signature != one.signature
    # Every stance run of the track shares that model, and its evaluation needs it.
    assert {tasks["run"].requires().model().output_path for tag, tasks in both.items() if "nostance" not in tag} == {
        model.output_path
    }
    assert both["argrank-cmp-bm25"]["evaluation"].model_task().output_path == model.output_path


def test_runs_without_steps_or_expansion_name_neither_in_any_stage():
    """`rerank` and `expand` are left out of every stage's name and signature while empty (tasks.base.optional), so
    runs without them keep the cache paths they had before either existed; a run with them names them."""
    for track in ("args", "comparative", "images"):
        for tasks in tasks_of(track).values():
            for task in (tasks["run"], tasks["evaluation"], tasks["run"].requires()):
                assert not {"rerank", "rerank_sources", "expand"} & set(task.own_params()), task
    spec = next(spec for spec in load_config(REPO / "runs.yaml")["args"].runs if spec.tag == "argrank-bm25")
    track = dataclasses.replace(load_config(REPO / "runs.yaml")["args"], runs=(
        dataclasses.replace(spec, expand=({"use": "rm3", "params": {"fb_docs": 3}},)),))  # fmt: skip
    expanded = run_tasks(track)["argrank-bm25"]
    assert "expand" in expanded["run"].own_params() and "expand" in expanded["evaluation"].own_params()
