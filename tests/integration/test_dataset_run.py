"""`argrank run` on a runs file naming an ir_datasets id: the embedded args data laid out in a temporary
IR_DATASETS_HOME as ir_datasets caches argsme/2020-04-01/touche-2021-task-1 ranks and scores as the same files named
one by one do."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

from graph import REPO

DATA = REPO / "data" / "args"


def test_argrank_run_reads_corpus_topics_and_qrels_from_ir_datasets_cache(tmp_path):
    home = tmp_path / "ir_datasets"
    shutil.copytree(DATA / "corpus", home / "argsme" / "2020-04-01")
    task = home / "touche" / "2021" / "task-1"
    task.mkdir(parents=True)
    shutil.copy(DATA / "topics.xml", task / "queries.xml")
    for name in ("relevance", "quality"):
        shutil.copy(DATA / f"qrels-{name}.qrels", task / f"qrels-{name}.qrels")
    runs = "args:\n  dataset: argsme/2020-04-01/touche-2021-task-1\n  fields: [premise]\n  runs: {bm25: {}}\n"
    (tmp_path / "cached.yaml").write_text(runs, encoding="utf-8")
    (tmp_path / "named.yaml").write_text(runs.replace(
        "  dataset: argsme/2020-04-01/touche-2021-task-1\n",
        f"  corpus: {DATA / 'corpus'}\n  topics: {DATA / 'topics.xml'}\n"
        f"  qrels: {{relevance: {DATA / 'qrels-relevance.qrels'}, quality: {DATA / 'qrels-quality.qrels'}}}\n",
    ), encoding="utf-8")  # fmt: skip
    means = {}
    for name in ("cached", "named"):
        done = subprocess.run(
            [sys.executable, "-m", "workflows.cli", "run", "--runs-file", str(tmp_path / f"{name}.yaml"),
             "--outputs", str(tmp_path / "outputs")],
            cwd=REPO, capture_output=True, text=True, timeout=600, env={**os.environ, "IR_DATASETS_HOME": str(home)},
        )  # fmt: skip
        assert done.returncode == 0, done.stderr[-2000:]
        evaluation = tmp_path / "outputs" / "experiments" / name / "args" / "evaluation.json"
        means[name] = json.loads(evaluation.read_text(encoding="utf-8"))
    assert means["cached"] == means["named"] and set(means["cached"]["bm25"]) == {"relevance", "quality"}
