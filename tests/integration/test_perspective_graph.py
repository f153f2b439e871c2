"""The perspective track through the graph on the embedded data: every scenario and split published, judged ones scored."""

from __future__ import annotations

import json

import yaml

from graph import build, copy_project

from argrank.tracks.perspective.data import (
    query_file,
    read_corpus,
    read_predictions,
    read_queries,
)
from argrank.tracks.perspective.report import perspective_section


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


def test_scores_on_the_training_split_say_they_are_in_sample(tmp_path):
    """`splits: [train]`: the ranker (and the implicit guess) learned from those very queries, so their scores are
    marked in-sample in evaluation.json, evaluation.txt and the report; the held-out dev split's are not."""
    runs_file, outputs = copy_project(tmp_path, "perspective")
    config = yaml.safe_load(runs_file.read_text())
    config["perspective"].update(scenarios=["implicit"], splits=["train", "dev"])
    runs_file.write_text(yaml.safe_dump(config), encoding="utf-8")
    build(runs_file, outputs)
    folder = outputs / "submission" / "perspective"
    evaluation = json.loads((folder / "evaluation.json").read_text())
    train, dev = evaluation["implicit/train"], evaluation["implicit/dev"]
    assert train["in_sample"] is True and train["in_sample_measures"] == train["measures"]
    assert "implicit property guess" in train["in_sample_reason"] and "perspective-cv" in train["in_sample_reason"]
    assert "in_sample" not in dev
    text = (folder / "evaluation.txt").read_text()
    assert f"{train['nDCG@4']:.4f}*" in text and f"* in-sample: {train['in_sample_reason']}" in text
    assert text.count("in-sample") == 1  # the train split's table only
    assert perspective_section(folder).count("in-sample") == 1


def test_rankings_that_may_not_read_profiles_do_not_change_with_them(tmp_path):
    """The rules by construction, end to end: rewrite every author's profile in the corpus (the judgments stay) and
    the baseline and implicit rankings are byte for byte the same, while the explicit ones, which may read profiles,
    change. With `implicit_stance: false`, rewriting every stance label leaves the implicit rankings alone too."""
    runs_file, outputs = copy_project(tmp_path, "perspective")
    config = yaml.safe_load(runs_file.read_text())
    config["perspective"]["implicit_stance"] = False
    runs_file.write_text(yaml.safe_dump(config), encoding="utf-8")
    build(runs_file, outputs)
    before = {path.relative_to(outputs): path.read_bytes() for path in (outputs / "submission").rglob("*.jsonl")}

    corpus_file = tmp_path / "data" / "perspective" / "corpus.jsonl"
    arguments = [json.loads(line) for line in corpus_file.read_text(encoding="utf-8").splitlines()]
    profiles = [(argument["demographic_profile"], argument["stance"]) for argument in arguments]
    for argument, (profile, stance) in zip(arguments, profiles[1:] + profiles[:1]):  # the next argument's
        argument["demographic_profile"], argument["stance"] = profile, stance
    corpus_file.write_text("".join(json.dumps(a, ensure_ascii=False) + "\n" for a in arguments), encoding="utf-8")
    build(runs_file, tmp_path / "rewritten")
    after = {path.relative_to(tmp_path / "rewritten"): path.read_bytes()
             for path in (tmp_path / "rewritten" / "submission").rglob("*.jsonl")}  # fmt: skip

    assert before.keys() == after.keys() and len(before) == 6
    for name in before:
        same = before[name] == after[name]
        assert same == (name.parts[-2] != "explicit"), name
