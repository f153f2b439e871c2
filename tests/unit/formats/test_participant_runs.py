"""A year's published runs in the organizers' layout: every run under the folder, other files skipped and counted."""

from __future__ import annotations

import pytest

from argrank.formats.participant_runs import participant_runs


def test_the_organizers_layout_is_read_whole(organizers_runs):
    found = participant_runs(organizers_runs)
    assert list(found.runs) == ["Aldo-Nadi/run3", "Asuna/run1", "Captain-Tempesta/run1", "Grimjack/run1",
                                "Grimjack/run3", "Katana/run1", "Puss-in-Boots/run1"]  # fmt: skip
    assert found.runs["Grimjack/run3"] == organizers_runs / "Grimjack" / "output" / "run3.txt"
    assert [p.name for p in found.skipped] == ["notes.txt", "README.md"] and found.empty == []
    assert found.notes(organizers_runs) == [f"{organizers_runs}: 2 files skipped, not a run file: Grimjack/notes.txt, "
                                            "README.md"]  # fmt: skip


def test_a_flat_folder_is_named_by_stem(shared_data):
    found = participant_runs(shared_data / "touche-task2" / "runs-2022")
    assert "Katana-run1" in found.runs and len(found.runs) == 7 and not found.skipped


def test_top_level_files_and_sub_folders_are_both_read(tmp_path):
    (tmp_path / "team" / "output").mkdir(parents=True)
    (tmp_path / "top.txt").write_text("1 Q0 d1 1 2.5 top\n")
    (tmp_path / "team" / "output" / "run1.txt").write_text("1 Q0 d1 0 2.5 deep\n")
    (tmp_path / "empty.txt").write_text("\n")
    (tmp_path / ".hidden.txt").write_text("1 Q0 d1 1 2.5 hidden\n")
    found = participant_runs(tmp_path)
    assert found.runs == {"top": tmp_path / "top.txt", "run1": tmp_path / "team" / "output" / "run1.txt"}
    assert found.empty == [tmp_path / "empty.txt"]
    assert found.notes(tmp_path) == [f"{tmp_path}: 1 file skipped, empty: empty.txt"]


def test_a_quoted_tag_is_a_run_line_and_a_binary_file_is_not(tmp_path):
    (tmp_path / "katana.txt").write_text('1 FIRST d1 1 2.5 "my run"\n')
    (tmp_path / "paper.pdf").write_bytes(b"%PDF-1.5\n\xff\xfe\x00 1 2 3 4 5\n")
    found = participant_runs(tmp_path)
    assert list(found.runs) == ["katana"] and found.skipped == [tmp_path / "paper.pdf"]


def test_no_folder_or_no_run_is_refused(tmp_path):
    with pytest.raises(ValueError, match="not a folder of run files"):
        participant_runs(tmp_path / "none")
    (tmp_path / "README.md").write_text("# nothing here\n")
    with pytest.raises(ValueError, match="no run file in it \\(1 other files\\)"):
        participant_runs(tmp_path)
