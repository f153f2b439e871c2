"""A researcher's step (a re-ranker or a query rewriter) called from its task: loaded as the runs file found it,
called, its result checked; every failure one line naming the run and the step (the plug-in's traceback in the log)
and nothing cached."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pyarrow as pa
import pyarrow.compute as pc

from argrank.core.document_texts import documents_by_id
from argrank.core.errors import InputError
from argrank.formats.topics import read_topics
from argrank.retrieval.steps import Step, candidates, load
from argrank.tracks.registry import track as registered
from tasks.base import log

T = TypeVar("T")


def loaded(step: Step, group: str, where: str) -> Callable[..., Any]:
    """The step's callable; InputError where it is gone or its code changed since the runs file was read."""
    try:
        function, now = load(step, group)
    except ValueError as error:
        raise InputError(step.source or step.use, where, str(error)) from None
    if now != step.version:
        raise InputError(step.source or step.use, where, "its code changed after the runs file was read: run again")
    return function


def called(function: Callable[..., Any], step: Step, where: str, *arguments: Any, **keywords: Any) -> Any:
    """What the step returns; InputError (its traceback logged) for whatever it raises."""
    try:
        return function(*arguments, **keywords)
    except Exception as error:  # noqa: BLE001 (whatever the plug-in raises: its traceback to the log, one line out)
        log.exception("%s raised", where)
        raise InputError(step.source or step.use, where, f"raised {type(error).__name__}: {error}") from None


def checked(check: Callable[[], T], step: Step, where: str) -> T:
    """`check()`, its ValueError (what is wrong with the step's result) an InputError naming the step."""
    try:
        return check()
    except ValueError as error:
        raise InputError(step.source or step.use, where, str(error)) from None


def topic_texts(track: str, query: str, topics: str | Path) -> dict[str, str]:
    """Each topic's text as the run formulates it (`query`, a formulation of the track)."""
    formulation = registered(track).queries[query]
    return {topic.number: formulation(topic) for topic in read_topics(topics)}


def candidate_table(ranking: pa.Table, depth: int, texts: dict[str, str], documents: str | Path,
                    fields: Sequence[str]) -> pa.Table:  # fmt: skip
    """Each topic's top `depth` documents of `ranking` as a step sees them (retrieval.steps.candidates), their
    texts read from the ingested `documents`."""
    top = ranking.filter(pc.less_equal(ranking.column("rank"), depth))
    found = documents_by_id(documents, set(top.column("doc").to_pylist()))
    return candidates(ranking, depth, texts, found, list(fields))
