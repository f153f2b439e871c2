"""Our token table and analysed queries in the forms each library takes, so every peer ranks exactly our tokens."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path


def load_tokens(path: str):
    """(ids, tokens) of a token table in table (ingest) order, read as BuildIndex reads it: per chunk, each
    distinct term string once (argrank.index.build.read_tokens)."""
    from argrank.index.build import read_tokens

    return read_tokens(path)


def load_ids(path: str):
    """The ids of a token table, in table order, without its tokens: what a peer's search stage maps its hits to."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    return pq.read_table(path, columns=["id"]).column("id").cast(pa.string()).combine_chunks()


def in_index_order(path: str, limit: int | None = None):
    """The documents in our index's column order (sorted by id, as `build_index` does), the first `limit` kept, as
    whole Arrow arrays of plain strings."""
    import pyarrow as pa
    import pyarrow.compute as pc

    from argrank.index.build import read_tokens

    ids, tokens = read_tokens(path)
    tokens = tokens.cast(pa.list_(pa.string())).combine_chunks()
    order = pc.sort_indices(ids)
    if limit is not None:
        order = order.slice(0, limit)
    return ids.take(order), tokens.take(order)


def _chunks(tokens) -> list:
    import pyarrow as pa

    return tokens.chunks if isinstance(tokens, pa.ChunkedArray) else [tokens]


def _dictionary_coded(chunk):
    """A chunk's tokens as one dictionary array: read_tokens' chunks already are, plain strings are encoded."""
    import pyarrow as pa
    import pyarrow.compute as pc

    values = chunk.flatten()
    return values if pa.types.is_dictionary(values.type) else pc.dictionary_encode(values)


def _python_documents(tokens, term_object: Callable[[str], object], batch: int = 20_000) -> list[list]:
    """Arrow token lists (a list array, or read_tokens' chunks of dictionary-coded lists) to Python lists of
    `term_object(term)`: equal terms share one object, so a token costs one 8-byte pointer."""
    documents: list[list] = []
    for chunk in _chunks(tokens):
        values = _dictionary_coded(chunk)
        objects = [term_object(term) for term in values.dictionary.to_pylist()]
        codes = values.indices.to_numpy(zero_copy_only=False)
        offsets = chunk.offsets.to_numpy()
        offsets = offsets - offsets[0]
        for first in range(0, len(chunk), batch):  # in batches: the flat list of one batch is the only transient
            bounds = offsets[first : first + batch + 1]
            flat = list(map(objects.__getitem__, codes[bounds[0] : bounds[-1]].tolist()))
            local = (bounds - bounds[0]).tolist()
            documents.extend(flat[s:e] for s, e in zip(local[:-1], local[1:]))
    return documents


def python_token_lists(tokens) -> list[list[str]]:
    """Python lists of str; equal terms share one str object."""
    strings: dict[str, str] = {}
    return _python_documents(tokens, lambda term: strings.setdefault(term, term))


def python_token_ids(tokens) -> tuple[list[list[int]], dict[str, int]]:
    """Python lists of term ids (equal ids share one int object, as bm25s's own tokenizer's dict lookups give) and
    the term → id map."""
    vocabulary: dict[str, int] = {}
    return _python_documents(tokens, lambda term: vocabulary.setdefault(term, len(vocabulary))), vocabulary


def joined_texts(tokens) -> list[str]:
    """One str per document: its tokens joined by single spaces, for a library that tokenizes text itself on
    whitespace. A term holding whitespace would be split there, so it is refused rather than silently changed."""
    import pyarrow as pa
    import pyarrow.compute as pc

    texts: list[str] = []
    for chunk in _chunks(tokens):
        values = _dictionary_coded(chunk)
        spaced = pc.match_substring_regex(values.dictionary, r"\s")
        if pc.any(spaced).as_py():
            example = values.dictionary.filter(spaced)[0].as_py()
            raise ValueError(f"term {example!r} holds whitespace: joined by spaces it would become several terms")
        decoded = values.dictionary.take(values.indices)
        lists = pa.ListArray.from_arrays(pc.subtract(chunk.offsets, chunk.offsets[0]), decoded)
        texts.extend(pc.binary_join(lists, " ").to_pylist())
    return texts


def read_queries(path: str) -> list[dict]:
    """The rank stage's analysed queries: [{"number": topic, "tokens": [...]}, ...]."""
    return json.loads(Path(path).read_text(encoding="utf-8"))
