"""The report's comparison table says in its text what the terminal's says: p-values and the significance mark, with
the command line's marks (the best in bold, a dagger for significance)."""

from __future__ import annotations

import re

from argrank.evaluation.comparison import compare
from argrank.evaluation.names import SIGNIFICANT
from argrank.reporting.html import CSS
from argrank.reporting.ranking_section import _comparison_table

PER_TOPIC = {
    "base": {str(t): {"m": t / 10} for t in range(1, 7)},
    "better": {"1": {"m": 0.9}, "2": {"m": 0.8}, "3": {"m": 0.95}, "4": {"m": 0.7}, "5": {"m": 0.85}, "6": {"m": 0.99}},
    "mixed": {"1": {"m": 0.2}, "2": {"m": 0.2}, "3": {"m": 0.1}, "4": {"m": 0.5}, "5": {"m": 0.4}, "6": {"m": 0.6}},
}


def test_cells_show_difference_corrected_p_and_mark_exactly_what_reject_marks():
    comparison = compare("args", "relevance", {**PER_TOPIC, "copy": PER_TOPIC["base"]}, "base", ["m"])
    html = _comparison_table(comparison)
    cells = dict(re.findall(r"<tr><td>([^<]+)</td>(<td.*?</td>)</tr>", html))
    better = comparison.runs["better"]["m"]
    assert better["reject"] and 'class="better"' in cells["better"]
    assert f"+0.5150, p {better['p_corrected']:.4f}{SIGNIFICANT}" in cells["better"]
    assert 'class=""' in cells["mixed"] and SIGNIFICANT not in cells["mixed"].split("<small>")[1]
    assert "identical to the baseline" in cells["copy"] and "*" not in html
    assert "paired t-test, each run against the baseline base, p-values Holm-corrected" in html
    assert f"{SIGNIFICANT} marks a significant difference" in html and "alpha 0.05" in html


def test_bold_is_the_best_mean_per_measure_not_significance():
    html = _comparison_table(compare("args", "relevance", PER_TOPIC, "base", ["m"]))
    assert re.findall(r"<b>(.*?)</b>", html) == ["0.8650"] and "the best value per measure in bold" in html
    assert "font-weight" not in CSS.split("td.better")[1].split("}")[0]  # a significant cell is coloured, not bold
