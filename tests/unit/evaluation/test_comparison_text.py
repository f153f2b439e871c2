"""A comparison as a terminal table per measure (every pair's too where every pair was tested), and rows as a terminal
table or CSV."""

from __future__ import annotations

from argrank.evaluation.comparison import Significance, compare
from argrank.evaluation.comparison_text import format_comparison, format_rows, rows_csv
from argrank.evaluation.in_sample import MARK
from argrank.evaluation.names import SIGNIFICANT

from .test_comparison import PER_TOPIC


def test_the_table_shows_raw_and_corrected_p_and_marks_what_reject_marks_with_a_dagger():
    comparison = compare("args", "relevance", PER_TOPIC, "base", ["m"])
    text = format_comparison(comparison)
    assert text.splitlines()[0].startswith("args / relevance: 6 topics, baseline base; paired t-test, each run against "
                                           "the baseline base, p-values Holm")  # fmt: skip
    better = next(line for line in text.splitlines() if line.startswith("better"))
    mixed = next(line for line in text.splitlines() if line.startswith("mixed"))
    entry = comparison.runs["better"]["m"]
    assert better.split()[1:] == ["0.8650", "+0.5150", f"{entry['p']:.4f}", f"{entry['p_corrected']:.4f}",
                                  SIGNIFICANT, "6/0/0"]  # fmt: skip
    assert SIGNIFICANT not in mixed and "*" not in text and "base (baseline)" in text  # * is the in-sample mark
    assert SIGNIFICANT != MARK


def test_the_heading_names_the_test_the_pairs_and_the_correction_chosen():
    comparison = compare("args", "r", PER_TOPIC, "base", ["m"], Significance("wilcoxon", "bonferroni", 0.1))
    assert format_comparison(comparison).splitlines()[0] == (
        "args / r: 6 topics, baseline base; Wilcoxon signed-rank test, each run against the baseline base, p-values "
        f"Bonferroni-corrected per measure over the runs tested against the baseline; alpha 0.1; {SIGNIFICANT} marks "
        "a significant difference"
    )
    none = format_comparison(compare("args", "r", PER_TOPIC, "base", ["m"], Significance(correction="none")))
    assert "p-values not corrected for multiple testing" in none and "p (uncorrected)" in none


def test_tukey_is_named_as_tukeys_hsd_adjusted_for_all_pairs_and_every_pair_is_shown():
    comparison = compare("args", "r", PER_TOPIC, "base", ["m"], Significance("tukey"))
    text = format_comparison(comparison)
    assert "Tukey's HSD, adjusted for all pairs, every pair of runs; alpha 0.05" in text.splitlines()[0]
    assert "Holm" not in text and "p (Tukey)" in text
    pairs = text[text.index("m: p (Tukey) of each pair") :].splitlines()
    assert pairs[0].split()[-3:] == ["a", "b", "c"]
    better = comparison.pairs["m"]["better"]
    assert pairs[2].split() == ["b", "better", *(f"{better[other]:.4f}{SIGNIFICANT}" for other in ("base", "mixed"))]


def test_decimals_are_chosen():
    comparison = compare("args", "r", PER_TOPIC, "base", ["m"])
    better = next(line for line in format_comparison(comparison, 2).splitlines() if line.startswith("better"))
    assert better.split()[1:3] == ["0.86", "+0.51"]  # 0.515 is 0.51499… as a double
    assert format_rows(ROWS, ["run", "mean"], decimals=6).splitlines()[2].split() == ["bm25", "0.300000"]


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
