"""A comparison as a terminal table per measure, and rows as a terminal table or CSV."""

from __future__ import annotations

from argrank.evaluation.comparison import Significance, compare
from argrank.evaluation.comparison_text import format_comparison, format_rows, rows_csv

from .test_comparison import PER_TOPIC


def test_the_table_shows_raw_and_corrected_p_and_marks_what_reject_marks():
    comparison = compare("args", "relevance", PER_TOPIC, "base", ["m"])
    text = format_comparison(comparison)
    assert text.splitlines()[0].startswith("args / relevance: 6 topics, baseline base; paired t-test, p-values Holm")
    better = next(line for line in text.splitlines() if line.startswith("better"))
    mixed = next(line for line in text.splitlines() if line.startswith("mixed"))
    entry = comparison.runs["better"]["m"]
    assert better.split()[1:] == ["0.8650", "+0.5150", f"{entry['p']:.4f}", f"{entry['p_corrected']:.4f}", "*",
                                  "6/0/0"]  # fmt: skip
    assert "*" not in mixed and "base (baseline)" in text


def test_the_heading_names_the_test_and_the_correction_chosen():
    comparison = compare("args", "r", PER_TOPIC, "base", ["m"], Significance("wilcoxon", "bonferroni", 0.1))
    assert format_comparison(comparison).splitlines()[0] == (
        "args / r: 6 topics, baseline base; Wilcoxon signed-rank test, p-values Bonferroni-corrected per measure over "
        "the runs tested; * significant at alpha 0.1"
    )


def test_a_measure_only_the_baseline_has_shows_its_mean_alone():
    comparison = compare("args", "r", PER_TOPIC, "base", ["m"], pooled={"base": {"stance_f1": 0.5}})
    text = format_comparison(comparison)
    block = text[text.index("stance_f1") :].splitlines()
    assert block[1].split() == ["base", "(baseline)", "0.5000"]
    assert len(block) == 2  # the other runs have no stance figure: no row


ROWS = [
    {"run": "bm25", "mean": 0.1 + 0.2, "p": None, "reject": True, "topics": 50},
    {"run": "ql", "mean": 0.25, "p": 0.012345, "reject": False, "topics": 50},
]


def test_rows_as_a_terminal_table_with_four_decimals_dashes_for_none_and_lowercase_booleans():
    assert format_rows(ROWS, ["run", "mean", "p", "reject", "topics"]).splitlines() == [
        "run     mean       p  reject  topics",
        "----  ------  ------  ------  ------",
        "bm25  0.3000       -    true      50",
        "ql    0.2500  0.0123   false      50",
    ]


def test_rows_as_csv_at_full_precision_empty_for_none_and_lowercase_booleans():
    assert rows_csv(ROWS, ["run", "mean", "p", "reject", "topics"]).splitlines() == [
        "run,mean,p,reject,topics",
        "bm25,0.30000000000000004,,true,50",
        "ql,0.25,0.012345,false,50",
    ]
    assert rows_csv([{"run": "a,b"}], ["run"]) == 'run\n"a,b"\n'  # quoted as CSV needs
