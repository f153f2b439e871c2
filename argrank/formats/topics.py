"""Touché topics XML: `<topics><topic><number/><title/>[<description/><narrative/>]…</topic>…</topics>`,
or the image track's `queries.jsonl`: one `{"qid": "34", "query": "…"}` per line (the query is the title), or BEIR's
queries as ir_datasets caches them (`queries.json`): one `{"_id", "text", "metadata"}` per line, the metadata's
description and narrative kept where given.

Years differ (2020 has descriptions and narratives, 2021 titles only, later tracks add elements such as
`<objects>`), so the known fields are optional and any other child is kept by name in `fields`.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable
from xml.parsers.expat import ErrorString

from argrank.core.errors import InputError
from argrank.core.input_file import check_regular
from argrank.core.records import read_utf8
from argrank.formats.json_value import parse_json

KNOWN = ("number", "title", "description", "narrative")
# Topics one file may hold: Touché's have 50 to 100, the perspective release 1,611 queries. A million took over 20
# minutes to analyse before ranking began; past this bound the file is refused, not read on.
MAX_TOPICS = 100_000


@dataclass(frozen=True)
class Topic:
    """One topic; `number` is canonical ("7", not "07") so it matches qrels and run files."""

    number: str
    title: str
    description: str | None = None
    narrative: str | None = None
    fields: dict[str, str] = field(default_factory=dict, hash=False)


def read_topics(path: str | Path) -> list[Topic]:
    """All topics of a topics file (XML, or JSON lines if named `*.jsonl` or `*.json`), in file order; any
    malformed, missing or repeated part raises InputError."""
    path = Path(path)
    check_regular(path)
    if path.suffix in (".jsonl", ".json"):
        return _read_jsonl(path)
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as error:
        line, column = error.position
        raise InputError(path, f"line {line}, column {column + 1}", f"invalid XML: {ErrorString(error.code)}") from None
    except OSError as error:
        raise InputError(path, "", f"cannot read: {error.strerror}") from None
    if root.tag != "topics":
        raise InputError(path, "root", f"expected <topics>, found <{root.tag}>")
    if len(root) > MAX_TOPICS:
        raise InputError(path, "root", _too_many(len(root)))
    topics: list[Topic] = []
    first_seen: dict[str, int] = {}
    for position, element in enumerate(root, start=1):
        where = f"topic #{position}"
        if element.tag != "topic":
            raise InputError(path, where, f"expected <topic>, found <{element.tag}>")
        topic = _read_topic(element, path, where)
        if topic.number in first_seen:
            raise InputError(path, where, f"number {topic.number} repeats topic #{first_seen[topic.number]}")
        first_seen[topic.number] = position
        topics.append(topic)
    if not topics:
        raise InputError(path, "", "no <topic> elements")
    return topics


def _read_jsonl(path: Path) -> list[Topic]:
    """Topics from `{"qid", "query"}` or BEIR's `{"_id", "text"}` lines; blank lines are skipped."""
    topics: list[Topic] = []
    first_seen: dict[str, int] = {}
    for number, line in enumerate(read_utf8(path).split("\n"), start=1):
        if not line.strip():
            continue
        if len(topics) == MAX_TOPICS:
            raise InputError(path, f"line {number}", _too_many(MAX_TOPICS + 1, "at least "))
        topic = _jsonl_topic(line, path, f"line {number}")
        if topic.number in first_seen:
            raise InputError(path, f"line {number}", f"qid {topic.number} repeats line {first_seen[topic.number]}")
        first_seen[topic.number] = number
        topics.append(topic)
    if not topics:
        raise InputError(path, "", "no topics")
    return topics


def _too_many(count: int, bound: str = "") -> str:
    return f"{bound}{count:,} topics; a topics file holds at most {MAX_TOPICS:,}: split it, or rank a sample"


def _jsonl_topic(line: str, path: Path, where: str) -> Topic:
    value = parse_json(line, path, where)
    if not isinstance(value, dict):
        raise InputError(path, where, "not a JSON object")
    beir = "_id" in value
    id_key, query_key = ("_id", "text") if beir else ("qid", "query")
    missing = [key for key in (id_key, query_key) if key not in value]
    if missing:
        raise InputError(path, where, f"missing {' and '.join(repr(key) for key in missing)}")
    qid, query = value[id_key], value[query_key]
    if isinstance(qid, int) and not isinstance(qid, bool):
        qid = str(qid)
    if not isinstance(qid, str) or not re.fullmatch(r"[0-9]+", qid.strip()):
        raise InputError(path, where, f"{id_key} {qid!r} is not a non-negative integer")
    if not isinstance(query, str) or not query.strip():
        raise InputError(path, where, f"{query_key} {query!r} is empty or not a string")
    metadata = value.get("metadata", {}) if beir else {}
    if not isinstance(metadata, dict):
        raise InputError(path, where, '"metadata" is not an object')
    given = {key: metadata[key].strip() for key in ("description", "narrative") if isinstance(metadata.get(key), str)}
    return Topic(number=_canonical(qid.strip()), title=query.strip(), **{key: text for key, text in given.items() if text})


def _read_topic(element: ET.Element, path: Path, where: str) -> Topic:
    values: dict[str, str] = {}
    for child in element:
        if child.tag in values:
            raise InputError(path, where, f"more than one <{child.tag}>")
        if len(child):
            raise InputError(path, where, f"<{child.tag}> holds elements; only text is expected")
        values[child.tag] = (child.text or "").strip()
    for required in ("number", "title"):
        if not values.get(required):
            raise InputError(path, where, f"<{required}> missing or empty")
    number = values["number"]
    if not re.fullmatch(r"[0-9]+", number):
        raise InputError(path, where, f"number {number!r} is not an integer")
    return Topic(
        number=_canonical(number),
        title=values["title"],
        description=values.get("description") or None,
        narrative=values.get("narrative") or None,
        fields={name: text for name, text in values.items() if name not in KNOWN},
    )


def _canonical(digits: str) -> str:
    """A topic number without leading zeros ("007" is topic 7), as text: int() refuses more than 4,300 digits."""
    return digits.lstrip("0") or "0"


def topic_order(topics: Iterable[str]) -> list[str]:
    """Topic ids sorted numerically ("2" before "10") when all are integers, else as strings."""
    topics = list(topics)
    if all(topic.isascii() and topic.isdigit() for topic in topics):
        return sorted(topics, key=lambda topic: (len(_canonical(topic)), _canonical(topic), topic))
    return sorted(topics)
