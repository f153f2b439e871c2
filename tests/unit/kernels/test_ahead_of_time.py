"""kernels/ahead_of_time.py and the `kernels` setting: the ahead-of-time build checks its arguments and is named by
its sources and the CPU it targets; `choose` gives numpy's kernels, or numba's (prebuilt where built), and refuses
other names; a scoring block is three eighths of the level-2 cache."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from argrank import kernels
from argrank.index.build import build_index
from argrank.kernels import ahead_of_time, bm25_numba, bm25_numpy, inversion
from argrank.retrieval.registry import make_ranker


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
        with pytest.raises(TypeError, match="argument 2 must be a contiguous 1-d uint16 or int32 array"):
            prebuilt_kernels.impacts(indptr, indices, bad, np.array([0]), np.ones(2), 2.2, out)
    with pytest.raises(TypeError, match="argument 5 must be a number"):
        prebuilt_kernels.impacts(indptr, indices, data, np.array([0]), np.ones(2), "2.2", out)
    with pytest.raises(TypeError, match="impacts takes 7 arguments, not 3"):
        prebuilt_kernels.impacts(indptr, indices, data)


def test_a_build_is_named_by_its_sources_and_replaces_older_builds(tmp_path, monkeypatch):
    """Kernels built from other sources are never loaded: a change to them (or to numpy) names another module."""
    (tmp_path / "kernels_0123456789abcdef.so").write_bytes(b"an older build")
    built = ahead_of_time.build(tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == [built.name]
    assert ahead_of_time.load.__wrapped__(tmp_path) is not None
    changed = tmp_path / "changed.py"
    changed.write_text("# another kernel")
    monkeypatch.setattr(ahead_of_time, "SOURCES", (*ahead_of_time.SOURCES, changed))
    assert ahead_of_time.module_path(tmp_path) != built
    assert ahead_of_time.load.__wrapped__(tmp_path) is None




def test_a_build_for_another_cpu_is_never_loaded(tmp_path, monkeypatch):
    """The build targets this CPU: on a machine with another model or other flags its name differs, so a copied
    tree's build is not loaded there (its processes compile just in time) rather than run foreign instructions."""
    built = ahead_of_time.build(tmp_path)
    assert b"flags" in ahead_of_time.cpu() or not Path("/proc/cpuinfo").exists()
    monkeypatch.setattr(ahead_of_time, "cpu", lambda: b"model name : another CPU\nflags : sse2")
    assert ahead_of_time.module_path(tmp_path) != built
    assert ahead_of_time.load.__wrapped__(tmp_path) is None


@pytest.mark.parametrize(("text", "documents"), [("2048K", 98304), ("1024K", 49152), ("4M", 196608), ("8K", 1024)])
def test_a_block_is_three_eighths_of_the_level_2_cache(tmp_path, monkeypatch, text, documents):
    """top_candidates' block of running scores (8 bytes a document) leaves room in the level-2 cache for the
    postings streaming past it; a cache Linux does not describe counts as 1 MiB."""
    (tmp_path / "level").write_text("2\n")
    (tmp_path / "size").write_text(text + "\n")
    monkeypatch.setattr(kernels, "L2", tmp_path)
    kernels.block_documents.cache_clear()
    try:
        assert kernels.block_documents() == documents
        monkeypatch.setattr(kernels, "L2", tmp_path / "missing")
        kernels.block_documents.cache_clear()
        assert kernels.block_documents() == 49152
    finally:
        kernels.block_documents.cache_clear()


def test_the_prebuilt_inversion_is_numbas(prebuilt_kernels):
    """The ahead-of-time inversion gives numba's postings and term order, with frequencies of either width."""
    rng = np.random.default_rng(5)
    lengths = rng.integers(0, 30, size=200)
    codes = rng.integers(0, 50, size=int(lengths.sum())).astype(np.int32)
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    order = rng.permutation(200).astype(np.int64)
    compiled = inversion.invert(codes, offsets, order, 50)
    built = inversion.invert(codes, offsets, order, 50, prebuilt_kernels)
    for ours, theirs in zip(built, compiled):
        assert ours.dtype == theirs.dtype and ours.tobytes() == theirs.tobytes()
    wide = np.zeros(len(compiled[1]), np.int32)
    term_of = np.full(50, -1, np.int64)
    term_of[compiled[3]] = np.arange(len(compiled[3]))
    prebuilt_kernels.write_postings(codes, offsets, order, term_of, compiled[0], np.empty_like(compiled[1]), wide)
    assert wide.tolist() == compiled[2].tolist()


def test_the_prebuilt_tie_order_is_numbas(prebuilt_kernels):
    rng = np.random.default_rng(5)
    candidates = rng.permutation(4_000)[:1_500].astype(np.int32)
    scores = rng.integers(0, 40, 1_500) / 7.0
    prebuilt, compiled = np.argsort(-scores), np.argsort(-scores)
    assert prebuilt_kernels.order_ties(prebuilt, scores, candidates) == bm25_numba.order_ties(compiled, scores,
                                                                                             candidates) == 0
    assert prebuilt.tolist() == compiled.tolist() == np.lexsort((candidates, -scores)).tolist()
    with pytest.raises(TypeError, match="argument 2 must be a contiguous 1-d int32 array"):
        prebuilt_kernels.order_ties(prebuilt, scores, candidates.astype(np.int64))


def test_the_setting_chooses_numpy_or_numbas_kernels_prebuilt_where_built(monkeypatch, prebuilt_kernels):
    assert kernels.choose("numpy") is bm25_numpy
    monkeypatch.setattr(ahead_of_time, "load", lambda: prebuilt_kernels)
    assert kernels.choose("auto") is prebuilt_kernels and kernels.choose("numba") is prebuilt_kernels
    monkeypatch.setattr(ahead_of_time, "load", lambda: None)
    assert kernels.choose() is bm25_numba and kernels.choose("numba") is bm25_numba
    assert [kernels.name(k) for k in (bm25_numba, bm25_numpy, prebuilt_kernels)] == ["numba", "numpy", "prebuilt"]
    with pytest.raises(ValueError, match="unknown kernels 'cuda' \\(known: auto, numba, numpy\\)"):
        kernels.choose("cuda")


@pytest.mark.parametrize("setting", ["numpy", "numba"])
def test_a_ranker_scores_alike_under_every_setting(setting):
    """The setting changes how BM25 is computed, never what: rankings are byte-identical to the default's."""
    rng = np.random.default_rng(3)
    docs = [[f"t{int(t)}" for t in rng.zipf(1.4, size=rng.integers(1, 40)) if t < 200] for _ in range(300)]
    index = build_index(pa.array([f"d{i:03}" for i in range(300)]), pa.array(docs, type=pa.list_(pa.string())))
    default, chosen = make_ranker(index, "bm25", {"k1": 1.1}), make_ranker(index, "bm25", {"k1": 1.1}, kernels=setting)
    assert chosen.kernels is kernels.choose(setting)
    assert kernels.name(chosen.kernels) in {"numpy": {"numpy"}, "numba": {"numba", "prebuilt"}}[setting]
    for _ in range(12):
        query = index.vocabulary.ids([f"t{int(t)}" for t in rng.integers(1, 30, size=4)])
        for ours, theirs in zip(chosen.top(query, 50), default.top(query, 50)):
            assert ours.tobytes() == theirs.tobytes()
