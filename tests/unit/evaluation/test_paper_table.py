"""A comparison as a paper's table: the best value per measure in bold, superscript letters for significant
improvements as ranx marks them (against the baselines, or between every pair), a caption that says how it was
tested and names no file, LaTeX and Markdown escaped so that any name reads back as itself."""

from __future__ import annotations

import re
from html import unescape

import numpy as np
import pytest
from markdown_it import MarkdownIt
from ranx.data_structures import Report
from ranx.statistical_tests import compute_statistical_significance

from argrank.evaluation.comparison import Significance, compare
from argrank.evaluation.paper_table import (
    Grid,
    Shown,
    html,
    latex,
    latex_text,
    markdown,
    markdown_grid,
    markdown_text,
    paper_table,
)

TOPICS = "123456"
SCORES = {  # run → measure → per-topic scores
    "bm25": {"nDCG@5": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6], "P@10": [0.2, 0.2, 0.2, 0.2, 0.2, 0.2]},
    "my_run": {"nDCG@5": [0.9, 0.8, 0.95, 0.7, 0.85, 0.99], "P@10": [0.1, 0.3, 0.2, 0.1, 0.3, 0.2]},
    "weak": {"nDCG@5": [0.0, 0.1, 0.1, 0.2, 0.3, 0.4], "P@10": [0.3, 0.2, 0.2, 0.3, 0.2, 0.2]},
}
PER_TOPIC = {run: {t: {m: v[i] for m, v in by.items()} for i, t in enumerate(TOPICS)} for run, by in SCORES.items()}
MEASURES = ["nDCG@5", "P@10"]
LATEX_TAG = "_&%$#{}~^\\"
MARKDOWN_TAG = "*a*_[x](y)<b>|"
# The LaTeX of each character our escaping writes, read back (what a reader of the PDF sees): the commands, a
# backslash-escaped character, and the empty groups that keep ligatures apart.
LATEX_READ = {r"\textbackslash{}": "\\", r"\textasciitilde{}": "~", r"\textasciicircum{}": "^", r"\textless{}": "<",
              r"\textgreater{}": ">", r"\textbar{}": "|", r"\UseTextSymbol{T1}{\textquotedbl}": '"',
              r"\dag{}": "\N{DAGGER}", "{}": ""}  # fmt: skip
LATEX_TOKEN = re.compile("|".join(map(re.escape, LATEX_READ)) + r"|\\(.)")

def _table(*baselines: str, qrels: str = "relevance", per_topic=PER_TOPIC, **settings):
    significance = Significance(**settings)
    return paper_table([compare("args", qrels, per_topic, b, MEASURES, significance) for b in baselines])


def _latex_read(text: str) -> str:
    return LATEX_TOKEN.sub(lambda found: found.group(1) or LATEX_READ[found.group(0)], text)


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


def test_the_caption_says_which_pairs_were_tested_the_test_correction_and_alpha_and_names_no_file():
    one, two = _table("bm25", qrels="touche-task2-2022-relevance.qrels"), _table("bm25", "weak")
    assert two.cells[1][0].better_than == "ac"  # my_run beats both baselines
    assert one.cells[1][0].better_than == "a"  # against bm25 alone, my_run is not tested against weak
    assert one.caption == (
        "Mean over 6 topics; the best value per measure in bold. A superscript letter marks a significant improvement "
        "over the run of that letter (paired t-test, each run against the baseline bm25, p-values Holm-corrected per "
        "measure over the runs tested against the baseline; alpha 0.05)."
    )
    assert "each run against each baseline (bm25, weak)" in two.caption and "Holm-corrected" in two.caption
    for table in (one, two, _table("bm25", qrels="qrels")):  # the Python API's judgments are named "qrels"
        assert "qrels" not in table.caption and "relevance" not in table.caption and "args" not in table.caption


def test_no_correction_is_said_as_such():
    table = _table("bm25", correction="none")
    assert "paired t-test, each run against the baseline bm25, p-values not corrected for multiple testing; alpha " \
           "0.05" in table.caption  # fmt: skip


def test_every_pair_tested_gives_ranx_letters():
    rng = np.random.default_rng(3)
    base = rng.random(30)
    scores = {f"r{i}": np.clip(base + rng.normal(0.04 * i, 0.08, 30), 0, 1) for i in range(5)}
    per_topic = {tag: {str(t): {"nDCG@5": float(v[t]), "P@10": float(v[t])} for t in range(30)}
                 for tag, v in scores.items()}  # fmt: skip
    table = _table("r0", per_topic=per_topic, correction="none", pairs_tested="all")
    names = list(scores)
    means = {tag: {"nDCG@5": float(np.mean(v))} for tag, v in scores.items()}
    tests = compute_statistical_significance(names, {tag: {"nDCG@5": v} for tag, v in scores.items()}, "student",
                                             max_p=0.05)  # fmt: skip
    report = Report(names, means, tests, ["nDCG@5"], 0.05, {}, stat_test="student")
    ranx = [report.get_superscript_for_latex(tag, "nDCG@5") for tag in names]
    assert [row[0].better_than for row in table.cells] == ranx
    assert any(len(letters) > 1 for letters in ranx) and ranx != [row[0].better_than for row in _table(
        "r0", per_topic=per_topic, correction="none").cells]  # fmt: skip
    assert "paired t-test, every pair of runs, p-values not corrected" in table.caption
    corrected = _table("r0", per_topic=per_topic, pairs_tested="all")  # Holm over the ten pairs: fewer letters
    assert "Holm-corrected per measure over all pairs" in corrected.caption
    assert sum(map(len, (row[0].better_than for row in corrected.cells))) < sum(map(len, ranx))


def test_tukeys_hsd_marks_every_significant_pair_and_is_named_as_such():
    table = _table("bm25", test="tukey")
    assert "Tukey's HSD, adjusted for all pairs, every pair of runs; alpha 0.05" in table.caption
    assert "Holm" not in table.caption
    assert table.cells[1][0].better_than == "ac"  # my_run beats bm25 and weak; bm25 vs weak: not significant
    assert table.cells[0][0].better_than == ""


def test_the_randomization_test_is_named_with_its_permutations_and_seed():
    table = _table("bm25", test="fisher", permutations=9999, seed=3, correction="bonferroni")
    assert "paired randomization test with 9,999 permutations, seed 3, each run against the baseline bm25" in \
           table.caption  # fmt: skip
    assert "Bonferroni-corrected" in table.caption


def test_the_latex_table_is_booktabs_with_bold_superscripts_and_escaped_names():
    text = latex(_table("bm25"), "tab:main")
    lines = text.splitlines()
    assert lines[:4] == [r"\begin{table}[t]", r"\centering", lines[2], r"\label{tab:main}"]
    assert r"\toprule" in lines and r"\midrule" in lines and r"\bottomrule" in lines
    assert r" & Run & nDCG@5 & P@10 \\" in lines  # measures in the order given, not sorted
    assert r"b & my\_run & \textbf{0.8650}$^{a}$ & 0.2000 \\" in lines
    assert r"a & bm25 & 0.3500$^{c}$ & 0.2000 \\" in lines
    assert lines[2].startswith(r"\caption{Mean over 6 topics; the best value per measure in bold.")


def test_the_markdown_table_has_the_caption_bold_and_superscripts():
    text = markdown(_table("bm25"))
    assert text.startswith("Table: Mean over 6 topics; the best value per measure in bold.")
    assert "|  | Run | nDCG@5 | P@10 |" in text
    assert r"| b | my\_run | **0.8650**<sup>a</sup> | 0.2000 |" in text


def test_the_html_table_escapes_and_marks_the_same_cells():
    page = html(_table("bm25"))
    assert "<td>my_run</td><td><b>0.8650</b><sup>a</sup></td>" in page and "<caption>" in page


def test_decimals_are_chosen():
    table = _table("bm25")
    assert r"\textbf{0.86}$^{a}$" in latex(table, decimals=2) and "**0.865000**" in markdown(table, decimals=6)
    assert "<b>0.9</b>" in html(table, decimals=1)


def test_every_latex_special_character_is_escaped_and_reads_back():
    per_topic = {LATEX_TAG if tag == "my_run" else tag: by for tag, by in PER_TOPIC.items()}
    text = latex(_table("bm25", per_topic=per_topic))
    row = next(line for line in text.splitlines() if line.startswith("b & "))
    name = row.split(" & ")[1]
    assert _latex_read(name) == LATEX_TAG
    assert not re.search(r"(?<!\\)[&%$#_^~]", name.replace("\\textasciitilde{}", "").replace("\\textasciicircum{}", ""))
    for tag in ("a--b", "x''y", '"q"', "<a|b>", "!`?`,,"):
        escaped = latex_text(tag)
        assert _latex_read(escaped) == tag and "--" not in escaped and "''" not in escaped and ",," not in escaped


def test_every_markdown_special_character_is_escaped_and_renders_as_itself():
    tags = [MARKDOWN_TAG, "a\\|b", "&amp; `code` ~~gone~~ $x$ ^up^ {.class} [@cite]", LATEX_TAG]
    grid = Grid(f"caption naming {MARKDOWN_TAG}", ["", "Run", "m"], [[Shown("a"), Shown(tag), Shown("0.5", True, "b")]
                                                                    for tag in tags])  # fmt: skip
    rendered = MarkdownIt("commonmark").enable("table").render(markdown_grid(grid))
    cells = re.findall(r"<tr>\s*<td>(.*?)</td>\s*<td>(.*?)</td>", rendered)
    assert [unescape(name) for _, name in cells] == tags
    assert rendered.count("<strong>0.5</strong><sup>b</sup>") == len(tags)
    assert f"<p>Table: caption naming {MARKDOWN_TAG.replace('<', '&lt;').replace('>', '&gt;')}</p>" in rendered
    assert "<a " not in rendered and "<em>" not in rendered and "<b>" not in rendered and "<code>" not in rendered
    per_topic = {MARKDOWN_TAG if tag == "my_run" else tag: by for tag, by in PER_TOPIC.items()}
    table = markdown(_table("bm25", per_topic=per_topic))
    assert r"| b | \*a\*\_\[x\](y)&lt;b&gt;\| | **0.8650**<sup>a</sup> |" in table


@pytest.mark.parametrize("tag", ["two\nlines", "tab\there", "carriage\rreturn", "line\u2028separator", "nul\x00"])
def test_a_name_with_a_newline_or_control_character_is_refused_by_name(tag):
    per_topic = {tag if run == "my_run" else run: by for run, by in PER_TOPIC.items()}
    table = _table("bm25", per_topic=per_topic)
    for write in (latex, markdown, latex_text, markdown_text):
        with pytest.raises(ValueError, match=re.escape(repr(tag))):
            write(table if write in (latex, markdown) else tag)
    assert "my_run" not in html(table) and "<td>" in html(table)  # HTML writes it as text: no row breaks


def test_a_table_needs_a_comparison_and_at_most_52_runs():
    with pytest.raises(ValueError, match="no comparison"):
        paper_table([])
    many = {f"r{i}": PER_TOPIC["bm25"] for i in range(53)}
    assert paper_table([compare("args", "q", dict(list(many.items())[:52]), "r0", MEASURES)]).letters[-1] == "Z"
    with pytest.raises(ValueError, match="53 runs"):
        paper_table([compare("args", "q", many, "r0", MEASURES)])
