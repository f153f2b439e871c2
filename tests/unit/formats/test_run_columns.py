"""The column-at-a-time run check and writer against the line-at-a-time ones (validation.check_lines and
runfile.format_run): whatever the columns accept, the lines accept and write to the same bytes; and the runs we
rank are accepted, so the fast path is the one taken."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from argrank.core.errors import InputError
from argrank.formats.run_columns import RunColumns, conforms, format_columns, score_texts
from argrank.formats.runfile import Q0, format_run
from argrank.formats.validation import TREC, RunRules, check_lines

RULES = [
    TREC,
    RunRules(frozenset({Q0}), max_per_list=3),
    RunRules(frozenset({Q0, "FIRST", "SECOND"})),
    RunRules(frozenset({"PRO", "CON"}), by_stance=True, max_per_list=3),
]
_text = st.sampled_from(["1", "2", "d1", "d2", "S1-A2", "é", "a b", "", "x\u2028"])


@st.composite
def runs(draw, rules: RunRules):
    """Runs the rules allow (but for the lists' length) with at most one fault, and runs drawn at random."""
    n = draw(st.integers(0, 12))
    if draw(st.integers(0, 3)):
        qid = sorted(draw(st.lists(st.sampled_from(["1", "2", "3"]), min_size=n, max_size=n)))
        labels = draw(st.sampled_from([[Q0], ["PRO", "CON"], ["FIRST"], sorted(rules.column2 - {Q0}) or [Q0]]))
        column2 = [labels[i % len(labels)] for i in range(n)]
        lists = [(q, c) for q, c in zip(qid, column2)]
        order = sorted(range(n), key=lambda i: lists[i])
        qid, column2 = [qid[i] for i in order], [column2[i] for i in order]
        key = list(zip(qid, column2)) if rules.by_stance else qid
        rank = [key[: i + 1].count(key[i]) for i in range(n)]
        score = [-float(r) for r in rank]
        doc = [f"d{i}" for i in range(n)]
        faults = ["none", "none", "none", "swap", "doc", "column2", "rank", "score", "restart", "nan"]
        fault = draw(st.sampled_from(faults)) if n > 1 else "none"
        i = draw(st.integers(1, max(n - 1, 1)))
        if fault == "swap":
            for column in (qid, column2, doc):
                column[i - 1], column[i] = column[i], column[i - 1]
        elif fault == "doc":
            doc[i] = doc[i - 1]
        elif fault == "column2":
            column2[i] = Q0 if column2[i] != Q0 else "PRO"
        elif fault == "rank":
            rank[i] += 1
        elif fault == "score":
            score[i] = score[i - 1] + 1
        elif fault == "nan":  # the lines' rules allow it; their writer does not
            score[i] = draw(st.sampled_from([float("nan"), float("-inf")]))
        elif fault == "restart":  # the first line's list again, after another, ranked from 1 again
            qid, column2, doc = [*qid, qid[0]], [*column2, column2[0]], [*doc, "again"]
            rank, score = [*rank, 1], [*score, score[0]]
    else:
        qid = draw(st.lists(st.sampled_from(["1", "2", "3", "1 ", "é"]), min_size=n, max_size=n))
        column2 = draw(st.lists(st.sampled_from([Q0, "PRO", "CON", "FIRST", "bad"]), min_size=n, max_size=n))
        doc = draw(st.lists(_text, min_size=n, max_size=n))
        rank = draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
        score = draw(st.lists(st.floats(allow_nan=True, allow_infinity=True), min_size=n, max_size=n))
    sliced = draw(st.booleans())  # columns that start inside their buffers, behind a line no rule allows
    if sliced:
        qid, column2, doc, rank, score = ["a b", *qid], ["é", *column2], ["", *doc], [0, *rank], [0.0, *score]
    table = pa.table({"qid": pa.array(qid, pa.string()), "stance": pa.array(column2, pa.string()),
                      "doc": pa.array(doc, pa.string()), "rank": pa.array(rank, pa.int64()),
                      "score": pa.array(score, pa.float64())})  # fmt: skip
    table = table.slice(1) if sliced else table
    if all(c == Q0 for c in column2) and draw(st.booleans()):
        table = table.drop_columns("stance")
    return RunColumns.of(table)


@settings(max_examples=500, deadline=None)
@given(st.data(), st.sampled_from(["tag", "tag", "tag", "a tag", ""]), st.sampled_from(RULES))
def test_what_the_columns_accept_the_lines_accept_and_write_alike(data, tag, rules):
    run = data.draw(runs(rules))
    lines = run.lines(tag)
    if conforms(run, tag, rules):
        assert check_lines("run.txt", enumerate(lines, start=1), rules) == len(lines)
        assert format_columns(run, tag) == format_run(lines).encode()
    elif all(_plain(line) for line in lines):  # the columns refuse only what the lines refuse
        with pytest.raises(InputError):
            check_lines("run.txt", enumerate(lines, start=1), rules)


def _plain(line) -> bool:
    """Fields of printable ASCII without spaces, a finite score: the lines the columns must judge alone."""
    fields = (line.qid, line.q0, line.doc, line.tag)
    return all(f and all("!" <= ch <= "~" for ch in f) for f in fields) and np.isfinite(line.score)


def _ranked(topics: int, depth: int, seed: int = 0) -> pa.Table:
    rng = np.random.default_rng(seed)
    qid = np.repeat([str(t) for t in range(topics)], depth)
    doc = np.concatenate([rng.permutation(10 * depth)[:depth] for _ in range(topics)]).astype(str)
    score = np.concatenate([np.sort(rng.random(depth) * 30)[::-1] for _ in range(topics)])
    score[5] = score[4]  # a tie
    rank = np.tile(np.arange(1, depth + 1), topics)
    return pa.table({"qid": qid, "doc": pa.array(["S" + d for d in doc]), "rank": rank, "score": score})


def test_a_ranking_is_accepted_and_written_as_the_lines_write_it():
    run = RunColumns.of(_ranked(topics=5, depth=100))
    assert conforms(run, "argrank-bm25", TREC)
    assert format_columns(run, "argrank-bm25") == format_run(run.lines("argrank-bm25")).encode()


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda t: t.set_column(3, "score", pa.array(np.arange(t.num_rows, dtype=float))), "scores must not increase"),
        (lambda t: t.set_column(2, "rank", pa.array(np.ones(t.num_rows, dtype=np.int64))), "expected 2"),
        (lambda t: t.set_column(1, "doc", pa.array(["S1"] * t.num_rows)), "appears twice"),
        (lambda t: t.append_column("stance", pa.array(["FIRST"] + [Q0] * (t.num_rows - 1))), "on every line"),
    ],
)
def test_a_broken_ranking_is_refused_by_the_columns(damage, message):
    """Refused here, the run goes to check_lines, which names the line (tasks/runs.py)."""
    rules = RULES[2]
    run = RunColumns.of(damage(_ranked(topics=2, depth=10)))
    assert not conforms(run, "tag", rules)
    with pytest.raises(InputError, match=message):
        check_lines("run.txt", enumerate(run.lines("tag"), start=1), rules)


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.one_of(st.floats(allow_nan=False, allow_infinity=False), st.floats(-1e10, 1e10),
                          st.integers(-10**17, 10**17).map(float), st.floats(1e-5, 1e-3)), max_size=20))  # fmt: skip
def test_scores_are_written_as_repr_writes_them(scores):
    """Arrow's text where it is trusted, repr's elsewhere: the same text as repr for every finite float."""
    assert score_texts(np.array(scores, dtype=np.float64)).to_pylist() == [repr(s) for s in scores]


def test_arrow_and_repr_agree_on_the_scores_whose_arrow_text_is_kept():
    """Dense draws over the kept range's ends and middle: were Arrow's notation to change there, this fails."""
    rng = np.random.default_rng(11)
    scores = np.concatenate([np.exp(rng.uniform(np.log(1e-4), np.log(1e9), 200_000)), 1e-4 + rng.random(1000) * 1e-9,
                             1e9 - rng.random(1000) * 1e-3, rng.random(100_000) * 40])  # fmt: skip
    scores = np.concatenate([scores, -scores])
    assert pa.array(scores).cast(pa.string()).to_pylist() == [repr(s) for s in scores.tolist()]
