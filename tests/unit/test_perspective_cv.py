"""Issue-level folds of the perspective cross-validation: disjoint issues, every query held out once, no held-out
judgment in training, and bad input refused before any index is built."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from argrank.core.errors import InputError
from argrank.tracks.perspective.cross_validation import cross_validate, filter_by_property, split_by_issue
from argrank.tracks.perspective.data import query_file, read_queries
from argrank.tracks.perspective.ranking import training_from_queries
from workflows.cli import main

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "data" / "perspective"
BASELINE = read_queries(query_file(DATA, "baseline", "train"))
PERSPECTIVE = read_queries(query_file(DATA, "explicit", "train"))


def issue(query) -> frozenset[int]:
    return frozenset(query.relevant_candidates)


@pytest.mark.parametrize("folds", [2, 3, 4])
def test_folds_hold_out_whole_issues_and_every_query_once(folds):
    split = split_by_issue(BASELINE, PERSPECTIVE, folds, DATA)
    assert len(split) == folds
    numbers = [number for fold in split for number in fold.issues]
    assert sorted(numbers) == list(range(len({issue(query) for query in BASELINE})))  # each issue in one fold
    held_out = [{issue(query) for query in fold.baseline} for fold in split]
    assert all(not a & b for i, a in enumerate(held_out) for b in held_out[i + 1 :])
    for scenario, queries in (("baseline", BASELINE), ("explicit", PERSPECTIVE)):
        ids = [query.query_id for fold in split for query in fold.queries(scenario)]
        assert sorted(ids) == sorted(query.query_id for query in queries)  # each exactly once
    for fold, issues in zip(split, held_out):
        assert all(set(query.relevant_candidates) <= set().union(*issues) for query in fold.perspective)


@pytest.mark.parametrize("folds", [2, 4])
def test_training_never_holds_a_held_out_issue(folds):
    split = split_by_issue(BASELINE, PERSPECTIVE, folds, DATA)
    for held_out in split:
        others = [fold for fold in split if fold is not held_out]
        training = training_from_queries(
            [q for fold in others for q in fold.baseline], [q for fold in others for q in fold.perspective], int
        )
        trained = {frozenset(members.tolist()) for members in training.issues}
        assert trained.isdisjoint(issue(query) for query in held_out.baseline)
        held_arguments = set().union(*(issue(query) for query in held_out.baseline))
        examples = [set(have.tolist()) | set(lack.tolist()) for have, lack in training.properties.values()]
        assert held_arguments.isdisjoint(set().union(*examples))


def test_folds_are_deterministic():
    first, second = (split_by_issue(BASELINE, PERSPECTIVE, 2, DATA) for _ in range(2))
    assert [fold.issues for fold in first] == [fold.issues for fold in second] == [[0, 2], [1, 3]]
    assert [[q.query_id for q in fold.perspective] for fold in first] == [
        [q.query_id for q in fold.perspective] for fold in second
    ]


def test_more_folds_than_issues_or_fewer_than_two_are_refused():
    with pytest.raises(InputError, match="5 folds need at least 5 issues; .* have 4"):
        split_by_issue(BASELINE, PERSPECTIVE, 5, DATA)
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
        (["--folds", "9"], "9 folds need at least 9 issues"),
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
