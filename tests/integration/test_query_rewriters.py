"""A researcher's own query rewriter, a `module:callable` beside the runs file, through the graph on the embedded
data: a rewriter of the topics alone and one that reads the first ranking's top both change the ranking; a
rewriter's steps chain with rm3; changing its parameter recomputes its expanded queries and what follows, never the
first ranking; a rewriter that returns the wrong number of queries fails with one line and caches nothing."""

from __future__ import annotations

import subprocess

import pytest
import yaml
from graph import build, cache_state, copy_project, luigi_command, stages_of

from argrank.formats.runfile import read_run

REWRITE = """\
def first_term(topics, weight=1.0):
    return [{terms[0]: weight} for terms in topics.column("terms").to_pylist()]


def with_feedback(topics, candidates, words=5):
    best = {}
    for topic, text in zip(candidates.column("topic").to_pylist(), candidates.column("text").to_pylist()):
        best.setdefault(topic, text)
    return [query + " " + " ".join(best.get(topic, "").split()[:words])
            for topic, query in zip(topics.column("topic").to_pylist(), topics.column("query").to_pylist())]


def too_few(topics):
    return ["one query"]


def nothing(topics, empty=0):
    return [{} if empty else "" for _ in range(topics.num_rows)]
"""


def _runs_file(tmp_path, runs: dict):
    runs_file, outputs = copy_project(tmp_path, "args")
    (runs_file.parent / "rewrite.py").write_text(REWRITE, encoding="utf-8")
    config = yaml.safe_load(runs_file.read_text())
    config["args"]["runs"] = {"bm25": {"method": "bm25"}, **runs}
    config["args"].pop("baseline", None)
    runs_file.write_text(yaml.safe_dump(config), encoding="utf-8")
    return runs_file, outputs


def _ranked(path):
    return [(line.qid, line.doc) for line in read_run(path)]


def test_rewriters_change_the_ranking_chain_and_recompute_only_their_step(tmp_path):
    runs = {
        "first": {"method": "bm25", "expand": [{"use": "rewrite:first_term", "params": {"weight": 2.0}}]},
        "fed": {"method": "bm25", "expand": [{"use": "rewrite:with_feedback", "depth": 3, "params": {"words": 5}}]},
        "chain": {"method": "bm25", "expand": [{"use": "rewrite:first_term"}, {"use": "rm3"}]},
    }
    runs_file, outputs = _runs_file(tmp_path, runs)
    build(runs_file, outputs)
    folder = outputs / "submission" / "args"
    plain = _ranked(folder / "bm25.txt")
    ranked = {tag: _ranked(folder / f"{tag}.txt") for tag in runs}
    assert all(ranking != plain for ranking in ranked.values())
    assert ranked["chain"] != ranked["first"]  # rm3 expanded the rewritten query
    assert len([p for p in cache_state(outputs) if stages_of([p]) == {"expanded-queries"}]) == 4

    before = cache_state(outputs)
    runs["fed"]["expand"][0]["params"]["words"] = 2
    runs_file.write_text(yaml.safe_dump({**yaml.safe_load(runs_file.read_text()),
                                         "args": {**yaml.safe_load(runs_file.read_text())["args"],
                                                  "runs": {"bm25": {"method": "bm25"}, **runs}}}),
                         encoding="utf-8")  # fmt: skip
    build(runs_file, outputs)
    after = cache_state(outputs)
    new = {path for path in after if path not in before}
    assert stages_of(new) >= {"expanded-queries", "rank"} and not stages_of(new) & {"ingest", "tokens", "index"}
    assert len([p for p in new if stages_of([p]) == {"rank"}]) == 1  # the rewritten run's; BM25's stays
    assert all(after[path] == before[path] for path in before if path in after)


@pytest.mark.parametrize(("use", "problem"), [("too_few", "returned 1 queries for"),
                                              ("nothing", "has no term left after analysis")])  # fmt: skip
def test_a_rewriter_returning_too_few_or_empty_queries_fails_in_one_line_and_caches_nothing(tmp_path, use, problem):
    """An empty query once reached the evaluation as an empty run, and the empty run stayed cached."""
    runs_file, outputs = _runs_file(tmp_path, {"mine": {"method": "bm25", "expand": [{"use": f"rewrite:{use}"}]}})
    done = subprocess.run(luigi_command(runs_file, outputs), capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode != 0
    assert f"run mine, expand step 1 (rewrite:{use})" in done.stderr and problem in done.stderr
    assert "expanded-queries" not in stages_of(cache_state(outputs))
    assert not (outputs / "submission" / "args" / "mine.txt").exists()
