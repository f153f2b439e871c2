"""`argrank run` on a runs file naming an ir_datasets id: the embedded args data laid out in a temporary
IR_DATASETS_HOME as ir_datasets caches argsme/2020-04-01/touche-2021-task-1 ranks and scores as the same files named
one by one do; and the same data as BEIR's Touché collection (beir/webis-touche2020/v2: a zip, queries.json,
test.qrels) ranks and scores as the args.me files do."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile

from graph import REPO

from argrank.formats.qrels import read_qrels
from argrank.formats.topics import read_topics
from argrank.tracks.args.layout import SOURCE_FILES

DATA = REPO / "data" / "args"


def test_argrank_run_reads_corpus_topics_and_qrels_from_ir_datasets_cache(tmp_path):
    home = tmp_path / "ir_datasets"
    shutil.copytree(DATA / "corpus", home / "argsme" / "2020-04-01")
    task = home / "touche" / "2021" / "task-1"
    task.mkdir(parents=True)
    shutil.copy(DATA / "topics.xml", task / "queries.xml")
    for name in ("relevance", "quality"):
        shutil.copy(DATA / f"qrels-{name}.qrels", task / f"qrels-{name}.qrels")
    write_runs(tmp_path, "argsme/2020-04-01/touche-2021-task-1", ("relevance", "quality"))
    means = run_all(tmp_path, home, ("cached", "named"))
    assert means["cached"] == means["named"] and set(means["cached"]["bm25"]) == {"relevance", "quality"}


def write_runs(tmp_path, dataset: str, judgments: tuple[str, ...]) -> None:
    """cached.yaml naming `dataset`, and named.yaml naming the embedded args files (with `judgments`) instead."""
    rest = "  fields: [premise]\n  runs: {bm25: {}}\n"
    qrels = ", ".join(f"{name}: {DATA / f'qrels-{name}.qrels'}" for name in judgments)
    named = f"  corpus: {DATA / 'corpus'}\n  topics: {DATA / 'topics.xml'}\n  qrels: {{{qrels}}}\n"
    (tmp_path / "cached.yaml").write_text(f"args:\n  dataset: {dataset}\n{rest}", encoding="utf-8")
    (tmp_path / "named.yaml").write_text(f"args:\n{named}{rest}", encoding="utf-8")


def run_all(tmp_path, home, names) -> dict:
    """The evaluation of `argrank run` on each `<name>.yaml` in `tmp_path`, with `home` as ir_datasets' cache."""
    means = {}
    for name in names:
        done = subprocess.run(
            [sys.executable, "-m", "workflows.cli", "run", "--runs-file", str(tmp_path / f"{name}.yaml"),
             "--outputs", str(tmp_path / "outputs")],
            cwd=REPO, capture_output=True, text=True, timeout=600, env={**os.environ, "IR_DATASETS_HOME": str(home)},
        )  # fmt: skip
        assert done.returncode == 0, done.stderr[-2000:]
        evaluation = tmp_path / "outputs" / "experiments" / name / "args" / "evaluation.json"
        means[name] = json.loads(evaluation.read_text(encoding="utf-8"))
    return means


def test_argrank_run_reads_beir_touche_from_ir_datasets_cache_as_the_args_me_files(tmp_path):
    folder = tmp_path / "ir_datasets" / "beir" / "webis-touche2020" / "v2"
    folder.mkdir(parents=True)
    documents = [
        {"_id": argument["id"], "title": argument["conclusion"],
         "text": "\n".join(premise["text"] for premise in argument["premises"]),
         "metadata": {"stance": argument["premises"][0]["stance"]}}
        for name in SOURCE_FILES
        for argument in json.loads((DATA / "corpus" / name).read_text(encoding="utf-8"))["arguments"]
    ]  # fmt: skip
    with zipfile.ZipFile(folder / "source.zip", "w") as archive:
        archive.writestr("webis-touche2020/corpus.jsonl", "".join(json.dumps(doc) + "\n" for doc in documents))
    queries = [{"_id": topic.number, "text": topic.title, "metadata": {"description": topic.description or ""}}
               for topic in read_topics(DATA / "topics.xml")]  # fmt: skip
    (folder / "queries.json").write_text("".join(json.dumps(query) + "\n" for query in queries), encoding="utf-8")
    judged = read_qrels(DATA / "qrels-relevance.qrels")
    (folder / "test.qrels").write_text("query-id\tcorpus-id\tscore\n" + "".join(
        f"{topic}\t{doc}\t{label:g}\n" for topic, docs in judged.items() for doc, label in docs.items()
    ), encoding="utf-8")  # fmt: skip
    write_runs(tmp_path, "beir/webis-touche2020/v2", ("relevance",))
    means = run_all(tmp_path, tmp_path / "ir_datasets", ("cached", "named"))
    assert means["cached"] == means["named"] and set(means["cached"]["bm25"]) == {"relevance"}
