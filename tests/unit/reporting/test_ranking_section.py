"""The report's comparison table says in its text what the terminal's says: p-values and the significance mark."""

from __future__ import annotations

import re

from argrank.evaluation.comparison import compare
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
    assert f"+0.5150, p {better['p_corrected']:.4f}*" in cells["better"]
    assert 'class=""' in cells["mixed"] and "*" not in cells["mixed"].split("<small>")[1]
    assert "identical to the baseline" in cells["copy"]
    assert "paired t-test" in html and "* p &lt; 0.05" in html
