"""The graph's tasks as the publishers build them from runs.yaml: each track's tasks take only their own settings,
so a run's cache path names only what made it. Nothing is run here."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from argrank.config import load_config
from tasks.evaluate import EvaluateComparativeRun, EvaluateImageRun, EvaluateRanking
from tasks.publish import run_tasks
from tasks.runs import WriteImageRun, WriteRanking, WriteStanceRun

REPO = Path(__file__).resolve().parents[2]
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
    }
    for tasks in tasks_of("comparative").values():
        assert not set(tasks["run"].param_kwargs) & IMAGE_SETTINGS
        assert type(tasks["evaluation"]) is EvaluateComparativeRun and tasks["evaluation"].stance_qrels
    nostance = tasks_of("comparative")["argrank-cmp-dirichlet-nostance"]["evaluation"]
    assert nostance.stance_training is None and "model" not in nostance.requires()


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
    assert named.signature() != default.signature() and named.output_path != default.output_path
    assert "measures" not in tasks_of("images")["argrank-img-bm25-text"]["evaluation"].param_kwargs
