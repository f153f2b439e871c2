"""The `ltr` re-ranking step through the graph on the embedded data of args and comparative: LambdaMART learnt
from half the judged topics re-orders the top of the other half, each topic's top set kept; its model is a cached
stage of its own, trained and scored on the same features; a training set that holds a ranked topic is refused in
one line."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys

import pytest
import yaml
from graph import REPO, build, cache_state, copy_project, luigi_command, per_topic, stages_of

from argrank.quality.ltr import feature_names

TRAINING = {"args": {"1", "2", "3", "4"}, "comparative": {"1", "2", "3"}}
RUN = {"args": {"method": "bm25"}, "comparative": {"method": "bm25", "stance": False}}


def _split(tmp_path, track: str, ltr_topics: str) -> tuple:
    runs_file, outputs = copy_project(tmp_path, track)
    folder = tmp_path / "data" / track
    training = TRAINING[track]
    xml = (folder / "topics.xml").read_text(encoding="utf-8")
    topics = re.findall(r"<topic>.*?</topic>", xml, flags=re.S)
    number = re.compile(r"<number>(\d+)</number>")

    def subset(keep) -> str:
        return "<topics>\n" + "\n".join(t for t in topics if keep(number.search(t).group(1))) + "\n</topics>\n"

    (folder / "train-topics.xml").write_text(subset(lambda n: n in training), encoding="utf-8")
    (folder / "test-topics.xml").write_text(subset(lambda n: n not in training), encoding="utf-8")
    lines = (folder / "qrels-relevance.qrels").read_text(encoding="utf-8").splitlines()
    (folder / "train.qrels").write_text("\n".join(l for l in lines if l.split()[0] in training) + "\n", "utf-8")
    config = yaml.safe_load(runs_file.read_text())
    section = config[track]
    section["topics"] = f"data/{track}/test-topics.xml"
    section["ltr_training"] = {"topics": f"data/{track}/{ltr_topics}", "qrels": f"data/{track}/train.qrels"}
    step = {"use": "ltr", "depth": 20, "params": {"trees": 30, "min_leaf": 2}}
    section["runs"] = {"bm25": RUN[track], "ltr": {**RUN[track], "rerank": [step]}}
    section.pop("baseline", None)
    runs_file.write_text(yaml.safe_dump(config), encoding="utf-8")
    return runs_file, outputs


@pytest.mark.parametrize("track", ["args", "comparative"])
def test_ltr_learnt_on_other_topics_reorders_the_top(tmp_path, track):
    runs_file, outputs = _split(tmp_path, track, "train-topics.xml")
    build(runs_file, outputs)
    folder = outputs / "submission" / track
    plain, learnt = per_topic(folder / "bm25.txt"), per_topic(folder / "ltr.txt")
    assert set(plain) == set(learnt) and not set(plain) & TRAINING[track]
    for topic in plain:
        assert set(plain[topic][:20]) == set(learnt[topic][:20]) and plain[topic][20:] == learnt[topic][20:]
    assert any(plain[topic][:20] != learnt[topic][:20] for topic in plain)
    models = [path for path in cache_state(outputs) if stages_of([path]) == {"ltr-model"}]
    assert len(models) == 1
    trained = json.loads((outputs / "cache" / models[0]).read_text(encoding="utf-8"))
    section = yaml.safe_load(runs_file.read_text())[track]
    expected = feature_names(section["fields"], bool(section.get("quality_training")))
    assert trained["features"] == expected  # the names the step checks before it scores with the model
    assert not trained["model"].startswith("{")  # LightGBM's model text


def test_a_training_set_holding_a_ranked_topic_is_refused(tmp_path):
    runs_file, outputs = _split(tmp_path, "args", "topics.xml")
    done = subprocess.run(luigi_command(runs_file, outputs), capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode != 0
    assert "the ltr step would learn from topics the run ranks: 5, 6, 7, 8" in done.stderr
    assert not (outputs / "submission" / "args" / "ltr.txt").exists()


def test_training_grades_beyond_lightgbms_gains_are_refused_naming_the_qrels(tmp_path):
    """A grade of 1,000,000 once ended in LightGBM's `Label 1000000 is not less than the number of label mappings`."""
    runs_file, outputs = _split(tmp_path, "args", "train-topics.xml")
    qrels = tmp_path / "data" / "args" / "train.qrels"
    lines = qrels.read_text(encoding="utf-8").splitlines()
    first = lines[0].split()
    qrels.write_text("\n".join([" ".join([*first[:3], "1000000"]), *lines[1:]]) + "\n", encoding="utf-8")
    done = subprocess.run(luigi_command(runs_file, outputs), capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode != 0 and "Traceback" not in done.stderr.split("argrank: error")[-1]
    assert f"train.qrels: topic {first[0]}, document {first[2]}: grade 1,000,000: the ltr step learns from grades up " \
           "to 30" in done.stderr
    assert not (outputs / "submission" / "args" / "ltr.txt").exists()


def test_a_cached_model_does_not_let_a_run_of_its_training_topics_through(tmp_path):
    """The model learnt from topics 1–4 for a run of 5–8 is cached, and a run of 1–8 would take it as it is (its
    target is named by the training topics alone): the check is made as the graph is built, so both commands refuse
    that run in one line, whatever the cache holds."""
    runs_file, outputs = _split(tmp_path, "args", "train-topics.xml")
    build(runs_file, outputs)
    config = yaml.safe_load(runs_file.read_text())
    config["args"]["topics"] = "data/args/topics.xml"  # 1–8: the training topics among them
    runs_file.write_text(yaml.safe_dump(config), encoding="utf-8")
    argrank = [sys.executable, "-m", "workflows.cli", "run", "--runs-file", str(runs_file), "--outputs", str(outputs)]
    training = (tmp_path / "data" / "args" / "train-topics.xml").resolve()
    for command in (luigi_command(runs_file, outputs), argrank):
        done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=600, check=False)
        assert done.returncode != 0
        assert done.stderr.splitlines() == [
            f"argrank: error: {training}: the ltr step would learn from topics the run ranks: 1, 2, 3, 4"
        ], done.stderr[-2000:]
    assert set(per_topic(outputs / "submission" / "args" / "ltr.txt")) == {"5", "6", "7", "8"}  # the clean run's


def test_the_tira_contract_refuses_input_topics_the_cached_model_learnt_from(tmp_path):
    """`argrank tira` ranks the input folder's topics: a model cached for an input of topics 5–8 does not let an
    input of 1–8 through."""
    runs_file, outputs = _split(tmp_path, "args", "train-topics.xml")
    given = tmp_path / "input"
    shutil.copytree(tmp_path / "data" / "args" / "corpus", given)

    def tira(topics: str) -> subprocess.CompletedProcess:
        shutil.copy(tmp_path / "data" / "args" / topics, given / "topics.xml")
        command = [sys.executable, "-m", "workflows.cli", "tira", "-i", str(given), "-o", str(tmp_path / "out"),
                   "--run", "ltr", "--runs-file", str(runs_file), "--outputs", str(outputs)]  # fmt: skip
        return subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=600, check=False)

    assert tira("test-topics.xml").returncode == 0
    done = tira("topics.xml")
    training = (tmp_path / "data" / "args" / "train-topics.xml").resolve()
    assert done.returncode == 2 and done.stderr.splitlines() == [
        f"argrank: error: {training}: the ltr step would learn from topics the run ranks: 1, 2, 3, 4"
    ], done.stderr[-2000:]
