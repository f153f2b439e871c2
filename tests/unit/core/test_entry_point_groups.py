"""core/entry_point_groups.py: a group's entry points are importlib.metadata's, read once until forgotten."""

from __future__ import annotations

from importlib.metadata import entry_points
from pathlib import Path

import pytest

from argrank.core import entry_point_groups
from argrank.core.entry_point_groups import entry_point_group


def test_a_group_is_importlib_metadatas():
    assert entry_point_group("spacy_lookups") == tuple(entry_points(group="spacy_lookups"))
    assert "en" in {point.name for point in entry_point_group("spacy_lookups")}
    assert entry_point_group("no such group") == ()


def test_a_distribution_installed_later_is_seen_once_forgotten(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    entry_point_group("argrank.test-group")  # read, and cached, before the install
    info = tmp_path / "late-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: late\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[argrank.test-group]\nlate = late:THING\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        assert entry_point_group("argrank.test-group") == ()
        entry_point_groups.forget()
        assert [point.value for point in entry_point_group("argrank.test-group")] == ["late:THING"]
    finally:
        monkeypatch.undo()
        entry_point_groups.forget()
