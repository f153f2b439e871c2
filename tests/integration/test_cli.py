"""The `argrank` command as users call it: exit codes, JSON keys, one-line errors, and the TIRA contract."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import ir_measures
import pytest

from argrank.tracks.registry import track
from argrank.formats.runfile import read_run
from argrank.formats.validation import validate_run
from argrank.tracks.comparative.stance_labels import LABELS
from argrank.tracks.images.evaluation import evaluate_images
from argrank.tracks.images.qrels import read_image_qrels
from argrank.tracks.perspective.data import read_corpus, read_predictions, read_queries
from argrank.tracks.perspective.evaluation import evaluate_perspective


def run_rules(name: str):
    """The run-file rules of the registered track `name`."""
    return track(name).run_rules


REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "data" / "args"


def argrank(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "workflows.cli", *args], cwd=cwd, capture_output=True, text=True, timeout=300
    )


def test_evaluate_json_reproduces_the_2021_reference(shared_data):
    task1 = shared_data / "touche-task1"
    done = argrank(
        "evaluate", "--run", str(task1 / "runs-2021-elrond" / "ElrondKRun.txt"),
        "--qrels", str(task1 / "touche2021-task1-51-100-relevance.qrels"), "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["nDCG@5"] == pytest.approx(0.7198, abs=5e-5)
    assert result["Judged@5"] == result["judged@5"] == pytest.approx(1.0)  # the old name stays as an alias
    assert result["nDCG@5_judged_only"] == result["condensed-nDCG@5"]
    assert result["measures"] == ["nDCG@5", "Judged@5", "condensed-nDCG@5"] and result["average"] == "judged-topics"
    assert len(result["per_topic"]) == 50


def test_evaluate_named_measures_for_args_and_comparative(shared_data):
    """Any ir_measures name, repeatable, for both ranking tracks; the figures are ir_measures' own."""
    for track, run, qrels in [
        ("args", "touche-task1/runs-2021-elrond/ElrondKRun.txt", "touche-task1/touche2021-task1-51-100-relevance.qrels"),
        ("comparative", "touche-task2/runs-2022/Puss-in-Boots-run1.txt", "touche-task2/touche-task2-2022-relevance.qrels"),
    ]:  # fmt: skip
        done = argrank(
            "evaluate", "--track", track, "--run", str(shared_data / run), "--qrels", str(shared_data / qrels),
            "--measure", "nDCG@10", "--measure", "P@10", "--measure", "judged@5", "--json",
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        result = json.loads(done.stdout)
        assert result["measures"] == ["nDCG@10", "P@10", "Judged@5"] and result["depth"] is None
        measures = [ir_measures.parse_measure(name) for name in result["measures"]]
        judgments = ir_measures.read_trec_qrels(str(shared_data / qrels))
        expected = ir_measures.calc_aggregate(measures, judgments, ir_measures.read_trec_run(str(shared_data / run)))
        assert [result[str(m)] for m in measures] == pytest.approx([expected[m] for m in measures], abs=1e-12)


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        (["--measure", "nDGC@10"], "argrank evaluate: error: unknown measure 'nDGC@10'; closest: nDCG@10, "),
        (["--measure", "ndcg_cut"], "argrank evaluate: error: measure 'ndcg_cut' is trec_eval's name for 9 measures"),
        (["--measure", "nDCG@10", "--depth", "10"], "--depth sets the default measures' cut-off"),
        (["--measure", "RBP"], "ir_measures computes it only with trectools, which argrank does not use"),
    ],
)
def test_evaluate_refuses_measures_it_cannot_compute(shared_data, options, problem):
    task1 = shared_data / "touche-task1"
    done = argrank(
        "evaluate", "--run", str(task1 / "runs-2021-elrond" / "ElrondKRun.txt"),
        "--qrels", str(task1 / "touche2021-task1-51-100-relevance.qrels"), *options,
    )  # fmt: skip
    assert done.returncode == 2 and problem in done.stderr, done.stderr


def test_compare_takes_trec_eval_names_and_names_the_closest_to_an_unknown_one(shared_data):
    task1 = shared_data / "touche-task1"
    runs = [str(task1 / "runs-2021-elrond" / name) for name in ("ElrondKRun.txt", "ElrondSimpleRun.txt")]
    common = ["compare", "--run", runs[0], "--run", runs[1], "--baseline", "ElrondKRun",
              "--qrels", str(task1 / "touche2021-task1-51-100-relevance.qrels")]  # fmt: skip
    done = argrank(*common, "--measure", "P_10", "--measure", "P@10", "--measure", "map", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["measures"] == ["P@10", "AP"]
    done = argrank(*common, "--measure", "nDGC@5")
    assert done.returncode == 2 and "argrank compare: error: unknown measure 'nDGC@5'; closest: nDCG@5" in done.stderr


def test_output_into_a_reader_that_leaves_early_ends_quietly(tmp_path):
    """`argrank … | head -1`: no BrokenPipeError traceback, and 141 (128 + SIGPIPE) as for any command a closed
    pipe stopped. The output (JSON per topic, some 800 kB) is far more than a pipe holds, so the write meets the
    closed pipe whenever the reader leaves."""
    qrels, run = tmp_path / "q.qrels", tmp_path / "r.txt"
    qrels.write_text("".join(f"{topic} 0 d{topic} 1\n" for topic in range(1, 6001)))
    run.write_text("".join(f"{topic} Q0 d{topic} 1 1.0 tag\n" for topic in range(1, 6001)))
    command = [sys.executable, "-m", "workflows.cli", "evaluate", "--run", str(run), "--qrels", str(qrels), "--json"]
    with subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        assert process.stdout.readline() == b"{\n"
        process.stdout.close()
        stderr = process.stderr.read().decode()
    assert process.returncode == 141 and stderr == "", stderr


def test_evaluate_averages_over_every_judged_topic_or_the_runs(shared_data, tmp_path):
    task1 = shared_data / "touche-task1"
    half = tmp_path / "half.txt"  # the run's topics 51–75 only
    lines = (task1 / "runs-2021-elrond" / "ElrondKRun.txt").read_text().splitlines(keepends=True)
    half.write_text("".join(line for line in lines if int(line.split()[0]) <= 75))
    qrels = str(task1 / "touche2021-task1-51-100-relevance.qrels")
    means = {}
    for average in ("judged-topics", "run-topics"):
        done = argrank("evaluate", "--run", str(half), "--qrels", qrels, "--average", average, "--json")
        assert done.returncode == 0, done.stderr
        means[average] = json.loads(done.stdout)
    assert means["judged-topics"]["topics"] == 50 and means["run-topics"]["topics"] == 25
    assert means["judged-topics"]["nDCG@5"] == pytest.approx(means["run-topics"]["nDCG@5"] / 2, abs=1e-12)


def test_evaluate_prints_a_table_and_writes_csv(shared_data, tmp_path):
    task1 = shared_data / "touche-task1"
    done = argrank(
        "evaluate", "--run", str(task1 / "runs-2020-elrond" / "ElrondKRun.txt"),
        "--qrels", str(task1 / "touche2020-task1-relevance-args-me-corpus-version-2020-04-01-corrected.qrels"),
        "--topics", str(task1 / "topics-task-1-2020.xml"), "--csv", str(tmp_path / "t.csv"),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "0.6257" in done.stdout and "condensed-nDCG@5" in done.stdout
    assert len((tmp_path / "t.csv").read_text().splitlines()) == 50


def test_evaluate_rejects_qrels_topics_the_topics_file_lacks(shared_data):
    task1 = shared_data / "touche-task1"
    done = argrank(
        "evaluate", "--run", str(task1 / "runs-2021-elrond" / "ElrondKRun.txt"),
        "--qrels", str(task1 / "touche2021-task1-51-100-relevance.qrels"),
        "--topics", str(task1 / "topics-task-1-2020.xml"),
    )  # fmt: skip
    assert done.returncode == 2
    assert "touche2021-task1-51-100-relevance.qrels: line 1: unknown topic 94" in done.stderr
    assert "Traceback" not in done.stderr


def test_validate_exit_codes(shared_data, tmp_path):
    good = tmp_path / "good.txt"
    good.write_text("1 Q0 a 1 2.5 t\n1 Q0 b 2 2.0 t\n2 Q0 a 1 1.0 t\n")
    done = argrank("validate", str(good))
    assert done.returncode == 0 and "valid (3 lines)" in done.stdout
    done = argrank("validate", str(shared_data / "touche-task1" / "runs-2021-elrond" / "ElrondKRun.txt"))
    assert done.returncode == 2
    assert "ElrondKRun.txt: line 1: rank 0" in done.stderr and "Traceback" not in done.stderr


def test_missing_file_is_one_line_error(tmp_path):
    done = argrank("validate", str(tmp_path / "nope.txt"))
    assert done.returncode == 2
    assert str(tmp_path / "nope.txt") in done.stderr and "Traceback" not in done.stderr


def test_tira_contract_runs_the_graph(tmp_path):
    given = tmp_path / "input"
    shutil.copytree(DATA / "corpus", given)
    shutil.copy(DATA / "topics.xml", given / "topics.xml")
    done = argrank(
        "tira", "-i", str(given), "-o", str(tmp_path / "out"), "--run", "argrank-bm25",
        "--outputs", str(tmp_path / "outputs"),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    run = tmp_path / "out" / "run.txt"
    assert validate_run(run) > 0
    assert {line.split()[5] for line in run.read_text().splitlines()} == {"argrank-bm25"}
    assert any((tmp_path / "outputs" / "cache" / "args" / "ingest").iterdir())


def test_tira_contract_for_the_comparative_track_writes_a_stance_run(tmp_path):
    given = tmp_path / "input"
    given.mkdir()
    shutil.copy(REPO / "data" / "comparative" / "passages.jsonl.gz", given)
    shutil.copy(REPO / "data" / "comparative" / "topics.xml", given)
    done = argrank(
        "tira", "--track", "comparative", "-i", str(given), "-o", str(tmp_path / "out"),
        "--outputs", str(tmp_path / "outputs"),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    run = tmp_path / "out" / "run.txt"
    assert validate_run(run, column2=run_rules("comparative").column2) > 0
    lines = [line.split() for line in run.read_text().splitlines()]
    assert {line[1] for line in lines} <= set(LABELS) and {line[5] for line in lines} == {"argrank-cmp-bm25-objects"}


def test_tira_contract_for_the_images_track_on_the_real_sample(shared_data, tmp_path):
    """The sample has queries.jsonl and no training-qrels.txt: its topics are read, the untrained scorer decides."""
    done = argrank(
        "tira", "--track", "images", "-i", str(shared_data / "image-retrieval" / "sample-collection"),
        "-o", str(tmp_path / "out"), "--outputs", str(tmp_path / "outputs"),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    run = tmp_path / "out" / "run.txt"
    assert validate_run(run, rules=run_rules("images")) == 40  # two topics, 10 PRO and 10 CON each
    lines = [line.split() for line in run.read_text().splitlines()]
    assert {line[0] for line in lines} == {"34", "48"} and {line[1] for line in lines} == {"PRO", "CON"}
    assert not (tmp_path / "outputs" / "cache" / "images" / "stance-model").exists()


def test_tira_contract_for_the_images_track_trains_on_the_collections_own_judgments(tmp_path):
    given = tmp_path / "input"
    shutil.copytree(REPO / "data" / "images" / "collection", given)
    done = argrank(
        "tira", "--track", "images", "-i", str(given), "-o", str(tmp_path / "out"), "--outputs", str(tmp_path / "outputs"),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert validate_run(tmp_path / "out" / "run.txt", rules=run_rules("images")) > 100
    assert any((tmp_path / "outputs" / "cache" / "images" / "stance-model").iterdir())


def test_tira_names_an_unknown_run(tmp_path):
    done = argrank("tira", "-i", str(DATA / "corpus"), "-o", str(tmp_path), "--run", "nope")
    assert done.returncode == 2 and "no run tagged 'nope'" in done.stderr


def test_evaluate_adds_stance_f1_to_the_json(shared_data):
    task2 = shared_data / "touche-task2"
    done = argrank(
        "evaluate", "--track", "comparative", "--run", str(task2 / "runs-2022" / "Grimjack-run1.txt"),
        "--qrels", str(task2 / "touche-task2-2022-relevance.qrels"),
        "--stance-qrels", str(task2 / "touche-task2-2022-stance.qrels"),
        "--topics", str(task2 / "topics-task2-2022.xml"), "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["nDCG@5"] == pytest.approx(0.3761, abs=5e-5)
    assert result["stance_f1"] == pytest.approx(0.2071, abs=5e-5) and result["stance_pairs"] == 1282
    assert list(result["stance_f1_per_label"]) == ["FIRST", "SECOND", "NEUTRAL", "NO"]


def test_evaluate_with_stance_qrels_only(shared_data):
    task2 = shared_data / "touche-task2"
    stance = str(task2 / "touche-task2-2022-stance.qrels")
    run = str(task2 / "runs-2022" / "Puss-in-Boots-run1.txt")
    done = argrank("evaluate", "--track", "comparative", "--run", run, "--stance-qrels", stance)
    assert done.returncode == 0, done.stderr
    assert "Puss-in-Boots-run1 / touche-task2-2022-stance: macro-F1 0.1584 over 1328 pairs" in done.stdout
    assert "nDCG@5" not in done.stdout
    done = argrank(
        "evaluate", "--track", "comparative", "--run", str(task2 / "runs-2022" / "Aldo-Nadi-run3.txt"),
        "--stance-qrels", stance, "--json",
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "stance_f1": None, "stance_pairs": 0, "stance_f1_per_label": dict.fromkeys(["FIRST", "SECOND", "NEUTRAL", "NO"])
    }  # fmt: skip


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        (("--track", "comparative"), "give --qrels, --stance-qrels or both"),
        (("--track", "comparative", "--stance-qrels", "s", "--csv", "c"), "--csv writes per-topic scores"),
        ((), "--track args needs --qrels"),
        (("--stance-qrels", "s"), "--stance-qrels does not apply to --track args"),
    ],
)
def test_evaluate_needs_qrels_or_stance_qrels(tmp_path, options, problem):
    """Stance judgments are the comparative track's: another track is told so, naming the option."""
    done = argrank("evaluate", "--run", str(tmp_path / "run.txt"), *options)
    assert done.returncode == 2 and f"argrank evaluate: error: {problem}" in done.stderr


def test_evaluate_names_the_first_document_that_mixes_q0_and_stance(shared_data, tmp_path):
    run = tmp_path / "mixed.txt"
    run.write_text("2 FIRST a 1 2 t\n2 Q0 b 2 1 t\n")
    stance = shared_data / "touche-task2" / "touche-task2-2022-stance.qrels"
    done = argrank("evaluate", "--track", "comparative", "--run", str(run), "--stance-qrels", str(stance))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"{run}: topic 2, document b: column 2 is 'Q0', expected a stance label" in done.stderr


def test_validate_comparative_track(shared_data, tmp_path):
    runs = shared_data / "touche-task2" / "runs-2022"
    done = argrank("validate", "--track", "comparative", str(runs / "Grimjack-run1.txt"))
    assert done.returncode == 0 and "valid (5000 lines)" in done.stdout
    done = argrank("validate", str(runs / "Grimjack-run1.txt"))
    assert done.returncode == 2 and "Grimjack-run1.txt: line 1: column 2 is 'FIRST', expected 'Q0'" in done.stderr
    mixed = tmp_path / "mixed.txt"
    mixed.write_text("2 NO a 1 2 t\n2 NO b 2 1 t\n2 Q0 c 3 0 t\n")
    done = argrank("validate", "--track", "comparative", str(mixed))
    assert done.returncode == 2 and "mixed.txt: line 3: column 2 is 'Q0' but 'NO' on line 1" in done.stderr
    done = argrank("validate", "--track", "comparative", str(runs / "Katana-run1.txt"))
    assert (
        done.returncode == 2
        and 'Katana-run1.txt: line 1: the tag "Colbert fine tune on touche data" is quoted' in done.stderr
    )


IMAGE_MEASURES = ["on_topic@10", "argumentative@10", "on_stance@10", "judged@10"]


@pytest.fixture
def image_run(shared_data, tmp_path) -> tuple[Path, Path]:
    """(run, qrels): for topics 34 and 48, the last 20 judged images by id, 10 PRO then 10 CON, scores falling."""
    qrels = shared_data / "image-retrieval" / "touche-task3-001-050-relevance.qrels"
    judged = read_image_qrels(qrels)
    run = tmp_path / "images.txt"
    run.write_text(
        "".join(
            f"{topic} {'PRO' if n < 10 else 'CON'} {image} {n % 10 + 1} {20 - n} t\n"
            for topic in ("34", "48")
            for n, image in enumerate(sorted(judged[topic])[-20:])
        )
    )
    return run, qrels


def test_evaluate_images_json_and_csv(image_run, tmp_path):
    run, qrels = image_run
    done = argrank(
        "evaluate", "--track", "images", "--run", str(run), "--qrels", str(qrels),
        "--json", "--csv", str(tmp_path / "t.csv"),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["measures"] == IMAGE_MEASURES and result["topics"] == 2 and result["depth"] == 10
    assert {"on_topic@10", "argumentative@10", "on_stance@10"} <= set(result)
    assert result["judged@10"] == pytest.approx(1.0)  # every image of the two topics is judged
    assert result == evaluate_images(read_run(run), read_image_qrels(qrels)).to_json()
    lines = (tmp_path / "t.csv").read_text().splitlines()
    assert lines[0] == "topic," + ",".join(IMAGE_MEASURES) and len(lines) == 3


def test_evaluate_images_prints_a_table_and_names_a_run_without_stances(image_run, tmp_path):
    run, qrels = image_run
    done = argrank("evaluate", "--track", "images", "--run", str(run), "--qrels", str(qrels))
    assert done.returncode == 0, done.stderr
    header, _, row, note = done.stdout.splitlines()
    assert header.split()[3:] == [*IMAGE_MEASURES, "topics", "missing"] and row.startswith("images / touche-task3-001-050")
    assert row.split()[-2:] == ["2", "48"]  # two topics ranked, averaged over them as the organisers' evaluator does
    assert note == ("images / touche-task3-001-050-relevance: 48 judged topics missing from the run, left out of the "
                    "mean (as trec_eval without -c)")  # fmt: skip
    q0 = tmp_path / "q0.txt"
    q0.write_text("34 Q0 I0538673fe011264e 1 2 t\n")
    done = argrank("evaluate", "--track", "images", "--run", str(q0), "--qrels", str(qrels))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"{q0}: topic 34, image I0538673fe011264e: column 2 is 'Q0', expected PRO or CON" in done.stderr


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        (("--qrels", "q", "--stance-qrels", "s"), "--stance-qrels does not apply to --track images"),
        (("--qrels", "q", "--depth", "10"), "--depth does not apply to --track images"),
        ((), "--track images needs --qrels"),
    ],
)
def test_evaluate_images_usage_errors(tmp_path, options, problem):
    done = argrank("evaluate", "--track", "images", "--run", str(tmp_path / "run.txt"), *options)
    assert done.returncode == 2 and f"argrank evaluate: error: {problem}" in done.stderr


def test_validate_images_track(image_run, tmp_path):
    run, _ = image_run
    done = argrank("validate", "--track", "images", str(run))
    assert done.returncode == 0 and "valid (40 lines)" in done.stdout, done.stderr
    done = argrank("validate", str(run))
    assert done.returncode == 2 and "images.txt: line 1: column 2 is 'PRO', expected 'Q0'" in done.stderr
    done = argrank("validate", "--track", "images", "--max-per-topic", "20", str(run))
    assert done.returncode == 2 and "validate: error: --max-per-topic does not apply to --track images" in done.stderr
    eleven = tmp_path / "eleven.txt"
    eleven.write_text("".join(f"5 PRO i{r} {r} {-r} t\n" for r in range(1, 12)))
    done = argrank("validate", "--track", "images", str(eleven))
    assert done.returncode == 2 and "eleven.txt: line 11: more than 10 documents for topic 5 PRO" in done.stderr


@pytest.fixture
def perspective_release(tmp_path) -> tuple[Path, Path]:
    """(release directory, predictions): 6 arguments, dev queries of both kinds, a list per query."""
    genders = ["W", "M", "W", "M", "W", "M"]
    arguments = [
        {"argument_id": i, "argument": f"Argument {i}", "stance": "FAVOR" if i % 2 else "AGAINST", "topic": "Umwelt",
         "demographic_profile": {"gender": gender, "age": "18-34" if i < 3 else "65+", "residence": "Stadt",
                                 "civil_status": "Ledig", "denomination": "Keine", "education": "Lehre",
                                 "political_spectrum": "Mitte", "important_political_issues": []}}
        for i, gender in enumerate(genders)
    ]  # fmt: skip
    release = tmp_path / "release"
    (release / "baseline-queries").mkdir(parents=True)
    (release / "perspective-queries").mkdir()
    (release / "corpus.jsonl").write_text("".join(json.dumps(a) + "\n" for a in arguments))
    (release / "baseline-queries" / "queries_dev.jsonl").write_text(
        json.dumps({"query_id": 1, "text": "Q?", "relevant_candidates": [0, 1, 2]}) + "\n"
    )
    perspective = {"query_id": 1, "text": "Q", "relevant_candidates": [0, 2], "demographic_property": {"gender": "W"}}
    (release / "perspective-queries" / "queries_dev.jsonl").write_text(json.dumps(perspective) + "\n")
    predictions = tmp_path / "dev.jsonl"
    predictions.write_text(json.dumps({"query_id": 1, "relevant_candidates": [0, 1, 3, 2]}) + "\n")
    return release, predictions


def test_evaluate_perspective_json_and_csv_tables(perspective_release, tmp_path):
    release, predictions = perspective_release
    common = ("evaluate", "--track", "perspective", "--data", str(release), "--predictions", str(predictions))
    done = argrank(*common, "--scenario", "explicit", "--split", "dev", "--json", "--csv-dir", str(tmp_path / "tables"))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    corpus = read_corpus(release)
    queries = read_queries(release / "perspective-queries" / "queries_dev.jsonl")
    assert result == evaluate_perspective(corpus, queries, read_predictions(predictions), "explicit").to_json()
    assert {"nDCG@4", "P@4", "alpha-nDCG@4", "rKL@4", "rKL@20"} <= set(result) and result["queries"] == 1
    assert set(result["diversity_per_variable"]) == {"stance", "age"}  # gender is the query's own
    assert sorted(p.name for p in (tmp_path / "tables").iterdir()) == [
        "diversity.csv", "diversity_per_variable.csv", "relevance.csv", "relevance_per_query.csv",
    ]  # fmt: skip
    done = argrank(*common, "--scenario", "explicit", "--split", "dev", "--json", "--all-variables")
    assert set(json.loads(done.stdout)["diversity_per_variable"]) == {"stance", "gender", "age"}
    done = argrank(*common, "--scenario", "baseline", "--split", "dev")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "dev.jsonl / baseline dev: 1 queries, diversity over variables other than the query's own"
    assert lines[1].split() == ["k", "nDCG", "P", "alpha-nDCG", "rKL"] and len(lines) == 6


def test_evaluate_perspective_names_the_bad_line(perspective_release):
    release, predictions = perspective_release
    predictions.write_text('{"query_id": 1, "relevant_candidates": [0, 9]}\n')
    done = argrank(
        "evaluate", "--track", "perspective", "--data", str(release), "--predictions", str(predictions),
        "--scenario", "implicit", "--split", "dev",
    )  # fmt: skip
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"{predictions}: line 1 (query 1): argument 9 is not in the corpus" in done.stderr


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        (("--track", "perspective", "--qrels", "q"), "--qrels does not apply to --track perspective"),
        (("--track", "perspective", "--predictions", "p"), "--track perspective needs --data, --scenario, --split"),
        (("--track", "perspective", "--depth", "10"), "--depth does not apply to --track perspective"),
        (("--run", "r", "--qrels", "q", "--data", "d"), "--data does not apply to --track args"),
        (("--qrels", "q"), "--track args needs --run"),
    ],
)
def test_evaluate_perspective_usage_errors(options, problem):
    done = argrank("evaluate", *options)
    assert done.returncode == 2 and f"argrank evaluate: error: {problem}" in done.stderr


def test_compare_scores_external_task2_runs_stance_against_stance_qrels(shared_data):
    """`compare --track comparative --run … --stance-qrels Q`: each run's stance macro-F1 beside its nDCG@5, the
    figures the organisers published; other tracks refuse the option."""
    task2 = shared_data / "touche-task2"
    runs = [str(task2 / "runs-2022" / name) for name in ("Puss-in-Boots-run1.txt", "Grimjack-run1.txt")]
    done = argrank(
        "compare", "--track", "comparative", "--run", runs[0], "--run", runs[1],
        "--qrels", str(task2 / "touche-task2-2022-relevance.qrels"),
        "--stance-qrels", str(task2 / "touche-task2-2022-stance.qrels"), "--measure", "nDCG@5", "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    means = {tag: {measure: figures["mean"] for measure, figures in by_measure.items()}
             for tag, by_measure in json.loads(done.stdout)["runs"].items()}  # fmt: skip
    assert means["Puss-in-Boots-run1"] == pytest.approx({"nDCG@5": 0.4687, "stance_f1": 0.1584}, abs=5e-5)
    assert means["Grimjack-run1"] == pytest.approx({"nDCG@5": 0.3761, "stance_f1": 0.2071}, abs=5e-5)
    refused = argrank("compare", "--track", "args", "--run", runs[0], "--run", runs[1], "--stance-qrels", runs[0])
    assert refused.returncode == 2 and "--stance-qrels does not apply to --track args" in refused.stderr



def test_evaluate_scores_every_run_against_every_qrels_in_one_table(shared_data, tmp_path):
    task2 = shared_data / "touche-task2"
    runs = [str(task2 / "runs-2022" / name) for name in ("Aldo-Nadi-run3.txt", "Katana-run1.txt")]
    qrels = [str(task2 / f"touche-task2-2022-{kind}.qrels") for kind in ("relevance", "quality")]
    stance = str(task2 / "touche-task2-2022-stance.qrels")
    options = ["evaluate", "--track", "comparative", "--stance-qrels", stance]
    both = [a for run in runs for a in ("--run", run)] + [a for q in qrels for a in ("--qrels", q)]
    done = argrank(*options, *both, "--json", "--csv", str(tmp_path / "all.csv"))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert [(r["run"], r["qrels"]) for r in result["results"]] == [(r, q) for r in runs for q in qrels]
    for entry in result["results"]:  # each pair's figures are those of a call with that pair alone
        alone = json.loads(argrank(*options[:3], "--run", entry["run"], "--qrels", entry["qrels"], "--json").stdout)
        assert entry["nDCG@5"] == alone["nDCG@5"] and entry["per_topic"] == alone["per_topic"]
    assert [s["run"] for s in result["stance"]] == runs and all(s["stance_qrels"] == stance for s in result["stance"])
    rows = (tmp_path / "all.csv").read_text().splitlines()
    assert rows[0] == "run,qrels,topic,nDCG@5,Judged@5,condensed-nDCG@5"
    assert len(rows) == 1 + sum(len(r["per_topic"]) for r in result["results"])
    table = argrank(*options[:3], *both)
    assert table.returncode == 0, table.stderr
    header, *lines = [line for line in table.stdout.splitlines() if " / touche-task2-2022-" in line]
    assert len([header, *lines]) == 4  # one table: 2 runs × 2 judgments
    again = argrank(*options[:3], "--run", runs[0], "--run", runs[0], "--qrels", qrels[0])
    assert again.returncode == 2 and "--run names a file twice" in again.stderr


def test_a_run_and_judgments_that_share_no_topic_are_refused_naming_both(shared_data):
    task1 = shared_data / "touche-task1"
    run = str(task1 / "runs-2021-elrond" / "ElrondKRun.txt")
    qrels = str(task1 / "touche2020-task1-relevance-args-me-corpus-version-2020-04-01-corrected.qrels")
    done = argrank("evaluate", "--run", run, "--qrels", qrels)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "shares no topic with the judgments" in done.stderr and run in done.stderr and qrels in done.stderr
    compared = argrank("compare", "--run", run, "--qrels", qrels)
    assert compared.returncode == 2 and "shares no topic" in compared.stderr and "identical" not in compared.stdout


def test_a_run_of_other_document_ids_is_scored_with_a_warning_naming_an_id_of_each(shared_data, tmp_path):
    task1 = shared_data / "touche-task1"
    qrels = str(task1 / "touche2021-task1-51-100-relevance.qrels")
    lines = (task1 / "runs-2021-elrond" / "ElrondKRun.txt").read_text().splitlines()
    other = tmp_path / "other-ids.txt"  # the same ranking under another corpus version's ids
    other.write_text("".join(f"{' '.join(f[:2])} v1-{f[2]} {' '.join(f[3:])}\n" for f in map(str.split, lines)))
    done = argrank("evaluate", "--run", str(other), "--qrels", qrels, "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["nDCG@5"] == 0.0
    assert "the run's documents are none of the judged ones: 0 of the" in done.stderr
    assert "the run has 'v1-" in done.stderr


@pytest.mark.parametrize("depth", ["0", "-3"])
def test_a_depth_below_one_is_a_usage_error(shared_data, depth):
    task1 = shared_data / "touche-task1"
    done = argrank("evaluate", "--run", str(task1 / "runs-2021-elrond" / "ElrondKRun.txt"), "--qrels",
                   str(task1 / "touche2021-task1-51-100-relevance.qrels"), "--depth", depth)  # fmt: skip
    assert done.returncode == 2 and f"--depth {depth}: expected a cut-off of at least 1" in done.stderr
