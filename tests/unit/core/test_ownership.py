"""Which runs file publishes into a folder of fixed name: the first claims it, another is refused while it exists."""

from __future__ import annotations

import pytest

from argrank.core.errors import InputError
from argrank.core.ownership import OWNER, check_owner, claim


@pytest.fixture
def runs_files(tmp_path):
    first, second = tmp_path / "a" / "sweep.yaml", tmp_path / "b" / "sweep.yaml"
    for path in (first, second):
        path.parent.mkdir()
        path.write_text("runs: []\n", encoding="utf-8")
    return first, second


def test_the_first_runs_file_claims_the_folder_and_may_claim_it_again(tmp_path, runs_files):
    first, _ = runs_files
    folder = tmp_path / "out" / "experiments" / "sweep"
    folder.mkdir(parents=True)
    claim(folder, first, "experiment sweep")
    assert (folder / OWNER).read_text(encoding="utf-8") == f"{first.resolve()}\n"
    claim(folder, first, "experiment sweep")
    check_owner(folder, first, "experiment sweep")


def test_another_runs_file_is_refused_naming_the_folder_and_the_owner(tmp_path, runs_files):
    first, second = runs_files
    folder = tmp_path / "out"
    folder.mkdir()
    claim(folder, first, "experiment sweep")
    with pytest.raises(InputError) as error:
        claim(folder, second, "experiment sweep")
    assert str(error.value).startswith(f"{second}: experiment sweep ({folder}) is published by {first.resolve()}: ")
    assert "name this experiment otherwise (`experiment:`)" in str(error.value)
    assert (folder / OWNER).read_text(encoding="utf-8") == f"{first.resolve()}\n"


def test_a_deleted_owner_gives_the_folder_up(tmp_path, runs_files):
    first, second = runs_files
    folder = tmp_path / "out"
    folder.mkdir()
    claim(folder, first, "the submission")
    first.unlink()
    claim(folder, second, "the submission")
    assert (folder / OWNER).read_text(encoding="utf-8") == f"{second.resolve()}\n"


def test_a_damaged_claim_is_claimed_anew(tmp_path, runs_files):
    _, second = runs_files
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / OWNER).write_bytes(b"\xff\xfe not utf-8")
    claim(folder, second, "the submission")
    assert (folder / OWNER).read_text(encoding="utf-8") == f"{second.resolve()}\n"
