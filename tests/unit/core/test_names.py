"""Names that become parts of paths (run tags, qrels and experiment names): one plain part, never a reserved one."""

from __future__ import annotations

import pytest

from argrank.core.names import MAX_LENGTH, name_problem


@pytest.mark.parametrize("name", ["bm25", "BM25_k1-0.9", "2024.run", "a" * MAX_LENGTH, "_x", "-x", "evaluation2"])
def test_plain_names_pass(name):
    assert name_problem(name) is None


@pytest.mark.parametrize(
    "name",
    ["", ".hidden", "a/b", "a\\b", "a..b", "..", "with space", "tab\t", "ümlaut", "semi;colon", 12, None, ["a"]],
)
def test_names_that_are_not_one_plain_part_are_refused_with_the_rule(name):
    problem = name_problem(name)
    assert problem == f"a name is at most {MAX_LENGTH} letters, digits, '.', '_' or '-' (no spaces), not starting " \
                      f"with '.' and without '..' (got {name!r})"  # fmt: skip


def test_a_long_name_is_refused_with_its_length_and_start():
    problem = name_problem("x" * (MAX_LENGTH + 1))
    assert problem.endswith(f"(got {MAX_LENGTH + 1} characters: {'x' * 40!r}…)")


@pytest.mark.parametrize("name", ["evaluation", "Manifest", "REPORT"])
def test_the_publishers_own_names_are_reserved_in_any_case(name):
    assert name_problem(name) == f"{name!r} is reserved for a published file (reserved: evaluation, manifest, report)"
