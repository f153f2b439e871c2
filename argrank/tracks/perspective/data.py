"""The perspective track's release: `corpus.jsonl`, the query files of the three scenarios, and prediction files.

A release directory holds `corpus.jsonl` (one argument per line, with its author's `demographic_profile`),
`baseline-queries/queries_{split}.jsonl` and `perspective-queries/queries_{split}.jsonl` (the same questions with
one `demographic_property` each). Query keys name properties differently from the corpus (`age_bin` is the
corpus's `age`; `important_political_issue` is one entry of `important_political_issues`), hence
QUERY_PROPERTY_TO_CORPUS. Query ids are kept as text whatever their JSON type, so they print as the file has them.
Every reader reports bad input as InputError naming the file and line.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

import numpy as np

from argrank.core.atomic import atomic_write_text
from argrank.core.errors import InputError
from argrank.core.input_file import check_regular
from argrank.core.table_writer import DUPLICATE, warn_dropped
from argrank.formats.json_value import parse_json
from argrank.tracks.perspective.settings import SCENARIOS

CORPUS_FILE = "corpus.jsonl"
SPLITS = ("train", "dev", "test")
QUERY_FOLDERS = {"baseline": "baseline-queries", "explicit": "perspective-queries", "implicit": "perspective-queries"}
STANCES = ("FAVOR", "AGAINST")
ISSUES = "important_political_issues"
PROFILE_COLUMNS = (
    "gender", "age", "residence", "civil_status", "denomination", "education", "political_spectrum", ISSUES,
)  # fmt: skip
QUERY_PROPERTY_TO_CORPUS = {
    "gender": "gender",
    "age_bin": "age",
    "residence": "residence",
    "civil_status": "civil_status",
    "denomination": "denomination",
    "education": "education",
    "political_spectrum": "political_spectrum",
    "important_political_issue": ISSUES,
}
PREDICTION_KEYS = ("relevant_candidates", "retrieved_candidates")  # the released evaluator's key, the task text's
_CANONICAL_INT = re.compile(r"0|-?[1-9][0-9]*")


@dataclass(frozen=True, eq=False)
class Corpus:
    """The arguments in file order, column by column: `ids[i]`, `texts[i]`, `stance[i]`, … describe argument i.

    `profiles` maps each of PROFILE_COLUMNS to a string array, except `important_political_issues`: a list of lists.
    """

    ids: np.ndarray
    texts: list[str]
    stance: np.ndarray
    topic: np.ndarray
    profiles: dict[str, np.ndarray | list[list[str]]]

    def __len__(self) -> int:
        return len(self.ids)

    @cached_property
    def _by_id(self) -> tuple[np.ndarray, np.ndarray]:
        order = np.argsort(self.ids, kind="stable")
        return order, self.ids[order]

    def positions(self, ids: Iterable[int]) -> np.ndarray:
        """Each id's row in the corpus, -1 for an id the corpus lacks (vectorised: a search in the sorted ids)."""
        ids = np.fromiter(ids, dtype=np.int64)
        order, sorted_ids = self._by_id
        if not len(sorted_ids):
            return np.full(len(ids), -1, dtype=np.int64)
        at = np.minimum(np.searchsorted(sorted_ids, ids), len(sorted_ids) - 1)
        return np.where(sorted_ids[at] == ids, order[at], -1)


@dataclass(frozen=True)
class Query:
    """One line of a query file; `relevant_candidates` is None where the file has none (test splits)."""

    query_id: str
    text: str
    relevant_candidates: list[int] | None
    demographic_property: dict[str, str] | None


def query_file(data_dir: str | Path, scenario: str, split: str) -> Path:
    """The queries of a scenario and split in a release directory; InputError where the file is missing."""
    if scenario not in SCENARIOS or split not in SPLITS:
        raise ValueError(f"scenario must be one of {SCENARIOS} and split one of {SPLITS}, got {scenario!r}, {split!r}")
    path = Path(data_dir) / QUERY_FOLDERS[scenario] / f"queries_{split}.jsonl"
    if not path.is_file():
        raise InputError(path, "", f"queries file not found (scenario {scenario}, split {split})")
    return path


def training_files(data_dir: str | Path) -> tuple[Path, Path]:
    """The baseline and the perspective training queries, which every ranking learns from
    (ranking.training_from_queries)."""
    return query_file(data_dir, "baseline", "train"), query_file(data_dir, "explicit", "train")


def corpus_file(location: str | Path) -> Path:
    """`corpus.jsonl` of a release directory, or `location` itself where it is the file."""
    path = Path(location)
    return path / CORPUS_FILE if path.is_dir() else path


def read_corpus(path: str | Path) -> Corpus:
    """The arguments of `corpus.jsonl` (or of the release directory holding it), read line by line.

    Of arguments sharing an id the first wins, with a warning, as in every track's ingest (`table_writer`)."""
    path = corpus_file(path)
    columns: dict[str, list] = {name: [] for name in ("ids", "texts", "stance", "topic", *PROFILE_COLUMNS)}
    seen: set[int] = set()
    repeated: list[str] = []
    for number, record in _json_lines(path, "arguments"):
        argument_id = _get(path, f"line {number}", record, "argument_id", _is_int, "an integer")
        where = f"line {number} (argument {argument_id})"
        argument = list(_argument(path, where, record))  # checked even where dropped: a bad line is named
        if argument_id in seen:
            repeated.append(f"{argument_id} (line {number})")
            continue
        seen.add(argument_id)
        for name, value in argument:
            columns[name].append(value)
        columns["ids"].append(argument_id)
    if repeated:
        warn_dropped(path, len(repeated), "arguments", DUPLICATE, repeated)
    profiles = {name: np.array(columns[name], dtype=str) for name in PROFILE_COLUMNS if name != ISSUES}
    return Corpus(
        ids=np.array(columns["ids"], dtype=np.int64),
        texts=columns["texts"],
        stance=np.array(columns["stance"], dtype=str),
        topic=np.array(columns["topic"], dtype=str),
        profiles={name: profiles.get(name, columns[name]) for name in PROFILE_COLUMNS},
    )


def _argument(path: Path, where: str, record: dict) -> Iterator[tuple[str, Any]]:
    """(column, value) of one argument's fields besides its id, each checked."""
    yield "texts", _get(path, where, record, "argument", _is_str, "a string")
    yield "stance", _get(path, where, record, "stance", lambda value: value in STANCES, " or ".join(STANCES))
    yield "topic", _get(path, where, record, "topic", _is_str, "a string")
    profile = _get(path, where, record, "demographic_profile", lambda value: isinstance(value, dict), "an object")
    for name in PROFILE_COLUMNS:
        if name == ISSUES:
            yield name, _get(path, where, profile, name, _is_str_list, "a list of strings", "demographic_profile.")
        else:
            yield name, _get(path, where, profile, name, _is_str, "a string", "demographic_profile.")


def read_queries(path: str | Path, corpus: Corpus | None = None) -> list[Query]:
    """The queries in file order; with `corpus`, a relevant id it lacks is an error."""
    path = Path(path)
    queries: list[Query] = []
    first_line: dict[str, int] = {}
    for number, record in _json_lines(path, "queries"):
        query_id = _query_id(path, number, record, first_line)
        where = f"line {number} (query {query_id})"
        text = _get(path, where, record, "text", _is_str, "a string")
        relevant = _optional(path, where, record, "relevant_candidates", _is_int_list, "a list of integers")
        if relevant is not None and corpus is not None:
            _check_known(path, where, corpus, relevant, "relevant argument")
        queries.append(Query(query_id, text, relevant, _property(path, where, record)))
    return queries


def _property(path: Path, where: str, record: dict) -> dict[str, str] | None:
    """A query's `demographic_property`: absent, or one known key with a string value."""
    value = _optional(path, where, record, "demographic_property", lambda value: isinstance(value, dict), "an object")
    if value is None:
        return None
    if len(value) != 1 or next(iter(value)) not in QUERY_PROPERTY_TO_CORPUS:
        raise InputError(
            path, where, f'"demographic_property" must have exactly one key of {", ".join(QUERY_PROPERTY_TO_CORPUS)}'
        )
    key, text = next(iter(value.items()))
    if not _is_str(text):
        raise InputError(path, where, f'"demographic_property.{key}" is not a string')
    return {key: text}


def has_property(corpus: Corpus, key: str, value: str) -> np.ndarray:
    """Which arguments' authors have the query property `key` = `value` (an issue: listed among theirs)."""
    column = corpus.profiles[QUERY_PROPERTY_TO_CORPUS[key]]
    if key == "important_political_issue":
        return np.fromiter((value in issues for issues in column), dtype=bool, count=len(corpus))
    return column == value


def read_predictions(path: str | Path, corpus: Corpus | None = None) -> dict[str, list[int]]:
    """query id → its ranked argument ids, as given; an id twice in one list is an error (a ranking shows an
    argument once), and with `corpus`, an id it lacks."""
    path = Path(path)
    predictions: dict[str, list[int]] = {}
    first_line: dict[str, int] = {}
    for number, record in _json_lines(path, "predictions"):
        query_id = _query_id(path, number, record, first_line)
        where = f"line {number} (query {query_id})"
        keys = [key for key in PREDICTION_KEYS if key in record]
        if len(keys) != 1:
            raise InputError(path, where, f'expected one of "{PREDICTION_KEYS[0]}" or "{PREDICTION_KEYS[1]}"')
        ids = _get(path, where, record, keys[0], _is_int_list, "a list of integers")
        _check_unique(path, where, ids)
        if corpus is not None:
            _check_known(path, where, corpus, ids, "argument")
        predictions[query_id] = ids
    return predictions


def write_predictions(path: str | Path, predictions: dict[str, list[int]]) -> None:
    """One compact JSON line per query in the given order, under the key the released evaluator reads.

    The released evaluator pairs predictions with queries by line order, so callers pass them in query-file order.
    Ids that read as plain integers are written as JSON integers again, as the release writes them.
    """
    lines = (
        json.dumps({"query_id": _json_id(query_id), PREDICTION_KEYS[0]: [int(i) for i in ids]}, separators=(",", ":"))
        for query_id, ids in predictions.items()
    )
    atomic_write_text(path, "".join(f"{line}\n" for line in lines))


def _json_id(query_id: str) -> int | str:
    """An id read as a JSON integer is written as one (it fits an int64); any other stays a string."""
    if _CANONICAL_INT.fullmatch(query_id) and len(query_id) <= 19 and _is_int(int(query_id)):
        return int(query_id)
    return query_id


def _query_id(path: Path, number: int, record: dict, first_line: dict[str, int]) -> str:
    """A line's `query_id` as text, not repeating an earlier line's."""
    value = _get(path, f"line {number}", record, "query_id", lambda v: _is_int(v) or (_is_str(v) and v != ""), "an id")
    query_id = str(value)
    if query_id in first_line:
        raise InputError(path, f"line {number}", f"query_id {query_id} repeats line {first_line[query_id]}")
    first_line[query_id] = number
    return query_id


def _check_unique(path: Path, where: str, ids: list[int]) -> None:
    first: dict[int, int] = {}
    for rank, argument_id in enumerate(ids, start=1):
        if first.setdefault(argument_id, rank) != rank:
            twice = f"argument {argument_id} is listed twice (ranks {first[argument_id]} and {rank})"
            raise InputError(path, where, twice)


def _check_known(path: Path, where: str, corpus: Corpus, ids: list[int], what: str) -> None:
    unknown = corpus.positions(ids) < 0
    if unknown.any():
        raise InputError(path, where, f"{what} {ids[int(np.argmax(unknown))]} is not in the corpus")


def _json_lines(path: Path, what: str) -> Iterator[tuple[int, dict]]:
    """(line number, object) of each non-blank line, streamed; InputError for an unreadable or empty file."""
    check_regular(path)
    try:
        handle = open(path, "rb")
    except OSError as error:
        raise InputError(path, "", f"cannot read: {error.strerror}") from None
    found = False
    with handle:
        for number, line in enumerate(handle, start=1):
            if line.strip():
                found = True
                yield number, _object(path, number, line)
    if not found:
        raise InputError(path, "", f"empty file: no {what}")


def _object(path: Path, number: int, line: bytes) -> dict:
    value = parse_json(line, path, f"line {number}")
    if not isinstance(value, dict):
        raise InputError(path, f"line {number}", "not a JSON object")
    return value


def _get(
    path: Path, where: str, record: dict, key: str, check: Callable[[Any], bool], expected: str, prefix: str = ""
) -> Any:
    """`record[key]` where it passes `check`; else InputError saying what was expected."""
    if key not in record or not check(record[key]):
        raise InputError(path, where, f'"{prefix}{key}" missing or not {expected}')
    return record[key]


def _optional(path: Path, where: str, record: dict, key: str, check: Callable[[Any], bool], expected: str) -> Any:
    """`record[key]`, None where absent or null."""
    return None if record.get(key) is None else _get(path, where, record, key, check, expected)


def _is_int(value: Any) -> bool:
    """A JSON integer (not a boolean) that fits an int64."""
    return type(value) is int and -(2**63) <= value < 2**63


def _is_str(value: Any) -> bool:
    return isinstance(value, str)


def _is_int_list(value: Any) -> bool:
    if not isinstance(value, list) or not all(type(item) is int for item in value):
        return False
    return not value or (_is_int(min(value)) and _is_int(max(value)))


def _is_str_list(value: Any) -> bool:
    return isinstance(value, list) and all(_is_str(item) for item in value)


def judged(data_dir: str | Path, scenario: str, split: str) -> bool:
    """Whether a split's queries carry judgments (test splits do not), so it can be evaluated."""
    return all(query.relevant_candidates is not None for query in read_queries(query_file(data_dir, scenario, split)))
