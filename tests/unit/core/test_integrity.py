"""State files damaged by hand or by a crash (a manifest, a record of a target's sizes) never cause a traceback:
the publication or the stage they stand for is done again, and the file is written anew."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from argrank.core.integrity import damage, forget_sizes, record_sizes
from argrank.core.published_folder import MANIFEST, is_published, publish


def _publish(folder: Path) -> None:
    def write(staging: Path) -> list[str]:
        (staging / "evaluation.json").write_text('{"run": {"nDCG@5": 0.5}}')
        (staging / "run.txt").write_text("1 Q0 d 1 1.0 run\n")
        return ["evaluation.json", "run.txt"]

    publish(folder, "sig", write)


@pytest.mark.parametrize(
    "damaged",
    ["folder", '{"signature": "sig", "files": 5}', '{"signature": "sig", "files": ["evaluation.json"]}', "\xff",
     '{"signature": "sig", "files": {"evaluation.json": "big"}}', "[" * 5000],
)  # fmt: skip
def test_a_damaged_manifest_is_not_published_and_publishing_heals_it(tmp_path, damaged):
    folder = tmp_path / "args"
    _publish(folder)
    assert is_published(folder, "sig")
    (folder / MANIFEST).unlink()
    if damaged == "folder":
        (folder / MANIFEST).mkdir()
    else:
        (folder / MANIFEST).write_bytes(damaged.encode("latin-1"))
    assert not is_published(folder, "sig")
    _publish(folder)
    assert is_published(folder, "sig")


def test_a_published_file_of_another_size_than_written_is_published_again(tmp_path):
    """A truncated evaluation.json was taken as published, and every reader of it failed."""
    folder = tmp_path / "args"
    _publish(folder)
    evaluation = folder / "evaluation.json"
    evaluation.write_text(evaluation.read_text()[:10])
    assert not is_published(folder, "sig")
    _publish(folder)
    assert json.loads(evaluation.read_text()) == {"run": {"nDCG@5": 0.5}}
    assert json.loads((folder / MANIFEST).read_text())["files"] == {"evaluation.json": 24, "run.txt": 17}


@pytest.mark.parametrize("record", ["[]", '{"a.parquet": "12"}', "\xff", "folder", "[" * 5000])
def test_a_damaged_size_record_is_damage_and_is_written_anew(tmp_path, record):
    target = tmp_path / "a.parquet"
    target.write_bytes(b"PAR1 data")
    record_sizes(target)
    assert damage(target) is None
    sizes = tmp_path / ".a.parquet.sizes.json"
    sizes.unlink()
    if record == "folder":
        sizes.mkdir()
        (sizes / "inside").write_text("x")
    else:
        sizes.write_bytes(record.encode("latin-1"))
    assert damage(target) == f"{sizes}: not a record of sizes"
    forget_sizes(target)  # what a stage run does first, then writes and records again
    record_sizes(target)
    assert damage(target) is None and json.loads(sizes.read_text()) == {"a.parquet": 9}
