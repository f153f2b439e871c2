"""Webis-ArgQuality-20 and files in its format: premises with a topic, an "is argument" flag and quality scores.

The corpus (Gienapp et al., 2020) is a CSV with a header: `Topic ID`, `Argument ID`, `Discussion ID`, `Premise`,
`Relevance`, `Is Argument?` (True/False), `Rhetorical Quality`, `Logical Quality`, `Dialectical Quality`,
`Text Length`, `Stance`, `Combined Quality`. Quality and relevance are continuous, derived per topic from pairwise
judgments (so centred per topic); a premise that is no argument has -4 for them. Its topics file is a CSV with
`Topic ID` and the query (`Long Query`, else `Short Query`, `Query` or `Title`). Bad input is an InputError naming
the file and the line.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from argrank.core.errors import InputError
from argrank.core.records import parse_float, parse_int, read_utf8

TOPIC, DISCUSSION, ARGUMENT, PREMISE = "Topic ID", "Discussion ID", "Argument ID", "Premise"
RELEVANCE, IS_ARGUMENT, QUALITY = "Relevance", "Is Argument?", "Combined Quality"
COLUMNS = (TOPIC, DISCUSSION, ARGUMENT, PREMISE, RELEVANCE, IS_ARGUMENT, QUALITY)  # those we read; it has more
QUERY_COLUMNS = ("Long Query", "Short Query", "Query", "Title")  # a topics file's query, the first one present
_BOOLEANS = {"true": True, "false": False}


@dataclass(frozen=True, eq=False)
class QualitySet:
    """The premises in file order, column by column: premise i has `topics[i]`, `texts[i]`, …"""

    topics: np.ndarray  # topic ids (int)
    ids: np.ndarray  # "<topic>/<discussion>/<argument>" (str): the corpus repeats argument ids across discussions,
    # and four discussion/argument pairs across topics
    texts: list[str]
    is_argument: np.ndarray  # bool
    quality: np.ndarray  # combined quality
    relevance: np.ndarray

    def __len__(self) -> int:
        return len(self.texts)

    def select(self, rows: np.ndarray) -> QualitySet:
        """The premises at `rows` (positions or a mask), in that order."""
        rows = np.flatnonzero(rows) if rows.dtype == bool else rows
        return QualitySet(
            self.topics[rows], self.ids[rows], [self.texts[i] for i in rows], self.is_argument[rows],
            self.quality[rows], self.relevance[rows],
        )  # fmt: skip


def read_quality_set(path: str | Path) -> QualitySet:
    """Every premise of a Webis-ArgQuality-20-format CSV; InputError for a missing column, a bad number or flag,
    an empty premise, an argument id given twice in one topic, or a file without premises."""
    path = Path(path)
    rows = _records(path, COLUMNS)
    if not rows:
        raise InputError(path, "", "no premises")
    seen: dict[str, int] = {}
    columns: dict[str, list] = {name: [] for name in COLUMNS}
    for number, row in rows:
        where = f"line {number}"
        topic = parse_int(path, number, TOPIC, row[TOPIC].strip())
        argument = f"{topic}/{row[DISCUSSION].strip()}/{row[ARGUMENT].strip()}"
        if argument in seen:
            raise InputError(path, where, f"topic/discussion/argument {argument} is also on line {seen[argument]}")
        seen[argument] = number
        if not row[PREMISE].strip():
            raise InputError(path, where, "empty premise")
        flag = _BOOLEANS.get(row[IS_ARGUMENT].strip().lower())
        if flag is None:
            raise InputError(path, where, f"{IS_ARGUMENT} {row[IS_ARGUMENT]!r} is not True or False")
        columns[TOPIC].append(topic)
        columns[ARGUMENT].append(argument)
        columns[PREMISE].append(row[PREMISE])
        columns[IS_ARGUMENT].append(flag)
        for name in (QUALITY, RELEVANCE):
            columns[name].append(parse_float(path, number, name, row[name].strip()))
    return QualitySet(
        topics=np.array(columns[TOPIC], dtype=np.int64),
        ids=np.array(columns[ARGUMENT], dtype=str),
        texts=columns[PREMISE],
        is_argument=np.array(columns[IS_ARGUMENT], dtype=bool),
        quality=np.array(columns[QUALITY], dtype=np.float64),
        relevance=np.array(columns[RELEVANCE], dtype=np.float64),
    )


def read_quality_topics(path: str | Path) -> dict[int, str]:
    """Topic id → query of a topics CSV (`Topic ID` and one of QUERY_COLUMNS); InputError for a missing column, a
    topic given twice or an empty query."""
    path = Path(path)
    rows = _records(path, (TOPIC,), QUERY_COLUMNS)
    topics: dict[int, str] = {}
    for number, row in rows:
        topic = parse_int(path, number, TOPIC, row[TOPIC].strip())
        query = next(row[name] for name in QUERY_COLUMNS if name in row)
        if topic in topics:
            raise InputError(path, f"line {number}", f"topic {topic} is given twice")
        if not query.strip():
            raise InputError(path, f"line {number}", "empty query")
        topics[topic] = query.strip()
    if not topics:
        raise InputError(path, "", "no topics")
    return topics


def queries_for(quality_set: QualitySet, topics: dict[int, str], topics_path: str | Path) -> dict[int, str]:
    """Each topic of `quality_set` with its query; InputError naming the topics file where one has none."""
    missing = sorted(set(quality_set.topics.tolist()) - set(topics))
    if missing:
        shown = ", ".join(map(str, missing[:5])) + (", …" if len(missing) > 5 else "")
        raise InputError(topics_path, "", f"no query for topic(s) {shown} of the premises")
    return {topic: topics[topic] for topic in sorted(set(quality_set.topics.tolist()))}


def _records(path: Path, needed: tuple[str, ...], one_of: tuple[str, ...] = ()) -> list[tuple[int, dict[str, str]]]:
    """(line number, the `needed` columns and the first of `one_of` the header has) of each record after the
    header; a quoted premise may span lines, and its record is named by its first line. InputError for a missing
    column, a record with another number of fields than the header, or malformed CSV."""
    reader = csv.reader(io.StringIO(read_utf8(path), newline=""), strict=True)
    try:
        header = [name.strip() for name in next(reader, [])]
        if not any(header):
            raise InputError(path, "", "empty file: no header")
        missing = [name for name in needed if name not in header]
        chosen = next((name for name in one_of if name in header), None)
        if one_of and chosen is None:
            missing.append(f"one of {', '.join(one_of)}")
        if missing:
            raise InputError(path, "line 1", f"header lacks column(s) {'; '.join(missing)}")
        at = {name: header.index(name) for name in (*needed, *([chosen] if chosen else []))}
        rows, start = [], reader.line_num + 1
        for fields in reader:
            number, start = start, reader.line_num + 1
            if not any(field.strip() for field in fields):
                continue
            if len(fields) != len(header):
                problem = f"expected {len(header)} comma-separated fields as in the header, found {len(fields)}"
                raise InputError(path, f"line {number}", problem)
            rows.append((number, {name: fields[index] for name, index in at.items()}))
        return rows
    except csv.Error as error:
        raise InputError(path, f"line {reader.line_num}", f"malformed CSV: {error}") from None
