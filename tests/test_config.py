"""The runs file: defaults, paths relative to the file, and one clear error per mistake."""

from __future__ import annotations

from pathlib import Path

import pytest

from argrank.config import load_config
from argrank.errors import InputError

REPO = Path(__file__).resolve().parent.parent


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "runs.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_repository_runs_file_loads():
    track = load_config(REPO / "runs.yaml")["args"]
    assert track.corpus == REPO / "data" / "args" / "corpus"
    assert 1 <= len(track.runs) <= 5
    assert {spec.method for spec in track.runs} == {"bm25", "dirichlet"}


def test_defaults_and_relative_paths(tmp_path):
    track = load_config(write(tmp_path, "args:\n  corpus: c\n  topics: t.xml\n  runs:\n    r1: {}\n"))["args"]
    assert track.corpus == tmp_path / "c" and track.topics == tmp_path / "t.xml"
    assert track.depth == 1000 and track.qrels == {}
    (spec,) = track.runs
    assert (spec.tag, spec.method, spec.query) == ("r1", "bm25", "title")
    assert spec.params == {"k1": 1.2, "b": 0.75, "epsilon": 0.25}


@pytest.mark.parametrize(
    "text, where, problem",
    [
        ("args: [1, 2]\n", "args", "expected a mapping"),
        ("images: {}\n", "images", "unknown track"),
        ("args:\n  topics: t\n  runs: {r: {}}\n", "args", "missing setting 'corpus'"),
        ("args:\n  corpus: c\n  topics: t\n  runs: {r: {method: tfidf}}\n", "args.runs.r", "unknown ranking method"),
        ("args:\n  corpus: c\n  topics: t\n  runs: {r: {params: {k1: x}}}\n", "args.runs.r", "finite number"),
        ("args:\n  corpus: c\n  topics: t\n  runs: {'a b': {}}\n", "args.runs.a b", "no spaces"),
        ("args:\n  corpus: c\n  topics: t\n  runs: {r: {query: body}}\n", "args.runs.r.query", "unknown query"),
        ("args:\n  corpus: c\n  topics: t\n  depth: 5000\n  runs: {r: {}}\n", "args.depth", "1 to 1000"),
        ("args:\n  corpus: c\n  topics: t\n  runs: {a: {}, b: {}, c: {}, d: {}, e: {}, f: {}}\n", "args.runs", "at most 5"),
        ("args:\n  corpus: c\n  topics: t\n  runs: {r: {}}\n  colour: red\n", "args", "unknown setting(s) colour"),
        ("args: {corpus: [\n", "", "not valid YAML"),
    ],
)
def test_mistakes_are_named(tmp_path, text, where, problem):
    path = write(tmp_path, text)
    with pytest.raises(InputError) as error:
        load_config(path)
    assert error.value.path == str(path)
    assert error.value.where == where
    assert problem in error.value.problem
