"""The quality stages in the graph on the embedded data: the model trained once, a run's top re-ranked from its
twin's very ranking, and the embedded quality judgments showing the effect."""

from __future__ import annotations

import json
from collections import defaultdict

from graph import build, copy_project

from argrank.formats.runfile import read_run


def test_the_reranked_run_reorders_its_twins_documents_and_scores_higher_on_quality(tmp_path):
    runs_file, outputs = copy_project(tmp_path, "args")
    build(runs_file, outputs)
    folder = outputs / "submission" / "args"
    plain, reranked = (read_run(folder / f"{tag}.txt") for tag in ("argrank-bm25", "argrank-bm25-quality"))

    def per_topic(run):
        documents = defaultdict(list)
        for line in run:
            documents[line.qid].append(line.doc)
        return documents

    before, after = per_topic(plain), per_topic(reranked)
    assert before.keys() == after.keys()
    for topic in before:
        assert set(before[topic]) == set(after[topic])  # the same documents: only re-ordered
        assert before[topic][100:] == after[topic][100:]  # below the re-ranked top, the order stays
        assert before[topic][:100] != after[topic][:100]
    scores = [line.score for line in reranked]
    assert all(a >= b for a, b, x, y in zip(scores, scores[1:], reranked, reranked[1:]) if x.qid == y.qid)

    evaluation = json.loads((folder / "evaluation.json").read_text())
    quality = {tag: evaluation[tag]["quality"] for tag in ("argrank-bm25", "argrank-bm25-quality")}
    assert quality["argrank-bm25-quality"]["condensed-nDCG@5"] > quality["argrank-bm25"]["condensed-nDCG@5"] + 0.1
    models = [p for p in (outputs / "cache" / "quality" / "quality-model").iterdir() if not p.name.startswith(".")]
    assert len(models) == 1  # one model, shared
