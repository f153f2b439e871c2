"""tracks/comparative/stance_report.py: the report's stance table and each run's confusion, by hand."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from argrank.core.errors import InputError
from argrank.evaluation.results import RunScores, StanceF1
from argrank.formats.runfile import RunLine, write_run
from argrank.tracks.comparative.stance_report import stance_section

JUDGED = "1 0 d1 FIRST\n1 0 d2 SECOND\n1 0 d3 NO\n2 0 d4 NEUTRAL\n"


def _published(tmp_path: Path, tag: str, lines: list[tuple[str, str, str]]) -> Path:
    """A published folder holding run `tag`: (topic, stance, document) in rank order per topic."""
    folder = tmp_path / "published"
    folder.mkdir(exist_ok=True)
    ranks: dict[str, int] = {}
    run = []
    for qid, stance, doc in lines:
        ranks[qid] = ranks.get(qid, 0) + 1
        run.append(RunLine(qid=qid, q0=stance, doc=doc, rank=ranks[qid], score=10.0 - ranks[qid], tag=tag))
    write_run(folder / f"{tag}.txt", run)
    return folder


def _qrels(tmp_path: Path) -> Path:
    path = tmp_path / "stance.qrels"
    path.write_text(JUDGED, encoding="utf-8")
    return path


def _rows(html: str, caption: str) -> list[list[str]]:
    """The body rows of the table captioned `caption`, each as its cells' texts."""
    table = html[html.index(f"<caption>{caption}</caption>") :]
    body = table[table.index("<tbody>") : table.index("</tbody>")]
    return [re.findall(r"<td>(.*?)</td>", row) for row in body.split("<tr>")[1:]]


def test_the_confusion_counts_each_judged_pair_by_what_the_run_says(tmp_path):
    run = [("1", "FIRST", "d1"), ("1", "FIRST", "d2"), ("1", "NO", "d3"), ("1", "SECOND", "unjudged"),
           ("2", "NO", "d4")]  # fmt: skip
    published = _published(tmp_path, "r", run)
    scores = {"r": RunScores(stance=StanceF1(0.3, 4, {}), classifier={"cv_macro_f1": 0.61234})}
    html = stance_section(_qrels(tmp_path), published, scores)
    assert "<th>run says FIRST</th><th>run says SECOND</th><th>run says NEUTRAL</th><th>run says NO</th>" in html
    assert _rows(html, "r: stance confusion") == [
        ["judged FIRST", "1", "0", "0", "0"],
        ["judged SECOND", "1", "0", "0", "0"],
        ["judged NEUTRAL", "0", "0", "0", "1"],
        ["judged NO", "0", "0", "0", "1"],
    ]
    assert "<tr><td>r</td><td>0.3000</td><td>4</td><td>0.6123</td></tr>" in html


def test_runs_without_stance_get_dashes_and_no_confusion_and_their_files_are_not_read(tmp_path):
    published = _published(tmp_path, "labelled", [("1", "FIRST", "d1")])
    scores = {
        "plain": RunScores(),  # no stance at all: no file needed
        "q0": RunScores(stance=StanceF1(None, 0, {})),  # column 2 is Q0: nothing to score, no file needed
        "labelled": RunScores(stance=StanceF1(1.0, 1, {"FIRST": 1.0})),
    }
    html = stance_section(_qrels(tmp_path), published, scores)
    assert "<tr><td>plain</td><td>-</td><td>-</td><td>-</td></tr>" in html
    assert "<tr><td>q0</td><td>-</td><td>0</td><td>-</td></tr>" in html
    assert html.count("stance confusion") == 1 and "labelled: stance confusion" in html
    assert _rows(html, "labelled: stance confusion")[0] == ["judged FIRST", "1", "0", "0", "0"]


def test_without_stance_judgments_only_the_f1_table_is_written(tmp_path):
    html = stance_section(None, tmp_path / "nowhere", {"r": RunScores(stance=StanceF1(0.5, 2, {}))})
    assert html.startswith("<h3>stance</h3><table>")
    assert html.count("<table>") == 1 and "confusion" not in html
    assert "<th>run</th><th>stance macro-F1</th><th>pairs</th><th>classifier CV macro-F1</th>" in html


def test_a_run_tag_is_escaped_in_both_tables(tmp_path):
    published = _published(tmp_path, "a&b", [("1", "SECOND", "d2")])
    html = stance_section(_qrels(tmp_path), published, {"a&b": RunScores(stance=StanceF1(1.0, 1, {}))})
    assert "<td>a&amp;b</td>" in html and "<caption>a&amp;b: stance confusion</caption>" in html
    assert "a&b" not in html


def test_a_stance_run_missing_from_the_published_folder_is_an_error_not_an_empty_table(tmp_path):
    (tmp_path / "published").mkdir()
    missing = re.escape(f"{tmp_path / 'published' / 'gone.txt'}: cannot read")
    with pytest.raises(InputError, match=missing):
        stance_section(_qrels(tmp_path), tmp_path / "published", {"gone": RunScores(stance=StanceF1(0.5, 2, {}))})
