"""The args track's corpus from BEIR's Touché collection (`beir/webis-touche2020/v2`): its zip's documents to the
Parquet table the args.me ingest writes, so every later stage reads the two alike. A BEIR document is an args.me
argument reduced to its conclusion (title), premise (text) and, in its metadata, stance and source URL; its
debate portal is not kept, so `source` is left empty."""

from __future__ import annotations

from pathlib import Path

from argrank.core.table_writer import IngestStats, write_rows
from argrank.formats.beir import BeirDocument, read_corpus
from argrank.tracks.args.argsme import CONTEXT_COLUMNS, SCHEMA


def ingest_beir(zip_path: str | Path, out_path: str | Path, batch_size: int = 10_000) -> IngestStats:
    """Write the documents of the BEIR zip at `zip_path`, in order, to Parquet at `out_path` (argsme.SCHEMA), with
    the args.me ingest's policies (blank premises dropped, the first of a repeated id kept)."""
    rows = (_to_row(document) for document in read_corpus(zip_path))
    return write_rows(rows, SCHEMA, out_path, "premise", "arguments", zip_path, batch_size=batch_size)


def _to_row(document: BeirDocument) -> tuple:
    def text(key: str) -> str | None:
        value = document.metadata.get(key)
        return value if isinstance(value, str) and value else None

    context = [text("url") if column == "source_url" else None for _, column in CONTEXT_COLUMNS]
    return (document.doc_id, document.title, document.text, text("stance"), None, *context)

