"""The Touché Task 1 run rules: a valid run passes, each violation is named by its first line, real runs too."""

from __future__ import annotations

import re

import pytest

from argrank.core.errors import InputError
from argrank.formats.runfile import RunLine, write_run
from argrank.formats.validation import validate_run
from argrank.tracks.registry import track


def run_rules(name: str):
    """The run-file rules of the registered track `name`."""
    return track(name).run_rules


VALID = """\
51 Q0 a 1 9.5 tag
51 Q0 b 2 9.5 tag
51 Q0 c 3 1 tag
7\tQ0\ta\t1\t3.0\ttag
7 Q0 d 2 -1e3 tag
"""


def check(tmp_path, text: str, **options) -> int:
    path = tmp_path / "run.txt"
    path.write_text(text, encoding="utf-8")
    return validate_run(path, **options)


def test_valid_run_passes_and_counts_its_lines(tmp_path):
    assert check(tmp_path, VALID) == 5


def test_our_own_written_runs_are_valid(tmp_path):
    path = tmp_path / "ours.txt"
    write_run(path, [RunLine(q, "Q0", f"doc{r}", r, 10.0 / r, "argrank") for q in ("1", "2") for r in range(1, 1001)])
    assert validate_run(path) == 2000


@pytest.mark.parametrize(
    ("text", "line", "problem"),
    [
        ("51 Q0 a 1 9.5 tag\n51 Q0 b 2 9.5\n", 2, "expected 6 fields"),
        ("51 Q0 a 1 9.5 tag\n51 Q1 b 2 9.5 tag\n", 2, "column 2 is 'Q1', expected 'Q0'"),
        ("51 Q0 a 1 9.5 tag\n51 Q0 b 2.5 9.5 tag\n", 2, "rank '2.5' is not an integer"),
        ("51 Q0 a 1 9.5 tag\n51 Q0 b 2 nan tag\n", 2, "score 'nan' is not a finite number"),
        ("51 Q0 a 1 9.5 tag\n51 Q0 b 2 9.4 other\n", 2, "tag 'other' differs from 'tag' on line 1"),
        ("51 Q0 a 0 9.5 tag\n", 1, "rank 0 in topic 51, expected 1"),
        ("51 Q0 a 1 9.5 tag\n51 Q0 b 3 9.4 tag\n", 2, "rank 3 in topic 51, expected 2"),
        ("51 Q0 a 1 9.5 tag\n52 Q0 a 2 9.4 tag\n", 2, "rank 2 in topic 52, expected 1"),
        ("51 Q0 a 1 9.5 tag\n51 Q0 b 2 9.6 tag\n", 2, "score 9.6 is higher than 9.5 on the line before"),
        ("51 Q0 a 1 9.5 tag\n51 Q0 b 2 9 tag\n51 Q0 a 3 8 tag\n", 3, "document a appears twice in topic 51 (first on line 1)"),
        ("51 Q0 a 1 3 tag\n51 Q0 b 2 2 tag\n51 Q0 c 3 1 tag\n51 Q0 d 4 0 tag\n", 4, "more than 3 documents for topic 51"),
        ("51 Q0 a 1 9 tag\n52 Q0 a 1 9 tag\n\n51 Q0 b 1 8 tag\n", 4, "topic 51 appears again after other topics (it began on line 1)"),
    ],
)
def test_each_rule_names_its_line(tmp_path, text, line, problem):
    path = tmp_path / "run.txt"
    with pytest.raises(InputError, match=re.escape(f"{path}: line {line}: ") + ".*" + re.escape(problem)):
        check(tmp_path, text, max_per_topic=3)


def test_the_first_offending_line_is_named_not_a_later_one(tmp_path):
    text = "51 Q0 a 1 9 tag\n51 Q0 b 2 10 tag\n51 Q0 a 3 8 tag\n51 Q0 c 4 x tag\n"
    with pytest.raises(InputError, match=r": line 2: score"):
        check(tmp_path, text)


def test_column2_is_a_parameter_for_stance_labels(tmp_path):
    text = "2 FIRST a 1 2 tag\n2 NO b 2 1 tag\n"
    assert check(tmp_path, text, column2={"FIRST", "SECOND", "NEUTRAL", "NO"}) == 2
    with pytest.raises(InputError, match=r": line 1: column 2 is 'FIRST', expected 'Q0'"):
        check(tmp_path, text)


@pytest.mark.parametrize(
    "run", ["runs-2021-elrond/ElrondKRun.txt", "runs-2021-elrond/ElrondTaskBodyRun.txt", "runs-2020-elrond/ElrondKRun.txt"]
)
def test_real_elrond_runs_fail_on_line_1_for_ranks_from_zero(shared_data, run):
    path = shared_data / "touche-task1" / run
    with pytest.raises(InputError, match=re.escape(f"{path}: line 1: rank 0 in topic ") + r"\d+, expected 1"):
        validate_run(path)


def test_comparative_track_allows_q0_or_stance_labels_but_not_both(tmp_path):
    comparative = run_rules("comparative").column2
    assert comparative == {"Q0", "FIRST", "SECOND", "NEUTRAL", "NO"} and run_rules("args").column2 == {"Q0"}
    assert check(tmp_path, "2 SECOND a 1 2 t\n2 NEUTRAL b 2 1 t\n3 NO a 1 1 t\n", column2=comparative) == 3
    assert check(tmp_path, VALID, column2=comparative) == 5
    with pytest.raises(InputError, match=r": line 3: column 2 is 'Q0' but 'FIRST' on line 1; a run gives a stance"):
        check(tmp_path, "2 FIRST a 1 2 t\n2 NO b 2 1 t\n2 Q0 c 3 0 t\n2 Q0 d 4 0 t\n", column2=comparative)
    with pytest.raises(InputError, match=r": line 2: column 2 is 'NO' but 'Q0' on line 1"):
        check(tmp_path, "2 Q0 a 1 2 t\n2 NO b 2 1 t\n", column2=comparative)
    with pytest.raises(InputError, match=r": line 2: column 2 is 'PRO', expected 'FIRST' or 'NEUTRAL' or 'NO'"):
        check(tmp_path, "2 FIRST a 1 2 t\n2 PRO b 2 1 t\n", column2=comparative)


def test_a_quoted_tag_with_spaces_is_rejected_though_the_reader_recovers_it(tmp_path):
    path = tmp_path / "run.txt"
    with pytest.raises(InputError, match=re.escape(f'{path}: line 2: the tag "my run" is quoted and contains spaces')):
        check(tmp_path, '1 Q0 a 1 2 t\n1 Q0 b 2 1 "my run"\n')


def test_real_2022_runs_with_stance_labels(shared_data):
    runs = shared_data / "touche-task2" / "runs-2022"
    assert validate_run(runs / "Grimjack-run1.txt", column2=run_rules("comparative").column2) == 5000
    assert validate_run(runs / "Aldo-Nadi-run3.txt") == 50_000
    assert validate_run(runs / "Aldo-Nadi-run3.txt", column2=run_rules("comparative").column2) == 50_000
    # Katana's tag was submitted quoted and with spaces: the reader recovers it, the rules do not allow it.
    with pytest.raises(
        InputError, match=r'Katana-run1.txt: line 1: the tag "Colbert fine tune on touche data" is quoted and contains spaces'
    ):
        validate_run(runs / "Katana-run1.txt", column2=run_rules("comparative").column2)


IMAGES = """\
1 PRO a 1 9 tag
1 PRO b 2 9 tag
1 PRO c 3 1 tag
1 CON d 1 12 tag
1 CON e 2 0.5 tag
2 CON a 1 3 tag
2 PRO b 1 4 tag
"""


def test_images_rank_each_topic_and_stance_from_one(tmp_path):
    # Scores may rise from one list to the next (lines 4 and 7); a topic may list CON first.
    assert check(tmp_path, IMAGES, rules=run_rules("images")) == 7
    full = "".join(f"7 {s} {s}{r} {r} {-r} t\n" for s in ("PRO", "CON") for r in range(1, 11))
    assert check(tmp_path, full, rules=run_rules("images")) == 20


@pytest.mark.parametrize(
    ("text", "line", "problem"),
    [
        ("1 PRO a 1 9 t\n1 Q0 b 2 8 t\n", 2, "column 2 is 'Q0', expected 'CON' or 'PRO'"),
        ("1 PRO a 1 9 t\n1 NEUTRAL b 2 8 t\n", 2, "column 2 is 'NEUTRAL', expected 'CON' or 'PRO'"),
        ("1 PRO a 1 9 t\n1 CON b 2 8 t\n", 2, "rank 2 in topic 1 CON, expected 1 (ranks run 1, 2, 3, … per topic and"),
        ("1 PRO a 1 9 t\n1 PRO b 3 8 t\n", 2, "rank 3 in topic 1 PRO, expected 2"),
        ("1 PRO a 1 9 t\n1 PRO b 2 10 t\n", 2, "score 10.0 is higher than 9.0 on the line before"),
        ("1 PRO a 1 9 t\n1 CON b 1 9 t\n1 PRO c 2 8 t\n", 3, "topic 1 PRO appears again after other lists (it began"),
        ("1 PRO a 1 9 t\n2 PRO a 1 9 t\n1 PRO c 2 8 t\n", 3, "topic 1 PRO appears again after other lists"),
        ("1 PRO a 1 9 t\n1 CON a 1 9 t\n", 2, "document a appears twice in topic 1 (first on line 1)"),
        ("1 PRO a 1 9 t\n1 CON b 1 9 u\n", 2, "tag 'u' differs from 't' on line 1; a run has one tag"),
        ("".join(f"1 CON i{r} {r} 0 t\n" for r in range(1, 12)), 11, "more than 10 documents for topic 1 CON"),
    ],
)
def test_each_images_rule_names_its_line(tmp_path, text, line, problem):
    path = tmp_path / "run.txt"
    with pytest.raises(InputError, match=re.escape(f"{path}: line {line}: {problem}")):
        check(tmp_path, text, rules=run_rules("images"))


def test_a_topic_ranked_as_one_list_is_not_an_images_run(tmp_path):
    with pytest.raises(InputError, match=r": line 1: column 2 is 'Q0', expected 'CON' or 'PRO'"):
        check(tmp_path, VALID, rules=run_rules("images"))
    with pytest.raises(InputError, match=r": line 1: column 2 is 'PRO', expected 'Q0'"):
        check(tmp_path, IMAGES)


def test_the_track_rules_keep_their_column2_sets():
    assert not run_rules("args").by_stance and not run_rules("comparative").by_stance
    images = run_rules("images")
    assert images.column2 == {"PRO", "CON"} and images.max_per_list == 10
    assert run_rules("perspective") is None  # its runs are JSONL predictions, not TREC runs
