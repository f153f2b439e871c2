"""The Luigi graph end to end: a submission, caching that re-runs only what changed, and resume after SIGKILL."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
import yaml
from graph import REPO, build, cache_state, copy_project, luigi_command, stages_of

from argrank.core.atomic import PAUSE
from argrank.tracks.registry import track
from argrank.formats.validation import validate_run
from argrank.tracks.comparative.stance_labels import LABELS
from tasks.model_folder import MODEL_FILE
from workflows import FullSubmission


def run_rules(name: str):
    """The run-file rules of the registered track `name`."""
    return track(name).run_rules


# The args track's stages; its quality model reads only its own training set, so a new corpus does not retrain it.
STAGES = ("ingest", "tokens", "index", "rank", "quality-rerank", "run", "evaluation")


@pytest.fixture()
def project(tmp_path) -> tuple[Path, Path]:
    """The args track on a copy of its embedded data, so tests can change both."""
    return copy_project(tmp_path, "args")


def test_full_submission_writes_valid_scored_runs(project):
    runs_file, outputs = project
    build(runs_file, outputs)
    folder = outputs / "submission" / "args"
    tags = list(yaml.safe_load(runs_file.read_text())["args"]["runs"])
    evaluation = json.loads((folder / "evaluation.json").read_text())
    assert sorted(evaluation) == sorted(tags)
    for tag in tags:
        assert validate_run(folder / f"{tag}.txt") > 0
        for qrels in ("relevance", "quality"):
            result = evaluation[tag][qrels]
            assert 0.0 < result["nDCG@5"] <= 1.0
            assert result["topics"] == len(result["per_topic"]) >= 5
            assert (folder / f"{tag}.{qrels}.per-topic.csv").exists()
    # BM25 on our own judged data finds relevant arguments near the top.
    assert evaluation["argrank-bm25"]["relevance"]["nDCG@5"] > 0.5
    assert "argrank-bm25 / relevance" in (folder / "evaluation.txt").read_text()


def test_second_run_runs_nothing(project):
    runs_file, outputs = project
    build(runs_file, outputs)
    before = cache_state(outputs)
    manifest = (outputs / "submission" / "args" / "manifest.json").stat().st_mtime_ns
    assert FullSubmission(runs_file=str(runs_file)).complete()
    build(runs_file, outputs)
    assert cache_state(outputs) == before
    assert (outputs / "submission" / "args" / "manifest.json").stat().st_mtime_ns == manifest


def test_changing_a_ranking_parameter_reruns_only_rank_run_evaluate(project):
    runs_file, outputs = project
    build(runs_file, outputs)
    before = cache_state(outputs)
    published = (outputs / "submission" / "args" / "argrank-bm25.txt").read_bytes()
    config = yaml.safe_load(runs_file.read_text())
    config["args"]["runs"]["argrank-bm25"]["params"]["k1"] = 0.9
    runs_file.write_text(yaml.safe_dump(config))
    build(runs_file, outputs)
    after = cache_state(outputs)
    new = set(after) - set(before)
    assert stages_of(new) == {"rank", "run", "evaluation"}
    assert len(new) == 3
    assert all(after[p] == before[p] for p in before)
    assert (outputs / "submission" / "args" / "argrank-bm25.txt").read_bytes() != published


def test_a_second_experiment_beside_the_first_shares_its_cache_and_overwrites_nothing(project):
    """A sweep in a second runs file: six runs (no submission limit), published under its own name; the first
    experiment's folders and the submission stay as they were, and only ranking and later stages are new."""
    runs_file, outputs = project
    build(runs_file, outputs)
    published_root = [outputs / "experiments", outputs / "submission"]
    first = {p.relative_to(outputs): p.read_bytes() for root in published_root for p in root.rglob("*")
             if p.is_file() and not p.name.startswith(".")}  # fmt: skip (hidden: the folder's owner and lock)
    assert {path.parts[:2] for path in first} == {("experiments", "runs"), ("submission", "args")}
    before = cache_state(outputs)
    config = yaml.safe_load(runs_file.read_text())
    del config["submission"]
    config["args"]["runs"] = {"bm25": {"method": "bm25", "params": {"k1": [0.6, 0.9, 1.2], "b": [0.5, 0.75]}}}
    sweep = runs_file.with_name("sweep.yaml")
    sweep.write_text(yaml.safe_dump(config, sort_keys=False))
    build(sweep, outputs)
    assert all(path.read_bytes() == first[path.relative_to(outputs)] for path in map(outputs.joinpath, first))
    published = sorted(
        p.name for p in (outputs / "experiments" / "sweep" / "args").glob("*.txt") if "evaluation" not in p.name
    )
    assert published == [f"bm25-k1_{k1}-b_{b}.txt" for k1 in (0.6, 0.9, 1.2) for b in (0.5, 0.75)]
    new = set(cache_state(outputs)) - set(before)
    assert stages_of(new) == {"rank", "run", "evaluation"}  # ingest, tokens and index are the first's


def test_replacing_a_corpus_file_reruns_from_ingest(project, tmp_path):
    runs_file, outputs = project
    build(runs_file, outputs)
    before = cache_state(outputs)
    debatewise = tmp_path / "data" / "args" / "corpus" / "debatewise.json"
    corpus = json.loads(debatewise.read_text())
    corpus["arguments"] = corpus["arguments"][:-1]
    debatewise.write_text(json.dumps(corpus))
    build(runs_file, outputs)
    new = set(cache_state(outputs)) - set(before)
    assert stages_of(new) == set(STAGES)


def synthetic_corpus(folder: Path, per_file: int) -> None:
    """Enough seeded arguments that tokenizing takes seconds, so a kill lands inside the stage."""
    import random

    rng = random.Random(3)
    words = [f"w{i}" for i in range(5000)] + ["school", "uniform", "nuclear", "energy", "zoo", "vote"]
    folder.mkdir(parents=True)
    for name in ("debateorg", "debatepedia", "debatewise", "idebate", "parliamentary"):
        arguments = [
            {
                "id": f"S{name[:4].encode().hex()}-A{i:09x}",
                "conclusion": " ".join(rng.choices(words, k=6)),
                "premises": [
                    {"text": " ".join(rng.choices(words, k=rng.randint(5, 300))), "stance": "PRO", "annotations": []}
                ],
                "context": {"sourceId": name},
            }
            for i in range(per_file)
        ]
        (folder / f"{name}.json").write_text(json.dumps({"arguments": arguments}))


def finished_files(root: Path) -> dict[str, bytes]:
    """Every finished file, but model files: skops names a model's arrays after their addresses in memory, so the
    same model is other bytes in another process (the runs it makes are compared byte for byte)."""
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in root.rglob("*")
        if p.is_file() and p.name != MODEL_FILE and not any(part.startswith(".") for part in p.relative_to(root).parts)
    }


def test_sigkill_mid_stage_then_resume_gives_identical_outputs(project, tmp_path):
    runs_file, _ = project
    synthetic_corpus(tmp_path / "big", per_file=8000)
    config = yaml.safe_load(runs_file.read_text())
    config["args"]["corpus"] = str(tmp_path / "big")
    config["args"]["qrels"] = {}
    runs_file.write_text(yaml.safe_dump(config))

    clean = tmp_path / "clean"
    subprocess.run(luigi_command(runs_file, clean), cwd=REPO, check=True, capture_output=True)

    killed = tmp_path / "killed"
    # The tokenize stage is held before its rename (core.atomic's pause for tests), so the kill lands mid-stage
    # however fast the machine: 0.2 s after its temporary file appeared was once too late.
    process = subprocess.Popen(
        luigi_command(runs_file, killed), cwd=REPO, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={**os.environ, PAUSE: "/cache/args/tokens/", "ARGRANK_PAUSE_SECONDS": "60"},
    )  # fmt: skip
    tokens = killed / "cache" / "args" / "tokens"
    deadline = time.monotonic() + 120
    while not (tokens.is_dir() and any(p.name.endswith(".tmp") for p in tokens.iterdir())):
        assert process.poll() is None and time.monotonic() < deadline, "the tokenize stage never started"
        time.sleep(0.01)
    time.sleep(0.2)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    # The interrupted stage left only its temporary file, no target that looks finished.
    assert not any(p.suffix == ".parquet" for p in tokens.iterdir())
    assert not (killed / "submission").exists()

    subprocess.run(luigi_command(runs_file, killed), cwd=REPO, check=True, capture_output=True)
    resumed, expected = finished_files(killed), finished_files(clean)
    assert sorted(resumed) == sorted(expected)
    # Names, not contents: pytest's diff of megabytes of differing bytes took CI twenty minutes.
    assert [name for name in expected if resumed[name] != expected[name]] == []


def test_bad_corpus_fails_the_run_with_the_file_and_record_named(project, tmp_path):
    runs_file, outputs = project
    idebate = tmp_path / "data" / "args" / "corpus" / "idebate.json"
    corpus = json.loads(idebate.read_text())
    del corpus["arguments"][2]["premises"]
    idebate.write_text(json.dumps(corpus))
    done = subprocess.run(luigi_command(runs_file, outputs), cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 30  # [retcode] task_failed in luigi.cfg
    assert f"argrank: IngestArgsMe failed on bad input: {idebate}: argument #3" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (outputs / "submission").exists()


def test_missing_corpus_exits_non_zero(project, tmp_path):
    runs_file, outputs = project
    shutil.rmtree(tmp_path / "data" / "args" / "corpus")
    done = subprocess.run(luigi_command(runs_file, outputs), cwd=REPO, capture_output=True, text=True)
    assert done.returncode != 0
    assert "no args.me corpus" in done.stderr and "Traceback" not in done.stderr


def test_bad_runs_file_is_reported_without_a_traceback(tmp_path):
    runs_file = tmp_path / "runs.yaml"
    runs_file.write_text("args:\n  corpus: c\n  topics: t\n  runs: {r: {method: tfidf}}\n")
    done = subprocess.run(luigi_command(runs_file, tmp_path / "out"), cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 35  # [retcode] scheduling_error in luigi.cfg
    assert f"argrank: error: {runs_file}: args.runs.r: unknown ranking method 'tfidf'" in done.stderr
    assert "Traceback" not in done.stderr


def test_republishing_drops_runs_no_longer_configured(project):
    runs_file, outputs = project
    build(runs_file, outputs)
    folder = outputs / "submission" / "args"
    assert (folder / "argrank-dirichlet.txt").exists()
    config = yaml.safe_load(runs_file.read_text())
    del config["args"]["runs"]["argrank-dirichlet"]
    runs_file.write_text(yaml.safe_dump(config))
    build(runs_file, outputs)
    assert not (folder / "argrank-dirichlet.txt").exists()
    assert not list(folder.glob("argrank-dirichlet.*"))
    assert "argrank-dirichlet" not in json.loads((folder / "evaluation.json").read_text())
    assert (folder / "argrank-bm25.txt").exists()


# ---- the comparative track (Touché Task 2) ------------------------------------------------------------------------


@pytest.fixture()
def comparative(tmp_path) -> tuple[Path, Path]:
    return copy_project(tmp_path, "comparative")


def test_comparative_submission_has_stance_runs_scored_for_relevance_quality_and_stance(comparative):
    runs_file, outputs = comparative
    build(runs_file, outputs)
    folder = outputs / "submission" / "comparative"
    runs = yaml.safe_load(runs_file.read_text())["comparative"]["runs"]
    evaluation = json.loads((folder / "evaluation.json").read_text())
    assert sorted(evaluation) == sorted(runs)
    for tag, spec in runs.items():
        assert validate_run(folder / f"{tag}.txt", column2=run_rules("comparative").column2) > 0
        column2 = {line.split()[1] for line in (folder / f"{tag}.txt").read_text().splitlines()}
        for qrels in ("relevance", "quality"):
            assert 0.0 < evaluation[tag][qrels]["nDCG@5"] <= 1.0
        stance = evaluation[tag]["stance"]
        if spec["stance"]:
            assert column2 <= set(LABELS) and len(column2) >= 3
            assert stance["stance_pairs"] > 100 and 0.0 < stance["stance_f1"] <= 1.0
            # The classifier's own cross-validated score on its training data travels with the run's scores.
            assert 0.5 < stance["classifier"]["cv_macro_f1"] <= 1.0 and stance["classifier"]["examples"] > 100
        else:
            assert column2 == {"Q0"} and stance["stance_f1"] is None and "classifier" not in stance
    assert "stance_f1" in (folder / "evaluation.txt").read_text()


def test_changing_the_stance_model_reruns_only_the_stance_stages(comparative):
    runs_file, outputs = comparative
    config = yaml.safe_load(runs_file.read_text())
    config["comparative"]["runs"] = {"only": {"method": "bm25", "query": "title+objects", "stance": True}}
    runs_file.write_text(yaml.safe_dump(config))
    build(runs_file, outputs)
    before = cache_state(outputs)
    config["comparative"]["stance_model"]["c"] = 0.25
    runs_file.write_text(yaml.safe_dump(config))
    build(runs_file, outputs)
    new = set(cache_state(outputs)) - set(before)
    # Ingest, tokens, index and the ranking are reused; the model (a folder of two files) and what follows it are not.
    assert stages_of(new) == {"stance-model", "stance", "run", "evaluation"}


def test_a_malformed_passage_fails_the_run_with_the_file_and_line_named(comparative, tmp_path):
    runs_file, outputs = comparative
    passages = tmp_path / "data" / "comparative" / "passages.jsonl.gz"
    lines = gzip.decompress(passages.read_bytes()).split(b"\n")
    lines[4] = lines[4].replace(b'"contents"', b'"content"')
    passages.write_bytes(gzip.compress(b"\n".join(lines)))
    done = subprocess.run(luigi_command(runs_file, outputs), cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 30  # [retcode] task_failed in luigi.cfg
    assert f"argrank: IngestPassages failed on bad input: {passages}: line 5 (id " in done.stderr
    assert '"contents" missing' in done.stderr and "Traceback" not in done.stderr
    assert not (outputs / "submission").exists()
