"""One name per run file: stems while they differ, paths below the shared folder where they repeat, given names
first; two files that would share a name refused, naming both."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from argrank.formats.run_names import refuse_shared, run_names


def test_stems_name_runs_whose_stems_differ():
    assert run_names(["a/x.txt", "b/y.run", "z"]) == ["x", "y", "z"]


def test_the_organizers_layout_is_named_team_and_run(tmp_path):
    paths = [tmp_path / "runs" / team / "output" / f"run{n}.txt" for team, n in (("Captain-Levi", 5), ("Asuna", 1),
                                                                                 ("Captain-Levi", 1))]
    assert run_names(paths) == ["Captain-Levi/run5", "Asuna/run1", "Captain-Levi/run1"]


def test_repeated_stems_are_named_by_their_path_below_the_shared_folder():
    assert run_names(["d1/x.txt", "d2/x.txt", "y.txt"]) == ["d1/x", "d2/x", "y"]


def test_given_names_win_and_must_be_one_per_file():
    assert run_names(["d1/x.txt", "d2/x.txt"], ["mine", "theirs"]) == ["mine", "theirs"]
    with pytest.raises(ValueError, match="1 names for 2 run files"):
        run_names(["d1/x.txt", "d2/x.txt"], ["mine"])
    with pytest.raises(ValueError, match="expected visible text"):
        run_names(["x.txt"], ["a\nb"])


def test_two_files_that_would_share_a_name_are_refused_naming_both():
    with pytest.raises(ValueError, match="two runs would be named 'run1': runs/A/output/run1.txt and runs/A/run1.txt"):
        run_names(["runs/A/output/run1.txt", "runs/A/run1.txt"])
    with pytest.raises(ValueError, match="'same': a.txt and b.txt"):
        run_names(["a.txt", "b.txt"], ["same", "same"])
    with pytest.raises(ValueError, match="'x': outputs/x.txt and x.txt"):
        refuse_shared([("x", "outputs/x.txt"), ("y", "y.txt"), ("x", "x.txt")])


@given(st.lists(st.tuples(st.sampled_from(["a", "b", "output", "c d"]), st.sampled_from(["r1", "r2", "r3.txt"])),
                min_size=1, max_size=6, unique=True))
def test_names_are_unique_or_refused(pairs):
    """Whatever the files, the names differ, or the call says which two files clash."""
    paths = [str(Path("root", folder, name)) for folder, name in pairs]
    try:
        names = run_names(paths)
    except ValueError as error:
        assert "two runs would be named" in str(error)
    else:
        assert len(set(names)) == len(names)
