"""tracks/perspective/report.py: a table per scenario and split, a row per k, in-sample figures marked."""

from __future__ import annotations

import json
import re
from pathlib import Path

from argrank.evaluation.in_sample import InSample
from argrank.tracks.perspective.evaluation import DIVERSITY, RELEVANCE, K
from argrank.tracks.perspective.report import perspective_section

MEASURES = [*RELEVANCE, *DIVERSITY]


def _summary(queries: int, base: float, mark: InSample | None = None) -> dict:
    """An evaluation.json entry whose figure for measure number m at k is base + m / 10 + k / 1000."""
    figures = {f"{m}@{k}": base + number / 10 + k / 1000 for number, m in enumerate(MEASURES) for k in K}
    return {"scenario": "baseline", "queries": queries, **figures, **(mark.to_json() if mark else {})}


def _publish(folder: Path, data: dict) -> Path:
    (folder / "evaluation.json").write_text(json.dumps(data), encoding="utf-8")
    return folder


def _rows(html: str) -> list[list[str]]:
    body = html[html.index("<tbody>") : html.index("</tbody>")]
    return [re.findall(r"<td>(.*?)</td>", row) for row in body.split("<tr>")[1:]]


def test_a_row_per_k_and_a_column_per_measure_with_four_decimals(tmp_path):
    html = perspective_section(_publish(tmp_path, {"baseline/dev": _summary(12, 0.5)}))
    assert MEASURES == ["nDCG", "P", "alpha-nDCG", "rKL"] and K == (4, 8, 16, 20)
    assert "<h3>baseline/dev</h3>" in html
    assert "<caption>12 queries; rKL: lower is better</caption>" in html
    assert "<thead><tr><th>k</th><th>nDCG</th><th>P</th><th>alpha-nDCG</th><th>rKL</th></tr></thead>" in html
    assert _rows(html) == [
        ["4", "0.5040", "0.6040", "0.7040", "0.8040"],
        ["8", "0.5080", "0.6080", "0.7080", "0.8080"],
        ["16", "0.5160", "0.6160", "0.7160", "0.8160"],
        ["20", "0.5200", "0.6200", "0.7200", "0.8200"],
    ]
    assert "in-sample" not in html


def test_each_scenario_and_split_gets_its_own_table_in_the_files_order(tmp_path):
    data = {"implicit/test": _summary(3, 0.1), "baseline/dev": _summary(5, 0.2), "explicit/dev": _summary(4, 0.3)}
    html = perspective_section(_publish(tmp_path, data))
    assert re.findall(r"<h3>(.*?)</h3>", html) == ["implicit/test", "baseline/dev", "explicit/dev"]
    assert html.count("<table>") == 3
    assert re.findall(r"<caption>(\d+) queries", html) == ["3", "5", "4"]


def test_only_the_in_sample_measures_are_marked_and_the_reason_follows_their_table(tmp_path):
    mark = InSample("the ranker learned from these queries", ("nDCG@4", "rKL@20"))
    data = {"baseline/train": _summary(2, 0.0, mark), "baseline/dev": _summary(2, 0.0)}
    html = perspective_section(_publish(tmp_path, data))
    train, dev = html.split("<h3>baseline/dev</h3>")
    rows = _rows(train)
    assert rows[0][1] == "0.0040*" and rows[3][4] == "0.3200*"
    assert sum(cell.endswith("*") for row in rows for cell in row) == 2
    assert train.endswith("</table><p>* in-sample: the ranker learned from these queries</p>")
    assert "*" not in dev and "in-sample" not in dev


def test_names_and_reasons_are_escaped(tmp_path):
    mark = InSample("trained on <all> & more", ("P@4",))
    html = perspective_section(_publish(tmp_path, {"<b>odd</b>": _summary(1, 0.0, mark)}))
    assert "<h3>&lt;b&gt;odd&lt;/b&gt;</h3>" in html
    assert "<p>* in-sample: trained on &lt;all&gt; &amp; more</p>" in html


def test_an_evaluation_of_nothing_gives_an_empty_section(tmp_path):
    assert perspective_section(_publish(tmp_path, {})) == ""
