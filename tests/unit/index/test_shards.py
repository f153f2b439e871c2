"""Sharded tokenize, index and rank: the merged statistics and rankings are exactly the unsharded ones."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from argrank.formats.topics import Topic, read_topics
from argrank.index.build import build_index, read_tokens
from argrank.index.shards import shard_batches, shard_rows
from argrank.index.statistics import CollectionStatistics, load_statistics, merge_statistics, save_statistics
from argrank.index.store import Index
from argrank.retrieval.formulations import SHARED_QUERIES, title
from argrank.retrieval.merge import merge_rankings
from argrank.retrieval.registry import make_ranker
from argrank.retrieval.search import rank_topics
from argrank.text.multilingual import make_analyzer
from argrank.text.tokenize import tokenize_table
from argrank.tracks.args.argsme import ingest_argsme
from argrank.tracks.args.layout import corpus_files
from tasks.index import BuildIndex
from tasks.rank import MergeStatistics, RankShard, RankTopics
from tasks.tokenize import TokenizeDocuments

REPO = Path(__file__).resolve().parents[3]
TOKENS = pa.list_(pa.string())
MODELS = [("bm25", {}), ("bm25", {"k1": 0.9, "b": 0.4}), ("dirichlet", {"mu": 1000}), ("dirichlet", {"mu": 50})]


def random_corpus(num_docs: int = 1200, seed: int = 11) -> tuple[list[str], list[list[str]]]:
    """Zipfian documents, some empty, some exact copies of another (equal scores: ties across shards), ids in
    random order with mixed case and non-ASCII letters (pyarrow sorts bytes, and ties go by id)."""
    rng = np.random.default_rng(seed)
    letters = list("abcXYZ09_-éßΩ")
    ids, docs = [], []
    for i in range(num_docs):
        if i % 53 == 0:
            tokens = []
        elif i % 17 == 0 and docs:
            tokens = list(docs[int(rng.integers(len(docs)))])
        else:
            ranks = np.minimum(rng.zipf(1.25, size=int(rng.lognormal(3.0, 0.8))), 2000) - 1
            tokens = [f"t{r}" for r in ranks] + (["common"] if rng.random() < 0.7 else [])
        ids.append("".join(rng.choice(letters, size=6)) + f"-{i}")
        docs.append(tokens)
    return ids, docs


QUERIES = ["t0 t5 t17", "common t3", "t1 t1 t250", "t1999 missing", "t42", "nothing here", "common", "t7 t7 t7 t8"]
TOPICS = [Topic(number=str(n), title=text) for n, text in enumerate(QUERIES, 1)]
WHITESPACE = SimpleNamespace(analyze=str.split)


def sharded(ids: list[str], docs: list[list[str]], shards: int) -> list[Index]:
    bounds = ranges(len(ids), shards)
    return [build_index(pa.array(ids[a:b], pa.string()), pa.array(docs[a:b], TOKENS)) for a, b in bounds]


def ranges(num_rows: int, shards: int) -> list[tuple[int, int]]:
    return [shard_rows(num_rows, shard, shards) for shard in range(shards)]


def assert_same_statistics(merged: CollectionStatistics, index: Index) -> None:
    assert merged.terms.equals(index.terms)  # the same terms in the same (first-occurrence) order
    assert merged.document_frequencies.tolist() == index.document_frequencies.tolist()
    assert merged.collection_frequencies.tolist() == index.collection_frequencies.tolist()
    assert (merged.num_docs, merged.total_length) == (index.num_docs, index.total_length)


def sharded_ranking(indexes, statistics, analyzer, topics, method, params, query, depth) -> pa.Table:
    rankings = []
    for index in indexes:
        ranker = make_ranker(index, method, params, statistics)
        rankings.append(rank_topics(index, analyzer, topics, ranker, query, depth, warn_unmatched=False))
    return merge_rankings(rankings, [topic.number for topic in topics], depth)


def test_shard_rows_split_the_table_into_contiguous_ranges():
    for num_rows in (0, 1, 5, 100, 101):
        for shards in (1, 2, 3, 7, 150):
            bounds = ranges(num_rows, shards)
            assert bounds[0][0] == 0 and bounds[-1][1] == num_rows
            assert all(stop == start for (_, stop), (start, _) in zip(bounds, bounds[1:]))
            assert max(b - a for a, b in bounds) - min(b - a for a, b in bounds) <= 1
    with pytest.raises(ValueError):
        shard_rows(10, 3, 3)


def test_shard_batches_read_only_the_row_groups_they_need(tmp_path):
    path = tmp_path / "docs.parquet"
    pq.write_table(pa.table({"id": [f"d{i:03}" for i in range(50)], "n": list(range(50))}), path, row_group_size=7)
    read_groups = []

    class Spy(pq.ParquetFile):
        def iter_batches(self, *args, row_groups=None, **kwargs):
            read_groups.append(row_groups)
            return super().iter_batches(*args, row_groups=row_groups, **kwargs)

    for shards in (1, 2, 3, 7, 60):
        seen = []
        for shard, (start, stop) in enumerate(ranges(50, shards)):
            read_groups.clear()
            batches = list(shard_batches(Spy(path), shard, shards, ["n"], batch_size=4))
            rows = [n for batch in batches for n in batch.column("n").to_pylist()]
            assert rows == list(range(start, stop))
            assert read_groups == ([list(range(start // 7, (stop - 1) // 7 + 1))] if stop > start else [])
            seen += rows
        assert seen == list(range(50))


@pytest.fixture(scope="module")
def corpus():
    ids, docs = random_corpus()
    return ids, docs, build_index(pa.array(ids), pa.array(docs, TOKENS))


# (documents, shards): more shards than documents leaves some shards empty; on fewer documents, to stay fast.
SPLITS = [(None, 2), (None, 3), (None, 7), (90, 100)]


@pytest.mark.parametrize("size, shards", SPLITS)
def test_merged_statistics_and_rankings_equal_the_unsharded(corpus, size, shards, tmp_path):
    ids, docs, whole = corpus
    if size is not None:
        ids, docs = ids[:size], docs[:size]
        whole = build_index(pa.array(ids), pa.array(docs, TOKENS))
    indexes = sharded(ids, docs, shards)
    assert shards < len(ids) or sum(index.num_docs == 0 for index in indexes) == shards - len(ids)
    save_statistics(merge_statistics(indexes), tmp_path / "statistics.parquet")
    statistics = load_statistics(tmp_path / "statistics.parquet")
    assert_same_statistics(statistics, whole)
    for method, params in MODELS:
        expected = rank_topics(whole, WHITESPACE, TOPICS, make_ranker(whole, method, params), title, 1000)
        for depth in (1000, 10):
            got = sharded_ranking(indexes, statistics, WHITESPACE, TOPICS, method, params, title, depth)
            cut = expected.filter(pc.less_equal(expected.column("rank"), depth))
            assert got.equals(cut), (method, params, depth)  # same documents, order and scores (==, not approx)
        assert expected.num_rows > 0 and "6" not in expected.column("qid").to_pylist()  # "nothing here" finds nothing
    pairs = list(zip(expected.column("qid").to_pylist(), expected.column("score").to_pylist()))
    assert len(set(pairs)) < len(pairs)  # copies of documents tie, so the order of ties across shards is checked too


def test_duplicate_ids_across_shards_are_rejected():
    one = build_index(pa.array(["a", "b"]), pa.array([["x"], ["y"]], TOKENS))
    two = build_index(pa.array(["b"]), pa.array([["z"]], TOKENS))
    with pytest.raises(ValueError, match="not unique"):
        merge_statistics([one, two])


@pytest.fixture(scope="module")
def args_tokens(tmp_path_factory):
    """The embedded args corpus ingested and tokenized unsharded, as the pipeline does."""
    folder = tmp_path_factory.mktemp("args")
    ingest_argsme(corpus_files(REPO / "data" / "args" / "corpus"), folder / "documents.parquet")
    tokenize_table(folder / "documents.parquet", folder / "tokens.parquet", make_analyzer("en"), ["premise"])
    return folder


def test_tokenizing_shards_gives_the_unsharded_token_table_in_pieces(args_tokens):
    whole = [column.to_pylist() for column in read_tokens(args_tokens / "tokens.parquet")]
    pieces = []
    for shard in range(3):
        out = args_tokens / f"tokens-{shard}.parquet"
        tokenize_table(args_tokens / "documents.parquet", out, make_analyzer("en"), ["premise"], shard=shard, shards=3)
        pieces.append([column.to_pylist() for column in read_tokens(out)])
    assert 0 < len(pieces[0][0]) < len(whole[0])
    assert [sum((piece[k] for piece in pieces), []) for k in (0, 1)] == whole


@pytest.mark.parametrize("size, shards", SPLITS)
def test_args_corpus_rankings_are_identical_sharded(args_tokens, size, shards):
    ids, docs = (column.to_pylist()[:size] for column in read_tokens(args_tokens / "tokens.parquet"))
    whole = build_index(pa.array(ids), pa.array(docs, TOKENS))
    indexes = sharded(ids, docs, shards)
    statistics = merge_statistics(indexes)
    assert_same_statistics(statistics, whole)
    analyzer, topics = make_analyzer("en"), read_topics(REPO / "data" / "args" / "topics.xml")
    for method, params in MODELS[::2]:
        for query in SHARED_QUERIES.values():
            expected = rank_topics(whole, analyzer, topics, make_ranker(whole, method, params), query, 1000)
            got = sharded_ranking(indexes, statistics, analyzer, topics, method, params, query, 1000)
            assert expected.num_rows > 0 and got.equals(expected)


def test_shard_parameters_are_checked_and_unsharded_targets_keep_their_names():
    corpus = {"track": "args", "corpus": "c", "language": "en", "fields": ["premise"]}
    with pytest.raises(ValueError, match="shard must be from 0 to 2"):
        TokenizeDocuments(**corpus, shard=3, shards=3)
    with pytest.raises(ValueError, match="shards must be at least 1"):
        MergeStatistics(**corpus, shards=0)
    # Unsharded, the parameters stay out of the targets' names and signatures (caches from before still count).
    assert "shard" not in Path(TokenizeDocuments(**corpus).output().path).name
    assert "shard" not in Path(BuildIndex(**corpus).output().path).name
    assert "shards=3" in Path(BuildIndex(**corpus, shard=1, shards=3).output().path).name
    ranking = RankTopics(**corpus, topics="t.xml", shards=3)
    assert [task.shard for task in ranking.requires()] == [0, 1, 2]
    assert isinstance(ranking.requires()[0], RankShard)
    assert isinstance(RankTopics(**corpus, topics="t.xml").requires()["index"], BuildIndex)
