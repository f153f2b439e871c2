"""The nightly history: records read back, damaged lines named, which record tonight's is compared with, which
measures the gate watches, which means count as dropped, and what changed since the compared record."""

from __future__ import annotations

from pathlib import Path

import pytest

from argrank.reporting.history import (
    append_record,
    changes,
    compared_record,
    default_gate,
    describe_gate,
    drops,
    gate_names,
    read_history,
)


def test_records_are_appended_one_per_line_and_read_back_oldest_first(tmp_path):
    path = tmp_path / "outputs" / "history.jsonl"
    assert read_history(path) == []
    for day in ("2026-11-01", "2026-11-02"):
        append_record(path, {"date": day, "means": {}})
    assert [record["date"] for record in read_history(path)] == ["2026-11-01", "2026-11-02"]


DAMAGED = [
    b"{oops",
    b'{"date": "x"}',
    b'{"date": "d", "means": 5}',
    b'{"date": "d", "means": {"args": {"bm25": {"rel": {"nDCG@5": "high"}}}}}',
    b'{"date": 7, "means": {}}',
    b'{"date": "d", "means": {}, "signatures": [1]}',
    b'{"date": "caf\xe9", "means": {}}',
    b"[" * 5000,
]


def test_damaged_lines_are_skipped_named_in_one_warning_and_kept_in_the_file(tmp_path, caplog):
    """The history is the only copy of earlier nights' means: a damaged line costs its record, not the run."""
    path = tmp_path / "history.jsonl"
    good = b'{"date": "d1", "means": {"args": {"bm25": {"rel": {"nDCG@5": 0.5, "P@10": null}}}}}'
    path.write_bytes(b"\n".join([good, *DAMAGED, good.replace(b"d1", b"d2")]) + b"\n")
    before = path.read_bytes()
    assert [record["date"] for record in read_history(path)] == ["d1", "d2"]
    (warning,) = [record.getMessage() for record in caplog.records]
    assert warning == f"{path}: lines 2, 3, 4, 5, 6, 7, 8, 9 damaged (not a nightly record): skipped, left in the file"
    append_record(path, {"date": "d3", "means": {}})
    assert path.read_bytes() == before + b'{"date": "d3", "means": {}}\n'


def test_an_append_that_cannot_be_written_leaves_the_history_as_it_was(tmp_path, monkeypatch):
    path = tmp_path / "history.jsonl"
    append_record(path, {"date": "d1", "means": {}})
    before = path.read_bytes()

    def full_disk(self, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Path, "write_bytes", full_disk)
    with pytest.raises(OSError):
        append_record(path, {"date": "d2", "means": {}})
    assert path.read_bytes() == before and [p.name for p in tmp_path.iterdir()] == ["history.jsonl"]


def test_a_drop_is_a_gated_fall_beyond_the_tolerance_and_for_rkl_a_rise():
    before = {"args": {"bm25": {"relevance": {"nDCG@5": 0.70, "Judged@5": 0.9}}},
              "perspective": {"baseline/dev": {"scores": {"rKL@4": 0.10, "nDCG@4": 0.9}}}}  # fmt: skip
    after = {"args": {"bm25": {"relevance": {"nDCG@5": 0.65, "Judged@5": 0.85}}},
             "perspective": {"baseline/dev": {"scores": {"rKL@4": 0.20, "nDCG@4": 0.95}}}}  # fmt: skip
    every = {"args": {"nDCG@5", "Judged@5"}, "perspective": {"rKL@4", "nDCG@4"}}
    assert drops(before, after, 0.01, every) == [
        "args bm25 relevance nDCG@5: 0.7000 → 0.6500",
        "args bm25 relevance Judged@5: 0.9000 → 0.8500",
        "perspective baseline/dev scores rKL@4: 0.1000 → 0.2000",
    ]
    assert drops(before, after, 0.2, every) == []
    assert drops({}, after, 0.0, every) == []  # nothing to compare with: a new run or track
    assert drops(before, after, 0.01, {"args": {"Judged@5"}}) == ["args bm25 relevance Judged@5: 0.9000 → 0.8500"]


def test_the_default_gate_watches_each_tracks_effectiveness_never_judged():
    gate = default_gate(["args", "comparative", "images", "perspective"])
    assert gate == {
        "args": ("nDCG@5",),
        "comparative": ("nDCG@5", "stance_f1"),
        "images": ("on_stance@10",),
        "perspective": ("nDCG@4", "nDCG@8", "nDCG@16", "nDCG@20"),
    }
    # The reproduced night: Judged@5 fell with mu 5 and stayed down once restored, nDCG@5 came back up.
    before = {"args": {"argrank-dirichlet": {"relevance": {"nDCG@5": 0.40, "Judged@5": 0.875},
                                             "quality": {"nDCG@5": 0.50, "Judged@5": 0.875}}}}  # fmt: skip
    after = {"args": {"argrank-dirichlet": {"relevance": {"nDCG@5": 0.41, "Judged@5": 0.85},
                                            "quality": {"nDCG@5": 0.45, "Judged@5": 0.85}}}}  # fmt: skip
    assert drops(before, after, 0.01, gate) == ["args argrank-dirichlet quality nDCG@5: 0.5000 → 0.4500"]


def test_the_measures_each_track_records_include_its_gate_measures():
    """Every default gate measure is a name the track's `means` writes (else the gate would watch nothing)."""
    from argrank.tracks.registry import track

    ranking = {"bm25": {"relevance": {"measures": ["nDCG@5", "Judged@5"], "nDCG@5": 0.5, "Judged@5": 0.9},
                        "stance": {"stance_f1": 0.6}}}  # fmt: skip
    images = {"bm25": {"relevance": {"measures": ["on_stance@10", "judged@10"], "on_stance@10": 0.3,
                                     "judged@10": 0.8}}}  # fmt: skip
    perspective = {"baseline/dev": {"measures": [f"nDCG@{k}" for k in (4, 8, 16, 20)],
                                    **{f"nDCG@{k}": 0.5 for k in (4, 8, 16, 20)}}}  # fmt: skip
    for name, evaluation in [("args", ranking), ("comparative", ranking), ("images", images),
                             ("perspective", perspective)]:  # fmt: skip
        means = track(name).means(None, evaluation)
        assert describe_gate(default_gate([name]), {name: means}) == f"{name} " + ", ".join(track(name).gate_measures)


def test_gate_names_are_read_as_the_history_holds_them():
    records = [{"date": "d", "means": {"args": {"bm25": {"relevance": {"nDCG@5": 0.5, "Judged@5": 0.9}}},
                                       "comparative": {"bm25": {"stance": {"stance_f1": 0.6}}}}}]  # fmt: skip
    assert gate_names(["judged@5", "stance_f1", "Judged@5"], records) == ("Judged@5", "stance_f1")
    with pytest.raises(ValueError, match=r"--gate P@10: no nightly record holds it; they hold Judged@5, "
                                         r"nDCG@5, stance_f1"):  # fmt: skip
        gate_names(["P@10"], records)
    with pytest.raises(ValueError, match="--gate no-such-measure: no nightly record holds it"):
        gate_names(["no-such-measure"], records)


def test_describe_gate_says_where_a_track_holds_none_of_its_gate_measures():
    means = {"args": {"bm25": {"relevance": {"P@10": 0.5}}}, "images": {"r": {"relevance": {"on_stance@10": 0.2}}}}
    assert describe_gate(default_gate(means), means) == "args nothing; images on_stance@10"


def test_a_record_is_compared_with_the_latest_of_its_runs_file_unless_across_changes():
    records = [{"runs_file": "a"}, {"runs_file": "b"}, {"runs_file": "a"}, {"runs_file": "c"}, {}]
    assert compared_record(records, "a", across_changes=False) == 2
    assert compared_record(records, "b", across_changes=False) == 1
    assert compared_record(records, "d", across_changes=False) is None
    assert compared_record(records, "d", across_changes=True) == 4
    assert compared_record([], "a", across_changes=True) is None


def test_the_change_message_names_runs_file_inputs_and_commit():
    before = {"runs_file": "a", "commit": "1234567890", "signatures": {"args": "s1", "images": "s2"}}
    same = dict(before)
    assert changes(before, same) == "nothing (same runs file, inputs and commit)"
    after = {"runs_file": "b", "commit": "abcdef0123", "signatures": {"args": "s1", "images": "s3", "new": "s4"}}
    assert changes(before, after) == "the runs file; the inputs of images, new; the commit 1234567 → abcdef0"
    # An old record without these keys still compares: what it lacks counts as changed.
    assert changes({"date": "d", "means": {}}, before) == (
        "the runs file; the inputs of args, images; the commit unknown → 1234567"
    )


def test_the_change_message_names_the_input_files_that_changed_came_or_went():
    """A changed plug-in module is named, not only "the inputs of args"; a record without input_files (written before
    they were kept) still loads and compares, by the tracks' signatures alone."""
    before = {"runs_file": "a", "commit": "c", "signatures": {"args": "s1", "images": "s2"},
              "input_files": {"args": {"plug.py": "d1", "data/args/topics.xml": "t", "data/old.qrels": "q"},
                              "images": {"data/images/topics.xml": "i"}}}  # fmt: skip
    after = {"runs_file": "a", "commit": "c", "signatures": {"args": "s3", "images": "s2"},
             "input_files": {"args": {"plug.py": "d2", "data/args/topics.xml": "t", "data/new.qrels": "q"},
                             "images": {"data/images/topics.xml": "i"}}}  # fmt: skip
    assert changes(before, after) == "the inputs of args (changed: plug.py; new: data/new.qrels; gone: data/old.qrels)"
    old = {key: value for key, value in before.items() if key != "input_files"}
    assert changes(old, after) == "the inputs of args"
    assert changes({**before, "signatures": {"args": "s1"}}, {**before, "signatures": {"args": "s4"}}) == (
        "the inputs of args"  # a setting of the runs file, no file
    )


def test_a_record_with_input_files_loads_and_a_malformed_one_is_skipped(tmp_path, caplog):
    path = tmp_path / "history.jsonl"
    path.write_text('{"date": "d1", "means": {}, "input_files": {"args": {"plug.py": "d"}}}\n'
                    '{"date": "d2", "means": {}, "input_files": {"args": ["plug.py"]}}\n'
                    '{"date": "d3", "means": {}}\n')  # fmt: skip
    assert [record["date"] for record in read_history(path)] == ["d1", "d3"]
    assert "line 2 damaged" in caplog.text
