"""The token table the tokenize stage writes and the index stage reads: per document its id and its index terms.

The lists hold term codes (int32, numbered by first occurrence in the table, so that the same rows are the same
bytes whatever else the process analysed), and the file's metadata the terms they index (TERMS_KEY, a JSON list): the
index stage works on codes, so a table of strings would make the analyzer build every token's string, Parquet
hash it again and the index stage code it once more, all for nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa

from argrank.core.errors import InputError

TOKENS_SCHEMA = pa.schema([("id", pa.string()), ("tokens", pa.list_(pa.int32()))])
TERMS_KEY = "argrank.terms"  # the metadata key of the terms the codes index
TOKENS_FORMAT = 2  # bumped when the layout changes, so token tables cached in the old one are rebuilt


def read_terms(path: str | Path, metadata: dict[bytes, bytes] | None) -> pa.Array:
    """The terms a token table's codes index, from its file metadata; InputError for a file without them."""
    raw = (metadata or {}).get(TERMS_KEY.encode())
    if raw is None:
        raise InputError(path, "", f"not a token table of format {TOKENS_FORMAT} (no {TERMS_KEY!r} in its metadata)")
    return pa.array(json.loads(raw), type=pa.string())
