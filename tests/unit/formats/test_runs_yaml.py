"""The runs file's YAML reader: safe, a repeated key refused where it stands, aliases bounded in what they expand to."""

from __future__ import annotations

import pytest
import yaml

from argrank.formats.runs_yaml import MAX_NODES, RunsFileLoader, TooLarge


def _load(text: str):
    return yaml.load(text, Loader=RunsFileLoader)  # the safe loader, subclassed


def _laughs(levels: int) -> str:
    """Anchors each listing the previous one ten times: level n stands for about 10^n values."""
    lines = ["l0: &l0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"l{n}: &l{n} [{', '.join([f'*l{n - 1}'] * 10)}]" for n in range(1, levels)]
    return "\n".join(lines) + "\n"


def test_a_runs_file_reads_as_plain_yaml_with_merge_keys():
    text = "defaults: &d {k1: 0.9, b: 0.4}\nruns:\n  - tag: bm25\n    <<: *d\n    k1: [0.6, 1.2]\n"
    assert _load(text) == {"defaults": {"k1": 0.9, "b": 0.4}, "runs": [{"tag": "bm25", "k1": [0.6, 1.2], "b": 0.4}]}


@pytest.mark.parametrize(
    ("text", "key", "line"),
    [("k1: 0.9\nb: 0.4\nk1: 1.2\n", "'k1'", 3), ("runs:\n  - {tag: a, model: bm25, tag: b}\n", "'tag'", 2)],
)
def test_a_key_given_twice_is_refused_at_its_second_place(text, key, line):
    with pytest.raises(yaml.constructor.ConstructorError) as error:
        _load(text)
    assert f"duplicate key {key} (the second would replace the first)" in str(error.value)
    assert error.value.problem_mark.line + 1 == line


def test_the_same_key_in_two_mappings_is_no_duplicate():
    assert _load("a: {k1: 1}\nb: {k1: 2}\n") == {"a": {"k1": 1}, "b": {"k1": 2}}


def test_aliases_that_stay_within_the_bound_are_expanded():
    data = _load(_laughs(4))
    assert len(data["l3"]) == 10 and data["l3"][0][0][0] == ["x"] * 10


def test_aliases_that_expand_past_the_bound_are_refused_before_they_are_built():
    assert 10**5 <= MAX_NODES < 10**6
    with pytest.raises(TooLarge, match=f"^its aliases expand to more than {MAX_NODES:,} values$"):
        _load(_laughs(6))


def test_an_alias_inside_its_own_value_is_refused():
    with pytest.raises(TooLarge, match="^an alias refers to a value that holds it$"):
        _load("a: &x [1, *x]\n")


def test_python_objects_are_not_built():
    with pytest.raises(yaml.constructor.ConstructorError):
        _load("!!python/object/apply:os.system ['true']\n")
