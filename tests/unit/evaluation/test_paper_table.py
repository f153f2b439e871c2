"""A comparison as a paper's table: the best value per measure in bold, superscript letters for significant
improvements as ranx marks them, the caption naming test, correction and alpha, LaTeX and Markdown escaped."""

from __future__ import annotations

import pytest

from argrank.evaluation.comparison import Significance, compare
from argrank.evaluation.paper_table import html, latex, markdown, paper_table

TOPICS = "123456"
SCORES = {  # run → measure → per-topic scores
    "bm25": {"nDCG@5": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6], "P@10": [0.2, 0.2, 0.2, 0.2, 0.2, 0.2]},
    "my_run": {"nDCG@5": [0.9, 0.8, 0.95, 0.7, 0.85, 0.99], "P@10": [0.1, 0.3, 0.2, 0.1, 0.3, 0.2]},
    "weak": {"nDCG@5": [0.0, 0.1, 0.1, 0.2, 0.3, 0.4], "P@10": [0.3, 0.2, 0.2, 0.3, 0.2, 0.2]},
}
PER_TOPIC = {run: {t: {m: v[i] for m, v in by.items()} for i, t in enumerate(TOPICS)} for run, by in SCORES.items()}
MEASURES = ["nDCG@5", "P@10"]


def _table(*baselines: str, **settings):
    significance = Significance(**settings)
    return paper_table([compare("args", "relevance", PER_TOPIC, b, MEASURES, significance) for b in baselines])


def test_each_run_has_a_letter_the_best_is_bold_and_a_significant_win_is_marked_on_the_winner():
    table = _table("bm25")
    assert table.letters == ["a", "b", "c"] and table.runs == ["bm25", "my_run", "weak"]
    ndcg = {run: row[0] for run, row in zip(table.runs, table.cells)}
    assert ndcg["my_run"].best and not ndcg["bm25"].best
    assert ndcg["my_run"].better_than == "a"  # my_run beats the baseline bm25 (t-test, Holm, 6 topics)
    assert ndcg["bm25"].better_than == "c"  # the baseline beats weak, significantly worse than it
    assert ndcg["weak"].better_than == ""
    p10 = {run: row[1] for run, row in zip(table.runs, table.cells)}
    assert p10["weak"].best and not any(cell.better_than for cell in p10.values())  # no significant difference


def test_with_several_baselines_each_is_tested_and_the_caption_names_them():
    one, two = _table("bm25"), _table("bm25", "weak")
    assert two.cells[1][0].better_than == "ac"  # my_run beats both baselines
    assert one.cells[1][0].better_than == "a"  # against bm25 alone, my_run is not tested against weak
    assert "against bm25, weak" in two.caption and "Holm-corrected" in two.caption and "alpha 0.05" in two.caption


def test_tukeys_hsd_marks_every_significant_pair():
    table = _table("bm25", test="tukey")
    assert "Tukey's HSD over all runs (adjusted for all pairs)" in table.caption
    assert table.cells[1][0].better_than == "ac"  # my_run beats bm25 and weak; bm25 vs weak: not significant
    assert table.cells[0][0].better_than == ""


def test_the_randomization_test_is_named_with_its_permutations_and_seed():
    table = _table("bm25", test="fisher", permutations=999, seed=3, correction="bonferroni")
    assert "paired randomization test, 999 permutations, seed 3 against bm25" in table.caption
    assert "Bonferroni-corrected" in table.caption


def test_the_latex_table_is_booktabs_with_bold_superscripts_and_escaped_names():
    text = latex(_table("bm25"), "tab:main")
    lines = text.splitlines()
    assert lines[:4] == [r"\begin{table}[t]", r"\centering", lines[2], r"\label{tab:main}"]
    assert r"\toprule" in lines and r"\midrule" in lines and r"\bottomrule" in lines
    assert r" & Run & nDCG@5 & P@10 \\" in lines  # measures in the order given, not sorted
    assert r"b & my\_run & \textbf{0.8650}$^{a}$ & 0.2000 \\" in lines
    assert r"a & bm25 & 0.3500$^{c}$ & 0.2000 \\" in lines
    assert r"\caption{args, relevance: mean over 6 topics" in lines[2]


def test_the_markdown_table_has_the_caption_bold_and_superscripts():
    text = markdown(_table("bm25"))
    assert text.startswith("Table: args, relevance: mean over 6 topics")
    assert "| | Run | nDCG@5 | P@10 |" in text
    assert "| b | my_run | **0.8650**<sup>a</sup> | 0.2000 |" in text


def test_the_html_table_escapes_and_marks_the_same_cells():
    page = html(_table("bm25"))
    assert "<td>my_run</td><td><b>0.8650</b><sup>a</sup></td>" in page and "<caption>" in page


def test_a_table_needs_a_comparison_and_at_most_52_runs():
    with pytest.raises(ValueError, match="no comparison"):
        paper_table([])
    many = {f"r{i}": PER_TOPIC["bm25"] for i in range(53)}
    assert paper_table([compare("args", "q", dict(list(many.items())[:52]), "r0", MEASURES)]).letters[-1] == "Z"
    with pytest.raises(ValueError, match="53 runs"):
        paper_table([compare("args", "q", many, "r0", MEASURES)])
