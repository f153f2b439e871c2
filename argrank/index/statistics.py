"""What ranking models need to know of the whole collection, which one shard's index alone does not hold:
document count, total length and, per term, document and collection frequency.

Sharded, each shard's index is built apart; the statistics are merged from them (one in memory at a time) in the
term order the unsharded index would have, saved as one small Parquet file, and every shard is scored with them,
so its scores are the unsharded index's.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Iterable

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from argrank.core.arrow_arrays import one_array
from argrank.core.atomic import atomic_path
from argrank.core.parquet_file import read_parquet, write_parquet
from argrank.index.store import Index
from argrank.index.vocabulary import Vocabulary

NUM_DOCS, TOTAL_LENGTH = b"num_docs", b"total_length"  # the statistics file's metadata keys


@dataclass(frozen=True, eq=False)
class CollectionStatistics:
    """What scores need to know of the whole collection, which a shard's index alone does not hold.

    Per term, in the order the unsharded index numbers its terms (first occurrence over the documents sorted
    by id): BM25's average idf is a sum in that order, and floating-point sums depend on their order. Query
    terms are looked up here, so a term the collection has but the scored index lacks still counts (query
    likelihood charges every candidate for it).
    """

    terms: pa.Array
    document_frequencies: np.ndarray
    # None in an index's own statistics (of_index): BM25 never needs them, and summing the postings would read
    # the whole memory-mapped matrix; query likelihood then takes them from the index.
    collection_frequencies: np.ndarray | None
    num_docs: int
    total_length: int

    @classmethod
    def of_index(cls, index: Index) -> CollectionStatistics:
        """An unsharded index's own statistics."""
        return cls(
            terms=index.terms,
            document_frequencies=index.document_frequencies,
            collection_frequencies=None,
            num_docs=index.num_docs,
            total_length=index.total_length,
        )

    @cached_property
    def vocabulary(self) -> Vocabulary:
        return Vocabulary(self.terms)


def term_table(index: Index) -> pa.Table:
    """Per term of one shard's index: its id there, the first document (by id) holding it, its df and cf.

    Its first document and its id there place a term in the collection's first-occurrence order: terms first
    met in different documents follow those documents' order, terms first met in the same document (so in the
    same shard) follow their order of first occurrence there, which is the order of their ids in that shard.
    """
    postings = index.postings
    starts = postings.indptr[:-1]
    first = np.minimum.reduceat(postings.indices, starts) if len(starts) else np.empty(0, dtype=np.int32)
    return pa.table(
        {
            "term": index.terms,
            "first_doc": pc.take(index.doc_ids, pa.array(first, type=pa.int64())),
            "local": pa.array(np.arange(len(starts), dtype=np.int64)),
            "df": pa.array(index.document_frequencies.astype(np.int64)),
            "cf": pa.array(index.collection_frequencies.astype(np.int64)),
        }
    )


def merge_statistics(indexes: Iterable[Index]) -> CollectionStatistics:
    """The whole collection's statistics from its shards' indexes (one in memory at a time), in the term order
    the unsharded index would have. Raises ValueError where shards share a document id, as build_index does."""
    parts, ids, num_docs, total_length = [], [], 0, 0
    for index in indexes:
        parts.append(term_table(index))
        ids.append(index.doc_ids)
        num_docs += index.num_docs
        total_length += index.total_length
    all_ids = pa.chunked_array(ids, type=pa.string())
    if len(pc.unique(all_ids)) != len(all_ids):
        raise ValueError("document ids are not unique across shards")
    table = pa.concat_tables(parts)
    order = pc.SortOptions([("first_doc", "ascending"), ("local", "ascending")])
    table = pc.take(table, pc.sort_indices(table, options=order))
    # Sorted so, a term's first row is its first occurrence: encoding numbers terms in the collection's order.
    encoded = pc.dictionary_encode(table.column("term").combine_chunks())
    term_of_row = encoded.indices.to_numpy()
    df = np.zeros(len(encoded.dictionary), dtype=np.int64)
    cf = np.zeros(len(encoded.dictionary), dtype=np.int64)
    np.add.at(df, term_of_row, table.column("df").to_numpy())
    np.add.at(cf, term_of_row, table.column("cf").to_numpy())
    return CollectionStatistics(
        terms=encoded.dictionary,
        document_frequencies=df,
        collection_frequencies=cf,
        num_docs=num_docs,
        total_length=total_length,
    )


def save_statistics(statistics: CollectionStatistics, path: Path) -> None:
    """One Parquet file, atomically: a row per term in collection order, the collection's totals as metadata."""
    table = pa.table(
        {
            "term": statistics.terms,
            "df": pa.array(statistics.document_frequencies, type=pa.int64()),
            "cf": pa.array(statistics.collection_frequencies, type=pa.int64()),
        }
    ).replace_schema_metadata({NUM_DOCS: str(statistics.num_docs), TOTAL_LENGTH: str(statistics.total_length)})
    with atomic_path(path) as tmp:
        write_parquet(table, tmp)


def load_statistics(path: Path) -> CollectionStatistics:
    table = read_parquet(path)
    metadata = table.schema.metadata
    return CollectionStatistics(
        terms=one_array(table.column("term")),
        document_frequencies=table.column("df").to_numpy(),
        collection_frequencies=table.column("cf").to_numpy(),
        num_docs=int(metadata[NUM_DOCS]),
        total_length=int(metadata[TOTAL_LENGTH]),
    )
