"""The perspective corpus as the graph's document table: one row per argument, with its detected language.

Ids become strings like every track's document ids ("1042"); the author's profile stays in its own columns so a
scenario's ranking can be given exactly the columns its rules allow (`perspective_ranking.SCENARIO_COLUMNS`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator, Sequence

import pyarrow as pa

from argrank.core.table_writer import IngestStats, write_rows
from argrank.text.language import LanguageDetector
from argrank.tracks.perspective.data import ISSUES, PROFILE_COLUMNS, Corpus, corpus_file, read_corpus

TEXT = "argument"
LANGUAGE = "language"
SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        (TEXT, pa.string()),
        (LANGUAGE, pa.string()),
        ("stance", pa.string()),
        ("topic", pa.string()),
        *((name, pa.list_(pa.string()) if name == ISSUES else pa.string()) for name in PROFILE_COLUMNS),
    ]
)


def ingest_perspective(location: str | Path, out_path: str | Path, languages: Sequence[str]) -> IngestStats:
    """Write the corpus of a release directory (or its corpus.jsonl) to Parquet at `out_path` (SCHEMA)."""
    corpus = read_corpus(location)
    detected = LanguageDetector(languages).detect_many(corpus.texts)
    return write_rows(_rows(corpus, detected), SCHEMA, out_path, TEXT, "arguments", corpus_file(location))


def _rows(corpus: Corpus, languages: list[str]) -> Iterator[tuple]:
    for i in range(len(corpus)):
        profile = tuple(corpus.profiles[name][i] for name in PROFILE_COLUMNS)
        yield (str(corpus.ids[i]), corpus.texts[i], languages[i], corpus.stance[i], corpus.topic[i], *profile)
