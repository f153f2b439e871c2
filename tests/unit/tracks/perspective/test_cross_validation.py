"""Issue-level folds of the perspective cross-validation: disjoint issues, every query held out once, no held-out
judgment in training, and bad input refused before any index is built."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from argrank.core.errors import InputError
from argrank.tracks.perspective.cross_validation import (
    cross_validate,
    default_lockbox,
    filter_by_property,
    lockbox_issues,
    split_by_issue,
)
from argrank.tracks.perspective.data import query_file, read_queries
from argrank.tracks.perspective.ranking import training_from_queries
from workflows.cli import main

REPO = Path(__file__).resolve().parents[4]
DATA = REPO / "data" / "perspective"
BASELINE = read_queries(query_file(DATA, "baseline", "train"))
PERSPECTIVE = read_queries(query_file(DATA, "explicit", "train"))


def issue(query) -> frozenset[int]:
    return frozenset(query.relevant_candidates)


@pytest.mark.parametrize("folds, lockbox", [(2, 0), (3, 0), (4, 0), (2, 1), (2, 2), (3, None)])
def test_folds_and_lockbox_hold_out_whole_issues_and_every_query_once(folds, lockbox):
    split = split_by_issue(BASELINE, PERSPECTIVE, folds, DATA, lockbox)
    parts = [*split.folds, *([split.lockbox] if split.lockbox else [])]
    assert len(split.folds) == folds and len(parts) == folds + (1 if lockbox != 0 else 0)
    assert len(split.lockbox.issues if split.lockbox else []) == (1 if lockbox is None else lockbox)  # 4 // 4
    numbers = [number for fold in parts for number in fold.issues]
    assert sorted(numbers) == list(range(split.issues)) == list(range(len({issue(q) for q in BASELINE})))
    held_out = [{issue(query) for query in fold.baseline} for fold in parts]
    assert all(not a & b for i, a in enumerate(held_out) for b in held_out[i + 1 :])
    for scenario, queries in (("baseline", BASELINE), ("explicit", PERSPECTIVE)):
        ids = [query.query_id for fold in parts for query in fold.queries(scenario)]
        assert sorted(ids) == sorted(query.query_id for query in queries)  # each exactly once
    for fold, issues in zip(parts, held_out):
        assert all(set(query.relevant_candidates) <= set().union(*issues) for query in fold.perspective)


@pytest.mark.parametrize("folds, lockbox", [(2, 0), (4, 0), (2, 1), (2, 2)])
def test_training_never_holds_a_held_out_issue_nor_the_lockbox(folds, lockbox):
    split = split_by_issue(BASELINE, PERSPECTIVE, folds, DATA, lockbox)
    locked = {issue(query) for query in split.lockbox.baseline} if split.lockbox else set()
    for held_out in split.folds:
        others = [fold for fold in split.folds if fold is not held_out]
        training = training_from_queries(
            [q for fold in others for q in fold.baseline], [q for fold in others for q in fold.perspective], int
        )
        trained = {frozenset(members.tolist()) for members in training.issues}
        assert trained.isdisjoint(issue(query) for query in held_out.baseline) and trained.isdisjoint(locked)
        held_arguments = set().union(*(issue(query) for query in held_out.baseline), *locked)
        examples = [set(have.tolist()) | set(lack.tolist()) for have, lack in training.properties.values()]
        assert held_arguments.isdisjoint(set().union(*examples))


def test_folds_and_lockbox_are_deterministic_and_do_not_depend_on_query_order():
    first, second = (split_by_issue(BASELINE, PERSPECTIVE, 2, DATA, 0) for _ in range(2))
    assert [fold.issues for fold in first.folds] == [fold.issues for fold in second.folds] == [[0, 2], [1, 3]]
    assert [[q.query_id for q in fold.perspective] for fold in first.folds] == [
        [q.query_id for q in fold.perspective] for fold in second.folds
    ]
    shuffled = split_by_issue(BASELINE[::-1], PERSPECTIVE[::-1], 2, DATA, 2)
    assert shuffled.lockbox.issues == split_by_issue(BASELINE, PERSPECTIVE, 2, DATA, 2).lockbox.issues


def test_the_lockbox_is_a_quarter_of_the_issues_fixed_by_their_judgments_alone():
    issues = [tuple(range(start, start + 3)) for start in range(0, 105, 3)]  # 35 issues
    locked = lockbox_issues(issues, default_lockbox(len(issues)))
    assert len(locked) == 8 and locked == sorted(locked)
    assert set(locked) < set(lockbox_issues(issues, 9))  # a larger lockbox keeps the smaller one
    assert locked != list(range(8))  # not the first issues in sort order: spread by the digest
    renumbered = [tuple(i + 1 for i in issue) for issue in issues]
    assert lockbox_issues(renumbered, 8) != locked  # other judgments, other lockbox


def test_more_folds_than_issues_or_fewer_than_two_are_refused():
    with pytest.raises(InputError, match="5 folds need at least 5 issues; .* have 4"):
        split_by_issue(BASELINE, PERSPECTIVE, 5, DATA, 0)
    with pytest.raises(InputError, match="3 folds and a lockbox of 2 need at least 5 issues; .* have 4"):
        split_by_issue(BASELINE, PERSPECTIVE, 3, DATA, 2)
    with pytest.raises(ValueError, match="at least 2 folds"):
        split_by_issue(BASELINE, PERSPECTIVE, 1, DATA)


def test_filter_by_property_puts_authors_with_it_first_each_group_in_order():
    has = np.array([False, True, False, True])
    assert filter_by_property([10, 11, 12, 13], has, lambda argument: argument - 10) == [11, 13, 10, 12]


def test_a_folder_without_query_files_is_one_input_error(tmp_path):
    shutil.copy(DATA / "corpus.jsonl", tmp_path / "corpus.jsonl")
    with pytest.raises(InputError, match="queries file not found"):
        cross_validate(tmp_path, 2)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--folds", "1"], "--folds must be at least 2"),
        (["--folds", "9"], "9 folds and a lockbox of 1 need at least 10 issues"),
        (["--lockbox", "-1"], "--lockbox must be 0 or more"),
        (["--diversify", "2"], "--diversify must be from 0 to 1"),
        (["--scenario", "other"], "invalid choice"),
    ],
)
def test_the_command_refuses_bad_input_in_one_line(args, message, capsys):
    try:
        status = main(["perspective-cv", "--data", str(DATA), *args])
    except SystemExit as exit_:  # argparse's usage error
        status = exit_.code
    assert status == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert message in error


def test_the_command_names_a_folder_without_query_files(tmp_path, capsys):
    shutil.copy(DATA / "corpus.jsonl", tmp_path / "corpus.jsonl")
    assert main(["perspective-cv", "--data", str(tmp_path)]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("argrank: error: ") and "queries_train.jsonl: queries file not found" in line
