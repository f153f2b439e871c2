"""A researcher's step (a re-ranker or a query rewriter) called from its task: loaded as the runs file found it,
called, its result checked; every failure one line naming the run and the step (the plug-in's traceback in the log)
and nothing cached.

The call runs in a forked child process, so that nothing the plug-in does ends or hangs the build unsaid: an
exception of any kind (SystemExit and KeyboardInterrupt too), `os._exit`, a signal, or running past luigi.cfg's
`[argrank] step_timeout` (the child is then killed) each fail the stage in one line. Its result comes back pickled.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, TypeVar

import pyarrow as pa
import pyarrow.compute as pc

from argrank.core.document_texts import documents_by_id
from argrank.core.errors import InputError
from argrank.formats.topics import read_topics
from argrank.retrieval.steps import Step, candidates, load
from argrank.tracks.registry import track as registered
from tasks.base import Settings, log

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
    """What the step returns, called in a child process (module docstring); InputError naming the step for whatever
    it raises (its traceback logged), for a child that ends without a result, and for one past the time limit."""
    limit = float(Settings().step_timeout)
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(sender, function, where, arguments, keywords), daemon=True)
    child.start()
    sender.close()
    try:
        if not receiver.poll(limit):
            child.kill()
            raise InputError(step.source or step.use, where, f"ran past the step time limit, {limit:g} s ([argrank] "
                             "step_timeout in luigi.cfg): stopped")  # fmt: skip
        try:
            outcome, value = receiver.recv()
        except (EOFError, OSError):
            child.join()
            raise InputError(step.source or step.use, where, f"ended its process without a result ({_ended(child)})"
                             ) from None  # fmt: skip
    finally:
        receiver.close()
        child.join(timeout=5)
        if child.is_alive():
            child.kill()
    if outcome == "raised":
        raise InputError(step.source or step.use, where, f"raised {value}")
    return value


def _child(sender: Connection, function: Callable[..., Any], where: str, arguments: tuple, keywords: dict) -> None:
    """The step's call in the child: its result or what it raised sent back, then the child ends at once (no
    clean-up of the parent's that it inherited runs twice)."""
    try:
        try:
            result: tuple[str, Any] = ("returned", function(*arguments, **keywords))
        except BaseException as error:  # noqa: BLE001 (SystemExit and KeyboardInterrupt too: one line, not an exit)
            log.exception("%s raised", where)
            result = ("raised", f"{type(error).__name__}: {error}")
        try:
            sender.send(result)
        except Exception as error:  # noqa: BLE001 (a result pickle cannot carry)
            sender.send(("raised", f"a result that cannot be passed back ({type(error).__name__}: {error})"))
    finally:
        os._exit(0)


def _ended(child: multiprocessing.process.BaseProcess) -> str:
    """How a child that sent nothing ended: its exit status, or the signal that killed it."""
    code = child.exitcode
    if code is not None and code < 0:
        return f"killed by {signal.Signals(-code).name}"
    return f"exit status {code}"


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
