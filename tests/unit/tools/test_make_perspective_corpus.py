"""The perspective corpus's issue files (tools/specs/perspective/) load and are checked, and the generator still
writes from them exactly what data/perspective/ holds."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from tools import make_perspective_corpus as generator

REPO = Path(__file__).resolve().parents[3]
DATA = REPO / "data" / "perspective"


def test_the_issue_files_load_with_the_counts_the_readme_gives():
    issues = generator.load_issues()
    assert [issue["split"] for issue in issues] == ["train"] * 4 + ["dev"] * 2 + ["test"] * 2
    per_language = Counter()
    texts = Counter()
    for issue in issues:
        for language in generator.LANGUAGES:
            for stance, text, _hints in generator.arguments_of(issue, language):
                per_language[language, stance] += 1
                texts[text] += 1
    assert per_language == {("de", "FAVOR"): 90, ("de", "AGAINST"): 87, ("fr", "FAVOR"): 50, ("fr", "AGAINST"): 47,
                            ("it", "FAVOR"): 21, ("it", "AGAINST"): 19}  # fmt: skip
    assert len(generator.DUPLICATES) == 4
    assert sorted(text for text, count in texts.items() if count > 1) == sorted(generator.DUPLICATES)


def test_the_generator_writes_what_data_perspective_holds(tmp_path, capsys):
    assert generator.main(["--out", str(tmp_path)]) == 0
    assert "314 arguments" in capsys.readouterr().out
    written = sorted(path.relative_to(tmp_path) for path in tmp_path.rglob("*.jsonl"))
    assert written == sorted(path.relative_to(DATA) for path in DATA.rglob("*.jsonl")) and len(written) == 7
    for name in written:
        assert (tmp_path / name).read_bytes() == (DATA / name).read_bytes(), name


@pytest.mark.parametrize(
    "old, new, message",
    [
        ("\nsplit: train\n", "\nsplit: training\n", "split 'training'"),
        ("\nde:\n", "\nDE:\n", r"unknown keys \['DE'\], missing keys \['de'\]"),
        ("\n  FAVOR:\n", "\n  FOR:\n", "stances"),
    ],
)
def test_a_wrong_issue_file_fails_to_load(tmp_path, old, new, message):
    folder = tmp_path / "perspective"
    shutil.copytree(generator.SPECS, folder)
    path = folder / "issue-1.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        generator.load_issues(folder)
