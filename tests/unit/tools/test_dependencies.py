"""pyproject's requirements are ranges, so argrank installs into an existing PyTerrier or Pyserini environment, and
constraints.txt is the tested set inside them that the Makefile installs from."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from argrank.core.errors import InputError
from tools.dependencies import CONSTRAINTS, lowest_pins, requirements

REPO = Path(__file__).resolve().parents[3]


def pinned() -> dict[str, Version]:
    """constraints.txt as {canonical name: version}; every line that is no comment must be `name==version`."""
    pins = {}
    for number, line in enumerate(CONSTRAINTS.read_text(encoding="utf-8").splitlines(), start=1):
        if line and not line.startswith("#"):
            name, equals, version = line.partition("==")
            assert equals and name and version, f"constraints.txt:{number}: not name==version: {line}"
            pins[canonicalize_name(name)] = Version(version)
    return pins


def test_every_requirement_is_a_range_with_one_lower_bound():
    for text in requirements():
        operators = [spec.operator for spec in Requirement(text).specifier]
        assert operators.count(">=") == 1, f"{text}: needs one lower bound (>=)"
        assert not {"==", "===", "~="} & set(operators), f"{text}: a pin, not a range"


def test_constraints_pin_every_requirement_inside_its_range():
    pins = pinned()
    for text in requirements():
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{requirement.name} is not pinned in constraints.txt"
        assert requirement.specifier.contains(pins[name]), f"constraints.txt's {name}=={pins[name]} is outside {text}"


def test_constraints_pin_what_the_requirements_bring_but_not_argrank():
    pins = pinned()
    assert "argrank" not in pins
    assert {"thinc", "contourpy", "joblib"} <= set(pins), "the packages the requirements bring are pinned too"


def test_the_makefile_installs_from_the_constraints_and_reinstalls_when_they_change():
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    installs = re.findall(r"pip install .*", makefile)
    assert len(installs) == 2 and all(" -c constraints.txt " in line for line in installs), installs
    assert re.search(r"^\$\(STAMP\):.*\bconstraints\.txt\b", makefile, re.M)


def test_lowest_pins_each_requirement_at_its_lower_bound(tmp_path):
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(
        '[project]\ndependencies = ["numpy>=1.26,<3", "PyYAML >= 6.0"]\n'
        '[project.optional-dependencies]\ntest = ["pytest>=8.0"]\n',
        encoding="utf-8",
    )
    assert lowest_pins(pyproject) == ["numpy==1.26", "PyYAML==6.0", "pytest==8.0"]


@pytest.mark.parametrize(
    ("requirement", "problem"),
    [("numpy", "one lower bound"), ("numpy<3", "one lower bound"), ("numpy==2.4.6", "one lower bound"),
     ("numpy>=>1", "Expected")],
)  # fmt: skip
def test_a_requirement_without_one_lower_bound_is_named(tmp_path, requirement, problem):
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(f'[project]\ndependencies = ["{requirement}"]\n', encoding="utf-8")
    with pytest.raises(InputError, match=rf"pyproject\.toml: requirement '{re.escape(requirement)}': .*{problem}"):
        lowest_pins(pyproject)
