"""A run we write, checked and formatted a column at a time: a line at a time in Python, checking and formatting a
run of tens of thousands of lines would be most of the work of a re-run after a change of one ranking parameter.

`conforms` accepts a run only where every rule of `validation.check_lines` and every condition of the line
writer (`runfile.format_run`) holds; where it does not, or cannot tell cheaply (a field that is not printable
ASCII: Python's notion of white space is wider than a regular expression's), the caller checks and writes the
lines one by one, which names the first line at fault. So the fast path never accepts what the lines refuse, and
both write the same bytes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from argrank.core.arrow_arrays import one_array
from argrank.formats.runfile import Q0, RunLine
from argrank.formats.validation import RunRules

# Printable ASCII but space: a field without white space of any kind. Checked on the bytes: a regular expression
# over the three text columns would be a large part of the check.
_PRINTABLE = (0x21, 0x7E)


@dataclass(frozen=True)
class RunColumns:
    """A run's lines as columns, but its tag: one value per line."""

    qid: pa.Array
    column2: pa.Array
    doc: pa.Array
    rank: np.ndarray
    score: np.ndarray

    @classmethod
    def of(cls, ranking: pa.Table) -> RunColumns:
        """A ranking table's run (qid, doc, rank, score; column 2 its `stance` column where it has one, else Q0)."""
        n = ranking.num_rows
        column2 = ranking.column("stance") if "stance" in ranking.column_names else pa.array([Q0] * n, pa.string())
        text = [one_array(ranking.column("qid")), one_array(column2), one_array(ranking.column("doc"))]
        score = np.asarray(ranking.column("score").to_numpy(), dtype=np.float64)
        return cls(*text, rank=ranking.column("rank").to_numpy(), score=score)

    def lines(self, tag: str) -> list[RunLine]:
        return [
            RunLine(qid=q, q0=c, doc=d, rank=r, score=s, tag=tag)
            for q, c, d, r, s in zip(self.qid.to_pylist(), self.column2.to_pylist(), self.doc.to_pylist(),
                                     self.rank.tolist(), self.score.tolist())
        ]  # fmt: skip


def conforms(run: RunColumns, tag: str, rules: RunRules) -> bool:
    """Whether the run's lines pass every rule (and can be written as they are); False may mean "not sure"."""
    qid, column2, doc, rank, score = run.qid, run.column2, run.doc, run.rank, run.score
    n = len(rank)
    if n == 0:
        return True
    text = (qid, column2, doc)
    if not all((pa.types.is_string(c.type) or pa.types.is_large_string(c.type)) and c.null_count == 0 for c in text):
        return False
    if not all(_printable(c) for c in (*text, pa.array([tag], pa.string()))):
        return False
    if not np.isfinite(score).all():
        return False
    labels = pc.SetLookupOptions(pa.array(sorted(rules.column2), pa.string()))
    if not pc.all(pc.is_in(column2, options=labels)).as_py():
        return False
    q0 = pc.equal(column2, _text(Q0))
    if pc.any(q0).as_py() and not pc.all(q0).as_py():  # Q0 on every line or on none
        return False
    lists = pc.binary_join_element_wise(qid, column2, _text("\t")) if rules.by_stance else qid
    encoded = pc.dictionary_encode(lists)
    codes = encoded.indices.to_numpy()
    starts = np.flatnonzero(np.concatenate([[True], codes[1:] != codes[:-1]]))
    if len(starts) != len(encoded.dictionary):  # a list that starts again after another
        return False
    positions = np.arange(n) - np.repeat(starts, np.diff(np.append(starts, n)))
    if not np.array_equal(rank, positions + 1) or rank.max() > rules.max_per_list:
        return False
    later = np.ones(n, dtype=bool)  # a line after the first of its list
    later[starts] = False
    if (score[1:][later[1:]] > score[:-1][later[1:]]).any():  # a score above the line before's
        return False
    # No document twice in a topic (lists of one topic by stance included): the (topic, document) pairs distinct.
    return len(pc.unique(pc.binary_join_element_wise(qid, doc, _text("\t")))) == n


def format_columns(run: RunColumns, tag: str) -> bytes:
    """The run's text in UTF-8, as runfile.format_run writes the same lines (scores as Python's shortest repr)."""
    if len(run.rank) == 0:
        return b""
    ranks = pc.cast(pa.array(run.rank), pa.string())
    ending = _text(tag + "\n")  # one value for every line, not a column of copies
    fields = (run.qid, run.column2, run.doc, ranks, score_texts(run.score), ending)
    lines = pc.binary_join_element_wise(*fields, _text(" "))
    return _concatenated(lines)


def score_texts(scores: np.ndarray) -> pa.Array:
    """Each score as Python's repr writes it. Arrow's cast gives the same shortest digits but writes some in
    another notation: 3.0 as "3", 1e-05 as "0.00001", 1e10 with an exponent. So its text is kept only for scores
    that are not whole numbers, in magnitude between 1e-4 and 1e9, where both write the same plain decimals
    (tests/unit/formats/test_run_columns.py checks it on drawn floats), and repr writes only the others: repr for
    every score, a call of Python's per line, would cost more than formatting the rest of the run."""
    texts = pc.cast(pa.array(np.asarray(scores, dtype=np.float64)), pa.string())
    magnitude = np.abs(scores)
    plain = (magnitude >= 1e-4) & (magnitude < 1e9) & (scores != np.floor(scores))
    if plain.all():
        return texts
    written = texts.to_pylist()
    for i in np.flatnonzero(~plain).tolist():
        written[i] = repr(float(scores[i]))
    return pa.array(written, pa.string())


def _printable(strings: pa.Array) -> bool:
    """Whether every string of an array without nulls is one or more printable ASCII characters but space."""
    ends, data = _layout(strings)
    if (ends[1:] <= ends[:-1]).any():  # an empty string
        return False
    low, high = _PRINTABLE
    return bool(((data >= low) & (data <= high)).all())


def _concatenated(strings: pa.Array) -> bytes:
    """The strings of an array without nulls, one after another."""
    return _layout(strings)[1].tobytes()


def _layout(strings: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """A string array's ends (its offsets, from the first string's start) and the bytes its strings span."""
    width = np.int64 if pa.types.is_large_string(strings.type) else np.int32
    _, offsets, data = strings.buffers()
    ends = np.frombuffer(offsets, dtype=width)[strings.offset : strings.offset + len(strings) + 1]
    if data is None:  # no string has a byte
        return ends, np.zeros(0, dtype=np.uint8)
    return ends, np.frombuffer(data, dtype=np.uint8)[int(ends[0]) : int(ends[-1])]


def _text(value: str) -> pa.Scalar:
    """A string scalar for a compute function, typed (not inferred from the Python value)."""
    return pa.scalar(value, pa.string())

