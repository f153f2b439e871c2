"""The numpy accumulator and the one built ahead of time against the compiled one (same candidates, order and scores,
bit for bit), and the choice between them: in a process without numba the prebuilt one, or where none is built
numpy until the postings scored would pay for loading numba."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from argrank.index.build import build_index
from argrank.index.store import save_index
from argrank.retrieval import accumulation, accumulator, ahead_of_time, numpy_accumulator
from argrank.retrieval.accumulation import Accumulation
from argrank.retrieval.registry import make_ranker
from argrank.retrieval.numpy_accumulator import UNTOUCHED

REPO = Path(__file__).resolve().parents[2]


@st.composite
def postings_and_query(draw):
    """A small CSR matrix (each row's documents distinct), document norms and a query's rows, repeats allowed."""
    documents = draw(st.integers(1, 40))
    rows = draw(st.lists(st.lists(st.integers(0, documents - 1), unique=True, max_size=documents), min_size=1,
                         max_size=8))  # fmt: skip
    indptr = np.cumsum([0, *map(len, rows)]).astype(np.int64)
    indices = np.array([d for row in rows for d in row], dtype=np.int32)
    frequencies = draw(st.sampled_from([np.int32, np.uint16]))  # as an index holds them (index/inversion.py)
    data = np.array(draw(st.lists(st.integers(1, 30), min_size=len(indices), max_size=len(indices))), frequencies)
    norm = np.array(draw(st.lists(st.floats(0.05, 4.0), min_size=documents, max_size=documents)))
    query = np.array(draw(st.lists(st.integers(0, len(rows) - 1), min_size=1, max_size=6)), dtype=np.int64)
    weights = st.floats(-2.0, 8.0, allow_subnormal=False)
    idf = np.array(draw(st.lists(weights, min_size=len(query), max_size=len(query))))
    scale = np.array(draw(st.lists(weights, min_size=len(query), max_size=len(query))))
    kept = np.array(draw(st.lists(st.booleans(), min_size=len(rows), max_size=len(rows))))  # rows' factors kept
    return indptr, indices, data, norm, query, idf, scale, kept


def _run(kernels, indptr, indices, data, norm, query, idf, scale, kept):
    """The kept rows' factors written by `impacts`, then the query accumulated, reading them for its kept rows."""
    out = np.zeros(len(indices))
    assert kernels.impacts(indptr, indices, data, np.flatnonzero(kept), norm, 2.2, out) == 0
    table = np.full(len(norm), UNTOUCHED)
    candidates, scores = np.empty(len(norm) + 1, dtype=np.int32), np.empty(len(norm))
    n = kernels.accumulate(indptr, indices, data, norm, 2.2, out, kept[query], query, idf, scale, table, candidates,
                           scores)  # fmt: skip
    assert np.all(table == UNTOUCHED)  # ready for the next query
    return out, candidates[:n], scores[:n]


@settings(max_examples=200, deadline=None)
@given(postings_and_query())
def test_numpy_and_prebuilt_kernels_are_the_compiled_kernels(prebuilt_kernels, case):
    compiled = _run(accumulator, *case)
    for kernels in (numpy_accumulator, prebuilt_kernels):
        for ours, theirs in zip(_run(kernels, *case), compiled):
            assert ours.dtype == theirs.dtype and ours.tobytes() == theirs.tobytes()  # bit for bit: 0.0 is not -0.0
    indptr, indices, _, _, query, _, _, kept = case
    reached = {int(d) for row in query for d in indices[indptr[row] : indptr[row + 1]]}
    assert sorted(compiled[1].tolist()) == sorted(reached)
    for factors in (np.ones_like(kept), np.zeros_like(kept)):  # every row's factors read, and computed in the loop
        _, candidates, scores = _run(accumulator, *case[:-1], factors)
        assert candidates.tobytes() == compiled[1].tobytes() and scores.tobytes() == compiled[2].tobytes()


@pytest.fixture
def none_prebuilt(monkeypatch):
    """A process where `make` built no kernels ahead of time."""
    monkeypatch.setattr(ahead_of_time, "load", lambda: None)


def test_a_process_without_numba_scores_in_numpy_until_loading_pays(monkeypatch, none_prebuilt):
    monkeypatch.delitem(sys.modules, "numba", raising=False)  # as in a process that has not loaded it
    monkeypatch.setattr(accumulation, "LOAD_POSTINGS", 100)
    monkeypatch.setattr(Accumulation, "scored", 0)
    choice = Accumulation()
    assert [choice.kernels(40) for _ in range(3)] == [numpy_accumulator] * 3  # 0, 40, 80 scored before each
    assert choice.final is None  # the rent is still being paid: ask again next query
    assert choice.kernels(40) is accumulator and choice.kernels(1) is accumulator
    assert choice.final is accumulator  # numba is loaded now: nothing can change the choice
    assert choice.used == {"numpy", "compiled"}
    assert Accumulation(accumulator).kernels(1) is accumulator
    monkeypatch.undo()
    assert "numba" in sys.modules and Accumulation().kernels(1) is accumulator  # loaded: no reason to wait
    assert Accumulation(numpy_accumulator).kernels(10**12) is numpy_accumulator


def test_a_process_without_numba_scores_with_the_prebuilt_kernels(monkeypatch, prebuilt_kernels):
    """Loading them costs milliseconds: no numpy first, no rent counted; with numba loaded, numba's (host-tuned)."""
    monkeypatch.delitem(sys.modules, "numba", raising=False)
    monkeypatch.setattr(ahead_of_time, "load", lambda: prebuilt_kernels)
    monkeypatch.setattr(Accumulation, "scored", 0)
    choice = Accumulation()
    assert [choice.kernels(10**9) for _ in range(3)] == [prebuilt_kernels] * 3
    assert choice.used == {"prebuilt"} and Accumulation.scored == 0 and choice.final is prebuilt_kernels
    monkeypatch.undo()
    assert "numba" in sys.modules and Accumulation().kernels(1) is accumulator


def test_the_rankers_of_a_process_count_together(monkeypatch, none_prebuilt):
    """A sweep: each ranker scores too few postings to pay for loading numba alone, all of them together do."""
    monkeypatch.delitem(sys.modules, "numba", raising=False)
    monkeypatch.setattr(accumulation, "LOAD_POSTINGS", 100)
    monkeypatch.setattr(Accumulation, "scored", 0)
    first, second, third = Accumulation(), Accumulation(), Accumulation()
    assert [first.kernels(40), second.kernels(40), third.kernels(40)] == [numpy_accumulator] * 3
    assert third.kernels(40) is accumulator and Accumulation().kernels(1) is accumulator


def test_a_ranker_that_changes_kernels_between_queries_scores_as_one_that_never_does(monkeypatch, none_prebuilt):
    """The switch happens between two queries of one ranker, on buffers the numpy kernels used before."""
    rng = np.random.default_rng(3)
    docs = [[f"t{int(t)}" for t in rng.zipf(1.4, size=rng.integers(1, 40)) if t < 200] for _ in range(300)]
    index = build_index(pa.array([f"d{i:03}" for i in range(300)]), pa.array(docs, type=pa.list_(pa.string())))
    queries = [index.vocabulary.ids([f"t{int(t)}" for t in rng.integers(1, 30, size=4)]) for _ in range(12)]
    fixed = make_ranker(index, "bm25", {"k1": 1.1})
    fixed.accumulation = Accumulation(accumulator)
    monkeypatch.delitem(sys.modules, "numba", raising=False)
    monkeypatch.setattr(accumulation, "LOAD_POSTINGS", 200)
    monkeypatch.setattr(Accumulation, "scored", 0)
    switching = make_ranker(index, "bm25", {"k1": 1.1})
    for query in queries:
        for ours, theirs in zip(switching.top(query, 50), fixed.top(query, 50)):
            assert ours.tobytes() == theirs.tobytes()
    assert switching.accumulation.used == {"numpy", "compiled"}


@pytest.mark.parametrize("built", [True, False], ids=["prebuilt", "none-built"])
def test_ranking_a_run_loads_neither_numba_nor_numpy_ma_nor_pyarrow_compute(tmp_path, prebuilt_kernels, built):
    """The re-run after a ranking parameter changed: a new process that loads an index and ranks a few queries
    must not pay numba's second of loading; it scores with the prebuilt kernels, or numpy's where none are built.
    Nor numpy.ma's 8 ms, which `np.unique` and `pa.array` of a numpy array load (core/arrow_arrays.py), nor
    pyarrow.compute's 30 ms, which Arrow's computing methods load (core/arrow_kernels.py)."""
    ids = [f"d{i}" for i in range(50)]
    tokens = [["alpha", "beta"][: 1 + i % 2] * (1 + i % 3) for i in range(50)]
    save_index(build_index(pa.array(ids), pa.array(tokens, type=pa.list_(pa.string()))), tmp_path / "index")
    prebuilt = Path(prebuilt_kernels.module.__file__).parent if built else tmp_path / "none"
    script = textwrap.dedent(f"""
        import sys
        from pathlib import Path
        import pyarrow as pa
        from argrank.index.store import load_index
        from argrank.retrieval import ahead_of_time
        from argrank.retrieval.registry import make_ranker
        from argrank.retrieval.search import rank_queries
        ahead_of_time.PREBUILT = Path({str(prebuilt)!r})
        index = load_index({str(tmp_path / "index")!r})
        ranker = make_ranker(index, "bm25", {{"k1": 1}})
        queries = pa.table({{"qid": ["1", "2"], "terms": [["alpha"], ["beta", "alpha"]]}})
        table = rank_queries(index, queries, ranker, 10)
        print(table.num_rows, sorted(ranker.accumulation.used), "numba" in sys.modules, "numpy.ma" in sys.modules,
              "pyarrow.compute" in sys.modules)
    """)
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["20", "['prebuilt']" if built else "['numpy']", "False", "False", "False"]


def test_the_prebuilt_kernels_refuse_arguments_of_another_type(prebuilt_kernels):
    """pycc's functions read whatever memory they are given as their declared type: each argument is checked."""
    indptr, indices, data = np.array([0, 2], dtype=np.int64), np.array([0, 1], dtype=np.int32), np.ones(2, np.int32)
    out = np.zeros(2)
    assert prebuilt_kernels.impacts(indptr, indices, data, np.array([0]), np.ones(2), 2, out) == 0  # an int k1 + 1
    assert out.tolist() == [1.0, 1.0]
    for bad in (indices.astype(np.int64), indices.astype(np.float32), np.zeros(4, np.int32)[::2], indices[None, :],
                indices.tolist()):  # fmt: skip
        with pytest.raises(TypeError, match="argument 1 must be a contiguous 1-d int32 array"):
            prebuilt_kernels.impacts(indptr, bad, data, np.array([0]), np.ones(2), 2.2, out)
    assert prebuilt_kernels.impacts(indptr, indices, data.astype(np.uint16), np.array([0]), np.ones(2), 2, out) == 0
    for bad in (data.astype(np.float32), data.astype(np.int64)):
        with pytest.raises(TypeError, match="argument 2 must be an array of uint16 or int32 frequencies"):
            prebuilt_kernels.impacts(indptr, indices, bad, np.array([0]), np.ones(2), 2.2, out)
    with pytest.raises(TypeError, match="argument 5 must be a number"):
        prebuilt_kernels.impacts(indptr, indices, data, np.array([0]), np.ones(2), "2.2", out)
    with pytest.raises(TypeError, match="takes 7 arguments"):
        prebuilt_kernels.impacts(indptr, indices, data)


def test_a_build_is_named_by_its_sources_and_replaces_older_builds(tmp_path, monkeypatch):
    """Kernels built from other sources are never loaded: a change to them (or to numpy) names another module."""
    (tmp_path / "accumulator_0123456789abcdef.so").write_bytes(b"an older build")
    built = ahead_of_time.build(tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == [built.name]
    assert ahead_of_time.load.__wrapped__(tmp_path) is not None
    changed = tmp_path / "changed.py"
    changed.write_text("# another kernel")
    monkeypatch.setattr(ahead_of_time, "SOURCES", (*ahead_of_time.SOURCES, changed))
    assert ahead_of_time.module_path(tmp_path) != built
    assert ahead_of_time.load.__wrapped__(tmp_path) is None


@pytest.mark.parametrize("size", [0, 1])
def test_empty_and_single_postings(size, prebuilt_kernels):
    """Edge sizes: a query of an empty posting list lists nothing; one posting, one candidate."""
    indptr = np.array([0, size], dtype=np.int64)
    indices, data = np.zeros(size, dtype=np.int32), np.ones(size, dtype=np.int32)
    case = (indptr, indices, data, np.ones(1), np.array([0]), np.array([1.5]), np.array([1.0]))
    for kernels in (accumulator, numpy_accumulator, prebuilt_kernels):
        for kept in (True, False):
            _, candidates, scores = _run(kernels, *case, np.array([kept]))
            assert len(candidates) == size and scores.tolist() == [1.5 * 2.2 / 2.0] * size


def test_a_first_part_of_negative_zero_is_summed_from_zero_as_compiled():
    """The compiled kernel adds each document's first part to 0.0, so a part of -0.0 (an idf of 0 weighted
    negatively) scores 0.0; the numpy kernel, which writes a query's first list without reading the table, too."""
    indptr = np.array([0, 2, 3], dtype=np.int64)
    indices, data = np.array([0, 1, 1], dtype=np.int32), np.array([1, 2, 3], dtype=np.int32)
    case = (indptr, indices, data, np.ones(2), np.array([0, 1]), np.array([0.0, 0.0]), np.array([-1.0, -1.0]))
    for kept in (np.array([True, False]), np.array([False, True])):
        compiled, plain = _run(accumulator, *case, kept), _run(numpy_accumulator, *case, kept)
        assert compiled[2].tobytes() == plain[2].tobytes() == np.zeros(2).tobytes()
