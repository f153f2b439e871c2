"""The perspective track through the graph on the embedded data: every scenario and split published, judged ones scored."""

from __future__ import annotations

import json

from graph import build, copy_project

from argrank.tracks.perspective.data import (
    query_file,
    read_corpus,
    read_predictions,
    read_queries,
)


def test_full_submission_writes_every_scenario_and_split_with_tables(tmp_path):
    runs_file, outputs = copy_project(tmp_path, "perspective")
    build(runs_file, outputs)
    folder = outputs / "submission" / "perspective"
    corpus = read_corpus(tmp_path / "data" / "perspective")
    evaluation = json.loads((folder / "evaluation.json").read_text())
    assert sorted(evaluation) == ["baseline/dev", "explicit/dev", "implicit/dev"]  # test splits are not judged
    for scenario in ("baseline", "explicit", "implicit"):
        for split in ("dev", "test"):
            predictions = read_predictions(folder / scenario / f"{split}.jsonl", corpus)
            queries = read_queries(query_file(tmp_path / "data" / "perspective", scenario, split))
            assert list(predictions) == [query.query_id for query in queries]
            assert all(len(ids) == len(set(ids)) == len(corpus) for ids in predictions.values())  # 314 < 1,000
        assert (folder / scenario / "dev.relevance.csv").read_text().startswith("k,")
        assert 0.0 < evaluation[f"{scenario}/dev"]["nDCG@4"] <= 1.0
    assert evaluation["baseline/dev"]["nDCG@4"] >= 0.85
    assert "alpha-nDCG" in (folder / "evaluation.txt").read_text()
