"""Query expansion in the graph on the embedded data: a run with `expand: [{use: rm3, ...}]` ranks differently
from BM25 alone, its first ranking is BM25's own cached one, and changing an expansion parameter recomputes the
expanded queries and what follows, never the first ranking."""

from __future__ import annotations

import yaml
from graph import build, cache_state, copy_project, stages_of

from argrank.formats.runfile import read_run


def _write(runs_file, fb_terms: int) -> None:
    config = yaml.safe_load(runs_file.read_text())
    config["args"]["runs"] = {
        "bm25": {"method": "bm25"},
        "rm3": {"method": "bm25", "expand": [{"use": "rm3", "params": {"fb_docs": 3, "fb_terms": fb_terms}}]},
        "bo1": {"method": "bm25", "expand": [{"use": "bo1"}]},
    }
    config["args"].pop("baseline", None)
    runs_file.write_text(yaml.safe_dump(config), encoding="utf-8")


def test_an_expanded_run_differs_and_shares_its_first_ranking(tmp_path):
    runs_file, outputs = copy_project(tmp_path, "args")
    _write(runs_file, 10)
    build(runs_file, outputs)
    folder = outputs / "submission" / "args"
    plain = [(line.qid, line.doc) for line in read_run(folder / "bm25.txt")]
    for tag in ("rm3", "bo1"):
        assert [(line.qid, line.doc) for line in read_run(folder / f"{tag}.txt")] != plain
    ranks = [p for p in cache_state(outputs) if stages_of([p]) == {"rank"}]
    assert len(ranks) == 3  # BM25's (the expansions' feedback too) and one per expanded run

    before = cache_state(outputs)
    _write(runs_file, 5)
    build(runs_file, outputs)
    new = {p for p in cache_state(outputs) if p not in before}
    assert stages_of(new) >= {"expanded-queries", "rank"} and not stages_of(new) & {"ingest", "tokens", "index"}
    assert len([p for p in new if stages_of([p]) == {"rank"}]) == 1  # the rm3 run's, not BM25's
