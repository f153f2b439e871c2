"""BEIR's files as ir_datasets caches them: a collection's downloaded zip holding `<name>/corpus.jsonl` (one
`{"_id", "title", "text", "metadata"}` per line), its queries copied out to `queries.json` (JSON lines of `_id`,
`text`, `metadata`) and its judgments to `<split>.qrels` (tab-separated under a `query-id corpus-id score` header).

The corpus is read from inside the zip, line by line: extracting it would double hundreds of megabytes on disk.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from argrank.core.errors import InputError
from argrank.core.input_file import check_regular
from argrank.formats.json_value import parse_json

CORPUS = "corpus.jsonl"
QRELS_HEADER = ("query-id", "corpus-id", "score")


@dataclass(frozen=True)
class BeirDocument:
    doc_id: str
    title: str
    text: str
    metadata: dict[str, Any]


def _json_object(line: str, path: str | Path, where: str) -> dict[str, Any]:
    """One JSON-lines record as an object with a non-empty string `_id`; InputError at `where` otherwise."""
    value = parse_json(line.rstrip(), path, where)
    if not isinstance(value, dict):
        raise InputError(path, where, "not a JSON object")
    if not isinstance(value.get("_id"), str) or not value["_id"]:
        raise InputError(path, where, 'no "_id" (or not a non-empty string)')
    if not isinstance(value.get("metadata", {}), dict):
        raise InputError(path, where, '"metadata" is not an object')
    return value


def corpus_member(archive: zipfile.ZipFile, path: Path) -> str:
    """The one `<name>/corpus.jsonl` of a BEIR zip."""
    members = [name for name in archive.namelist() if name.count("/") == 1 and name.endswith("/" + CORPUS)]
    if len(members) != 1:
        raise InputError(path, "", f"expected one <name>/{CORPUS} in the zip, found {len(members)}")
    return members[0]


def read_corpus(path: str | Path) -> Iterator[BeirDocument]:
    """The documents of a BEIR zip in file order, streamed from its corpus member; InputError names the zip, the
    member and the line of a line that is not a document."""
    path = Path(path)
    check_regular(path)
    try:
        archive = zipfile.ZipFile(path)
    except (OSError, zipfile.BadZipFile) as error:
        raise InputError(path, "", f"cannot read as a zip: {error}") from None
    with archive:
        member = corpus_member(archive, path)
        with archive.open(member) as raw, io.TextIOWrapper(raw, encoding="utf-8", newline="\n") as lines:
            number = 0
            try:
                for number, line in enumerate(lines, start=1):
                    if line.strip():
                        yield _document(line, path, f"{member}, line {number}")
            except UnicodeDecodeError:
                raise InputError(path, f"{member}, line {number + 1}", "not valid UTF-8") from None


def _document(line: str, path: Path, where: str) -> BeirDocument:
    value = _json_object(line, path, where)
    for key in ("title", "text"):
        if not isinstance(value.get(key, ""), str):
            raise InputError(path, where, f'"{key}" is not a string')
    return BeirDocument(value["_id"], value.get("title", ""), value.get("text", ""), value.get("metadata", {}))
