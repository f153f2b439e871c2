"""A researcher's own re-ranker as a step of a run: found by name, called with a table of candidates, its scores
checked and turned into a new order. Query rewriters (retrieval.rewriting) are found and versioned the same way.

A run's `rerank:` list names each step's `use`: `module:callable` (a module beside the runs file, or one the
environment can import) or a name another distribution registers under the entry-point group `argrank.rerankers`.
The callable gets one Arrow table of each topic's top `depth` candidates (CANDIDATE_COLUMNS, then every column of
the track's documents) and the step's `params` as keyword arguments, and returns one score per row, in row order.
The top is then ordered by those scores (ties by document id) above the rest, whose order stays.

A plug-in may declare its parameters as attributes of the callable: `defaults` (name → value) and `ranges` (name →
core.params.Range); the runs file's values are then checked against them when it is read.

A step's code version, which names its result in the cache: for a module beside the runs file, the SHA-256 of that
module's file and of every other `.py` file in its folder (the helpers it may import from there: editing one
recomputes the step); for one imported from the environment, of its file; for an installed entry point, its
distribution's name and version. `use` is `module:callable` with a dotted module name and an identifier: a path, a
relative or an empty name is refused when the runs file is read.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from argrank.core.entry_point_groups import entry_point_group
from argrank.core.params import checked_params

GROUP = "argrank.rerankers"  # the entry-point group of installed re-rankers
REWRITERS = "argrank.rewriters"  # ... and of installed query rewriters
KINDS = {GROUP: "re-ranker", REWRITERS: "query rewriter"}
FEEDBACK = "candidates"  # the keyword argument through which a query rewriter asks for the first ranking's top
DEFAULT_DEPTH = 100  # candidates a step re-scores per topic, unless it says
QUALITY_STEP = "quality"  # the built-in re-rankers: argument quality (quality.rerank.step_scores) ...
LTR_STEP = "ltr"  # ... and learning to rank (quality.ltr)
BUILT_IN = "built-in"  # a built-in step's code version: argrank's own, which its inputs' digests cover
CANDIDATE_COLUMNS = ("topic", "query", "doc", "rank", "score", "text")


@dataclass(frozen=True)
class Step:
    """One re-ranking (or query-rewriting) step of a run: what it uses, how deep, with which parameters; `version`
    is its code's (the distribution's version, or the SHA-256 of the module's source), `source` the module file it
    is loaded from ("" where it is imported by name)."""

    use: str
    depth: int = DEFAULT_DEPTH
    params: Mapping[str, Any] = field(default_factory=dict)
    version: str = ""
    source: str = ""
    feedback: bool = False  # a query rewriter's: whether it takes the first ranking's candidates

    def key(self) -> dict[str, Any]:
        """What names the step's result in the cache: not where its module lies."""
        return {"use": self.use, "depth": self.depth, "params": dict(self.params), "version": self.version}


def resolve(use: str, folder: Path, group: str = GROUP) -> tuple[Callable[..., Any], str, str]:
    """The re-ranker (or, with `group` REWRITERS, the query rewriter) `use` names, its code's version and the file
    it is loaded from; ValueError where there is none. `module:callable` is looked for beside the runs file
    (`folder`) first, then in the environment."""
    if ":" in use:
        module_name, _, name = use.partition(":")
        if not all(part.isidentifier() for part in module_name.split(".")) or not name.isidentifier():
            raise ValueError(f"{use!r}: name a step module:callable, the module by its dotted name (beside the runs "
                             "file, or importable) and the callable by its name; not a path, a relative or an "
                             "empty name")  # fmt: skip
        beside = folder / (module_name.replace(".", "/") + ".py")
        if beside.is_file():
            module = _module_from(beside)
        else:
            try:
                module = importlib.import_module(module_name)
            except ImportError as error:
                raise ValueError(f"cannot import {module_name!r} (not beside the runs file either): {error}") from None
        function = getattr(module, name, None)
        if not callable(function):
            raise ValueError(f"{module_name!r} has no callable {name!r}")
        source = getattr(module, "__file__", None)
        if source is None:
            raise ValueError(f"{module_name!r} has no source file to version the step by")
        if beside.is_file():
            return function, source_version(beside), str(beside.resolve())
        return function, "sha256:" + hashlib.sha256(Path(source).read_bytes()).hexdigest(), ""
    found = {point.name: point for point in entry_point_group(group)}
    if use not in found:
        known = ", ".join(sorted(found)) or "none installed"
        raise ValueError(f"unknown {KINDS[group]} {use!r} (registered under {group}: {known}; or name module:callable)")
    point = found[use]
    distribution = point.dist
    version = f"{distribution.name} {distribution.version}" if distribution is not None else ""
    return point.load(), version, ""


def load(step: Step, group: str = GROUP) -> tuple[Callable[..., Any], str]:
    """The step's callable, as `resolve` found it when the runs file was read, and its code's version now."""
    if step.source:
        function = getattr(_module_from(Path(step.source)), step.use.partition(":")[2], None)
        if not callable(function):
            raise ValueError(f"{step.source} has no callable {step.use.partition(':')[2]!r} any more")
        return function, source_version(Path(step.source))
    function, version, _ = resolve(step.use, Path("."), group)
    return function, version


def source_version(path: Path) -> str:
    """The version of a module beside the runs file (module docstring): the SHA-256 of its file and, by name, of
    every other `.py` file in its folder."""
    digest = hashlib.sha256(path.read_bytes())
    for helper in sorted(path.parent.glob("*.py")):
        if helper.name != path.name and helper.is_file():
            digest.update(b"\0" + helper.name.encode() + b"\0" + helper.read_bytes())
    return "sha256:" + digest.hexdigest()


def checked_step_params(use: str, function: Callable[..., Any], params: Mapping[str, Any],
                        group: str = GROUP) -> dict[str, Any]:  # fmt: skip
    """The step's parameters, checked against the defaults and ranges the callable declares (where it does), and
    against the keyword arguments it takes."""
    what = f"the {KINDS[group]} {use}"
    _check_accepted(what, function, params, reserved={FEEDBACK} if group == REWRITERS else set())
    defaults = getattr(function, "defaults", None)
    if defaults is None:
        return dict(params)
    ranges = getattr(function, "ranges", {})
    checked = {**defaults, **checked_params(what, params, defaults, ranges)}
    # checked_params gives floats: a parameter declared whole arrives as an int, as slicing and range() need.
    return {name: int(value) if getattr(ranges.get(name), "integer", False) else value
            for name, value in checked.items()}  # fmt: skip


def takes_feedback(function: Callable[..., Any]) -> bool:
    """Whether a query rewriter takes the first ranking's candidates (a keyword argument named FEEDBACK)."""
    try:
        return FEEDBACK in inspect.signature(function).parameters
    except (TypeError, ValueError):
        return False


def _check_accepted(what: str, function: Callable[..., Any], params: Mapping[str, Any], reserved: set[str]) -> None:
    """ValueError for a parameter the callable has no keyword argument for (where its signature says), or one the
    step passes itself (`reserved`)."""
    taken = sorted(set(params) & reserved)
    if taken:
        raise ValueError(f"{what}: {', '.join(taken)} is passed by argrank, not a parameter")
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):  # a builtin or extension without one: its call will say
        return
    accepted = signature.parameters.values()
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in accepted):
        return
    names = [
        p.name for p in accepted if p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    ]
    names = [name for name in names[1:] if name not in reserved]  # the first takes the candidates (or topics)
    unknown = sorted(set(params) - set(names))
    if unknown:
        raise ValueError(f"{what} takes no parameter {', '.join(unknown)} (it takes: {', '.join(names) or 'none'})")


def candidates(ranking: pa.Table, depth: int, queries: Mapping[str, str], documents: Mapping[str, Mapping[str, Any]],
               fields: Sequence[str]) -> pa.Table:  # fmt: skip
    """Each topic's top `depth` rows of `ranking` (qid, doc, rank, score) as a step sees them: its topic, query
    text, document, rank and score, `text` (the indexed `fields` joined) and every column of the documents."""
    top = ranking.filter(pc.less_equal(ranking.column("rank"), depth))
    docs = top.column("doc").to_pylist()
    rows = [documents.get(doc, {}) for doc in docs]
    columns = sorted({name for row in rows for name in row} - {"id"})
    table = {
        "topic": top.column("qid"),
        "query": pa.array([queries.get(topic, "") for topic in top.column("qid").to_pylist()], pa.string()),
        "doc": top.column("doc"),
        "rank": top.column("rank"),
        "score": top.column("score"),
        "text": pa.array([" ".join(str(row[f]) for f in fields if row.get(f)) for row in rows], pa.string()),
    }
    for name in columns:
        if name not in table:
            table[name] = pa.array([row.get(name) for row in rows])
    return pa.table(table)


def checked_scores(returned: Any, rows: int) -> np.ndarray:
    """The step's scores as floats, one per row; ValueError saying what is wrong with them otherwise."""
    try:
        scores = np.asarray(returned, dtype=np.float64)
    except OverflowError:
        raise ValueError("returned a number beyond the floats (at most about 1.8e308 in magnitude)") from None
    except (TypeError, ValueError):
        raise ValueError(f"returned {type(returned).__name__}, not one number per candidate") from None
    if scores.shape != (rows,):
        count = scores.size if scores.ndim == 1 else f"an array of shape {scores.shape}"
        raise ValueError(f"returned {count} scores for {rows} candidates")
    bad = np.flatnonzero(~np.isfinite(scores))
    if len(bad):
        raise ValueError(f"returned {scores[bad[0]]} for candidate {bad[0]} (and {len(bad) - 1} more not finite)")
    return scores


def reordered(ranking: pa.Table, depth: int, scores: np.ndarray) -> pa.Table:
    """`ranking` with each topic's top `depth` ordered by `scores` (one per top row, in ranking order; ties by
    document id) above the rest, whose order stays. The top's scores are the step's, raised where needed so that
    every one is above the rest's, since trec_eval orders by score; any finite scores are taken, and where raising
    them would join two of them or leave the finite range (0 and 5e-324 raised by 7.8 are one number; ±1e308),
    the topic's scores are written as places instead (written_scores)."""
    columns = ranking.to_pydict()
    qids, docs, ranks = columns["qid"], columns["doc"], columns["rank"]
    old = np.asarray(columns["score"], dtype=np.float64)
    out_docs: list[str] = []
    out_scores: list[float] = []
    taken = start = 0
    while start < len(qids):
        end = start
        while end < len(qids) and qids[end] == qids[start]:
            end += 1
        top = sum(1 for r in ranks[start:end] if r <= depth)
        head = scores[taken : taken + top]
        taken += top
        head_docs = docs[start : start + top]
        order = sorted(range(top), key=lambda i: (-head[i], head_docs[i]))
        written_top, written_rest = written_scores(head[order], old[start + top : end])
        out_docs += [head_docs[i] for i in order] + docs[start + top : end]
        out_scores += written_top.tolist() + written_rest.tolist()
        start = end
    return pa.table({"qid": qids, "doc": out_docs, "rank": ranks, "score": out_scores}, schema=ranking.schema)


def written_scores(top: np.ndarray, rest: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One topic's scores as written: `top` (the step's, best first) raised by the least amount that puts it above
    `rest` (the ranking's below it, kept), or, where that would join two of the top's scores or leave the finite
    range, every score of the topic as its place: 1 for the last, one more for each distinct score above it (a tie
    stays a tie; the top's last stays above the rest's first)."""
    with np.errstate(over="ignore", invalid="ignore"):
        lift = max(float(rest.max()) + 1.0 - float(top.min()), 0.0) if len(rest) and len(top) else 0.0
        raised = top + lift
    if (np.isfinite(raised).all() and np.array_equal(top[1:] < top[:-1], raised[1:] < raised[:-1])
            and (not len(rest) or not len(top) or raised[-1] > rest[0])):  # fmt: skip
        return raised, rest
    # Between neighbours, best first: whether the score drops there (always between the top and the rest).
    drops = np.concatenate([top[1:] < top[:-1], [True] * (len(top) > 0 < len(rest)), rest[1:] < rest[:-1]])
    places = 1.0 + np.concatenate([np.cumsum(drops[::-1])[::-1], [0]])  # 1 + the drops below each row
    return places[: len(top)], places[len(top) :]


def _module_from(path: Path) -> Any:
    """The module at `path`, loaded afresh under a name of its own (two runs files' `plug.py` never collide)."""
    name = "argrank_step_" + hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:16]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as error:  # noqa: BLE001 (whatever the module raises: one line naming it)
        del sys.modules[name]
        raise ValueError(f"{path} fails to import: {type(error).__name__}: {error}") from None
    return module
