"""The nightly history: records read back, damaged lines named, and which means count as dropped."""

from __future__ import annotations

import pytest

from argrank.core.errors import InputError
from argrank.reporting.history import append_record, drops, read_history


def test_records_are_appended_one_per_line_and_read_back_oldest_first(tmp_path):
    path = tmp_path / "outputs" / "history.jsonl"
    assert read_history(path) == []
    for day in ("2026-11-01", "2026-11-02"):
        append_record(path, {"date": day, "means": {}})
    assert [record["date"] for record in read_history(path)] == ["2026-11-01", "2026-11-02"]


@pytest.mark.parametrize(("line", "problem"), [("{oops", "not JSON"), ('{"date": "x"}', "needs a date and means")])
def test_a_damaged_line_is_named(tmp_path, line, problem):
    path = tmp_path / "history.jsonl"
    path.write_text('{"date": "d", "means": {}}\n' + line + "\n")
    with pytest.raises(InputError, match=problem) as error:
        read_history(path)
    assert error.value.where == "line 2"


def test_a_drop_is_a_fall_beyond_the_tolerance_and_for_rkl_a_rise():
    before = {"args": {"bm25": {"relevance": {"nDCG@5": 0.70, "Judged@5": 0.9}}},
              "perspective": {"baseline/dev": {"scores": {"rKL@4": 0.10, "nDCG@4": 0.9}}}}  # fmt: skip
    after = {"args": {"bm25": {"relevance": {"nDCG@5": 0.65, "Judged@5": 0.895}}},
             "perspective": {"baseline/dev": {"scores": {"rKL@4": 0.20, "nDCG@4": 0.95}}}}  # fmt: skip
    assert drops(before, after, 0.01) == [
        "args bm25 relevance nDCG@5: 0.7000 → 0.6500",
        "perspective baseline/dev scores rKL@4: 0.1000 → 0.2000",
    ]
    assert drops(before, after, 0.2) == []
    assert drops({}, after, 0.0) == []  # nothing to compare with: a new run or track
